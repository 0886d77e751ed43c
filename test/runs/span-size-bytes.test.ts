/**
 * `smtc.size.bytes` on the reference's provider and tool spans is what its name says: UTF-8
 * bytes of the prompt and the tool arguments, not UTF-16 code units (bug bash 7's aside). Read
 * from what the real OTLP exporter delivered to the span collector.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../contract/target.js';
import { type SpanCollector, startSpanCollector } from '../../fixtures/collector/span-collector.js';
import { authorizedTool } from '../../fixtures/scenario/authorized-tool.js';
import { SPEC } from '../../fixtures/scenario/thread-session.js';
import { startStubs } from '../../fixtures/stubs/use-stubs.js';
import referenceModule from '../../reference-impl/module-target.js';

let stubs: Awaited<ReturnType<typeof startStubs>>;
let collector: SpanCollector;
let t: Target;
let dir: string;

beforeAll(async () => {
  stubs = await startStubs();
  collector = await startSpanCollector();
  dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-size-'));
  t = await referenceModule.create({ tempDir: dir, ...stubs.urls(), collectorUrl: collector.tracesUrl });
});
afterAll(async () => {
  await referenceModule.destroy!(t);
  await collector.close();
  await stubs.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('smtc.size.bytes', () => {
  it('counts UTF-8 bytes of a prompt and of tool arguments in 1- to 4-byte characters', async () => {
    const tool = await authorizedTool(t, t.principals.alice, t.principals.agents[0]);
    expect(tool).not.toBeNull();
    const prompt = 'Grüße, 世界 🌍 a';
    const args = '{"q":"été 🌍"}';
    const { bindingId } = await t.bindings.open(t.principals.alice, SPEC);
    const out = await t.runs!.start(t.principals.alice, {
      bindingId,
      agent: t.principals.agents[0],
      steps: [
        { type: 'provider', prompt },
        { type: 'tool', tool: tool!, args },
      ],
    });
    expect(out.state).toBe('completed');
    await t.telemetry!.flush();
    const size = (name: string) =>
      collector.spans().find((s) => s.name === name && s.traceId === out.traceId)?.attributes['smtc.size.bytes'];
    expect({ provider: size('provider.invoke'), tool: size('tool.invoke') }).toEqual({
      provider: Buffer.byteLength(prompt),
      tool: Buffer.byteLength(args),
    });
    expect(Buffer.byteLength(prompt)).toBeGreaterThan(prompt.length);
  });
});
