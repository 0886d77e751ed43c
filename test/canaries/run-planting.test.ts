import { describe, expect, it } from 'vitest';
import { CanaryKit } from '../../canaries/canary-kit.js';
import { FORBIDDEN_CATEGORIES } from '../../canaries/forbidden-categories.js';
import { CARRIERS, ENV_PREFIX, plantRunInputs } from '../../canaries/run-planting.js';
import type { RunStep } from '../../contract/runs.js';

function texts(steps: readonly RunStep[]): string[] {
  return steps.flatMap((s) => {
    switch (s.type) {
      case 'provider':
        return [s.prompt];
      case 'tool':
        return [s.args];
      case 'emit':
        return [s.text];
      case 'interrupt':
        return [s.value];
      case 'memory_write':
        return [s.proposal.content];
      case 'subagent':
        return texts(s.steps);
      default:
        return [];
    }
  });
}

describe('planting canaries through every run input', () => {
  it('mints one canary of every category per carrier and records a carrier as planted only when told', () => {
    const kit = new CanaryKit();
    const p = plantRunInputs(kit);
    const canaries = kit.canaries();
    expect(canaries).toHaveLength(FORBIDDEN_CATEGORIES.length * CARRIERS.length);
    expect(canaries.every((c) => kit.plantedAt(c).length === 0)).toBe(true);
    expect(p.unplanted()).toEqual(CARRIERS);
    p.plant('request.headers');
    expect(p.unplanted()).toEqual(CARRIERS.filter((c) => c !== 'request.headers'));
    for (const c of CARRIERS) p.plant(c);
    expect(p.unplanted()).toEqual([]);
    for (const carrier of CARRIERS) {
      const here = canaries.filter((c) => kit.plantedAt(c).includes(carrier));
      expect(here.map((c) => c.category).sort()).toEqual([...FORBIDDEN_CATEGORIES].sort());
    }
    expect(new Set(canaries.map((c) => c.marker)).size).toBe(canaries.length);
  });

  it('puts each carrier’s canaries where it says: headers, script, replies, memory, environment', () => {
    const kit = new CanaryKit();
    const p = plantRunInputs(kit);
    for (const c of CARRIERS) p.plant(c);
    const of = (carrier: string) => kit.canaries().filter((c) => kit.plantedAt(c).includes(carrier));
    const lower = (s: string) => s.toLowerCase();
    const has = (hay: string, carrier: string) => {
      for (const c of of(carrier)) expect(lower(hay), `${carrier}: ${c.category}`).toContain(c.marker);
    };
    has(decodeURIComponent(Object.values(p.headers).join('\n')), 'request.headers');
    const script = [...texts(p.firstRun('search_docs')), ...texts(p.interruptRun)].join('\n');
    has(script, 'request.body:provider.prompt');
    has(script, 'request.body:tool.args');
    has(script, 'request.body:emit.text');
    has(script, 'request.body:memory_write.content');
    has(script, 'request.body:subagent.prompt');
    has(script, 'request.body:interrupt.value');
    has(script, 'checkpoint.payload(committed by run 1, loaded by run 2)');
    has(p.resumeValue, 'request.resume.value');
    has(p.memorySeed.proposal.content, 'memory.content(seeded, read by the run)');
    has(p.providerReply('x').text, 'provider.response:text');
    has(p.providerReply('x').stderr, 'provider.response:stderr');
    has(
      ['search', 'read_file', 'kubectl_get'].map((t) => p.toolReply(t, '').result).join('\n'),
      'tool.response:result',
    );
    has(Object.values(p.environment).join('\n'), 'worker.environment');
    expect(Object.keys(p.environment).filter((k) => k.startsWith(ENV_PREFIX))).toHaveLength(
      FORBIDDEN_CATEGORIES.length,
    );
  });

  it('makes header values a client could really send (visible ASCII, no line breaks)', () => {
    const p = plantRunInputs(new CanaryKit());
    for (const [name, value] of Object.entries(p.headers)) {
      expect(name).toMatch(/^[a-z-]+$/);
      expect(value, name).toMatch(/^[\x20-\x7e]+$/);
    }
  });

  it('tells the suite which markers must reach the provider, the tool and the checkpoint', () => {
    const p = plantRunInputs(new CanaryKit());
    const prompts = texts(p.firstRun('search_docs')).join('\n');
    for (const m of [...p.mustReach.provider, ...p.mustReach.tool, ...p.mustReach.checkpoint])
      expect(prompts).toContain(m);
    expect(p.mustReach.checkpoint.length).toBe(FORBIDDEN_CATEGORIES.length - 1);
  });
});
