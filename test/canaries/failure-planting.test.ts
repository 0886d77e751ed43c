import { describe, expect, it } from 'vitest';
import { CanaryKit } from '../../canaries/canary-kit.js';
import { plantPeerFailures } from '../../canaries/failure-planting.js';

describe('planting canaries in what failing peers answer', () => {
  const kit = new CanaryKit();
  const failures = plantPeerFailures(kit);

  it('fails the provider and the tool with an HTTP 500 body and a garbled non-JSON reply, each carrying its canaries', () => {
    for (const peer of ['provider', 'tool'] as const) {
      const mine = failures.filter((f) => f.peer === peer);
      expect(mine.some((f) => (f.reply.status ?? 200) >= 500)).toBe(true);
      expect(mine.some((f) => (f.reply.status ?? 200) === 200)).toBe(true);
    }
    for (const f of failures) {
      expect(f.canaries.length).toBeGreaterThan(0);
      // Case-folded: the person name carries its marker capitalised.
      for (const c of f.canaries) expect(f.reply.raw.toLowerCase()).toContain(c.marker);
      if ((f.reply.status ?? 200) === 200) expect(() => JSON.parse(f.reply.raw)).toThrow(SyntaxError);
    }
    expect(new Set(failures.map((f) => f.carrier)).size).toBe(failures.length);
  });

  it("a garbled short reply is quoted whole by JSON.parse's message, so an implementation exporting that message leaks the canary", () => {
    const short = failures.filter((f) => f.carrier.endsWith('garbled-short'));
    expect(short).toHaveLength(2);
    for (const f of short) {
      let message = '';
      try {
        JSON.parse(f.reply.raw);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toContain(f.canaries[0]!.marker);
    }
  });

  it('a one-step script meets each failure: the provider, or the authorized tool', () => {
    for (const f of failures) {
      const [step, ...rest] = f.steps('search');
      expect(rest).toEqual([]);
      expect(step?.type).toBe(f.peer);
      if (step?.type === 'tool') expect(step.tool).toBe('search');
    }
  });
});
