/**
 * The control plane ↔ sandbox worker process transport (RemoteWorkerPool): a real worker OS
 * process, a real control plane HTTP server in this process. A worker that dies mid-run after
 * output makes the run uncertain (fenced, previous head, no replay); before any output it just
 * fails; trace context crosses the wire so worker spans continue the control plane's trace;
 * the worker holds no database handle; its delegation token opens memory for its agent only.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HttpTargetClient } from '../../contract/http/protocol-client.js';
import type { RunOutcome, RunStep } from '../../contract/runs.js';
import { SERVICE, SPAN } from '../../contract/tracing.js';
import { SPEC } from '../../fixtures/scenario/thread-session.js';
import type { ReferenceTarget } from '../../reference-impl/reference-target.js';
import { startReferenceServer } from '../../reference-impl/server/start-reference-server.js';
import { killedAtProvider as killAtProvider } from './killed-at-provider.js';
import { useServed } from './served-fixture.js';

const served = useServed(
  'smtc-remote-worker-',
  ({ dir, env }) => startReferenceServer({ dataDir: dir, workers: 1, enableTestControls: true, env, log: () => {} }),
  (server) => server.close(),
  60_000,
);
const ref = () => served.target.target as ReferenceTarget;

async function binding(): Promise<string> {
  return (await ref().bindings.open(ref().principals.alice, SPEC)).bindingId;
}

function run(bindingId: string, steps: RunStep[]): Promise<RunOutcome> {
  return ref().runs!.start(ref().principals.alice, { bindingId, agent: ref().principals.agents[0], steps });
}

const killedAtProvider = (bindingId: string, steps: RunStep[]) =>
  killAtProvider(ref(), served.stubs.provider, () => run(bindingId, steps));

describe('remote worker transport', () => {
  it('runs in a separate OS process that holds no database handle', async () => {
    const out = await run(await binding(), [{ type: 'emit', text: 'hello' }]);
    expect(out).toMatchObject({ state: 'completed', revision: 1 });
    const [pid] = ref().workerPids();
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    const files = readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(files.filter((f) => f.includes('.sqlite'))).toEqual([]);
  });

  it('a worker killed after output: uncertain_durability, previous head kept, run fenced, no replay', async () => {
    const id = await binding();
    const first = await run(id, [{ type: 'emit', text: 'kept' }]);
    const out = await killedAtProvider(id, [
      { type: 'emit', text: 'shown' },
      { type: 'provider', prompt: 'slow' },
    ]);
    expect(out.state).toBe('uncertain_durability');
    expect(out.revision).toBe(first.revision);
    expect(out.events.map((e) => e.type)).toEqual(['output', 'error']);
    expect(out.events.at(-1)).toMatchObject({ type: 'error', code: 'uncertain_durability' });
    const s = await ref().bindings.acquireLease(ref().principals.alice, id);
    const store = ref().threadState(s);
    expect((await store.load_head(s.scope))?.revision).toBe(first.revision);
    expect(await store.run_status(s.scope, out.runId)).toMatchObject({
      state: 'uncertain_durability',
      reason: 'worker_lost_after_output',
    });
    // The next run gets a fresh worker and a fresh lease; the provider was called once.
    const next = await run(id, [{ type: 'emit', text: 'next' }]);
    expect(next).toMatchObject({ state: 'completed', revision: first.revision + 1 });
    expect(served.stubs.provider.completions()).toHaveLength(1);
  });

  it('a worker killed before any output: the run fails cleanly and is not fenced', async () => {
    const id = await binding();
    const out = await killedAtProvider(id, [{ type: 'provider', prompt: 'first thing' }]);
    expect(out).toMatchObject({ state: 'failed', revision: 0 });
    expect(out.events).toEqual([{ seq: 1, type: 'error', code: 'unavailable' }]);
    const s = await ref().bindings.acquireLease(ref().principals.alice, id);
    expect(await ref().threadState(s).run_status(s.scope, out.runId)).toBeNull();
  });

  it('a run bigger than a worker reads is a permanent payload_too_large: no worker lost, nothing shown', async () => {
    // Valid for the control plane (256 steps of 64 Ki characters may be), past the worker's body bound.
    const text = 'x'.repeat(64 * 1024);
    const steps: RunStep[] = Array.from({ length: 150 }, () => ({ type: 'emit', text }));
    const id = await binding();
    // Earlier cases killed workers: a first run brings the binding's worker up.
    await run(id, [{ type: 'emit', text: 'small' }]);
    const [pid] = ref().workerPids();
    const events: unknown[] = [];
    const refused = await ref()
      .runs!.start(ref().principals.alice, { bindingId: id, agent: ref().principals.agents[0], steps }, (e) =>
        events.push(e),
      )
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(refused).toMatchObject({ code: 'payload_too_large', retryable: false });
    expect(events).toEqual([]);
    expect(ref().workerPids()).toEqual([pid]);
    expect(await run(id, [{ type: 'emit', text: 'small' }])).toMatchObject({ state: 'completed' });
  });

  it('trace context crosses the wire: worker spans continue the control plane trace', async () => {
    const out = await run(await binding(), [
      { type: 'emit', text: 'traced' },
      { type: 'provider', prompt: 'p' },
    ]);
    await ref().telemetry!.flush();
    const spans = await served.collector.waitForSpans(
      (all) => all.some((s) => s.traceId === out.traceId && s.name === SPAN.run),
      10_000,
    );
    const mine = spans.filter((s) => s.traceId === out.traceId);
    const byName = (n: string) => mine.find((s) => s.name === n)!;
    expect(byName(SPAN.run).serviceName).toBe(SERVICE.worker);
    expect(byName(SPAN.request).serviceName).toBe(SERVICE.controlPlane);
    expect(byName(SPAN.run).parentSpanId).toBe(byName(SPAN.request).spanId);
    expect(byName(SPAN.workerBind).parentSpanId).toBe(byName(SPAN.sandboxClaim).spanId);
    expect(byName(SPAN.providerInvoke).parentSpanId).toBe(byName(SPAN.run).spanId);
  });

  it('memory through a run-scoped delegation: its agent only, memory and tool routes only, revoked after', async () => {
    const id = await binding();
    const out = await run(id, [
      {
        type: 'memory_write',
        scope: 'user',
        proposal: { key: 'delegated-note', kind: 'semantic', content: 'likes tea', contentType: 'text/plain' },
      },
    ]);
    expect(out.state).toBe('completed');
    const rec = await ref()
      .memory(ref().principals.alice, ref().principals.agents[0])
      .get({ kind: 'user' }, 'delegated-note');
    expect(rec?.provenance.writer).toBe('alice');

    const token = ref().delegations!.mint(ref().principals.alice, ref().principals.agents[0]);
    const client = new HttpTargetClient(served.target.url);
    try {
      const body = (agent: string) => ({ agent, scope: { kind: 'user' }, key: 'delegated-note' });
      expect((await client.call('memoryGet', { token, body: body(ref().principals.agents[0]) })).record?.content).toBe(
        'likes tea',
      );
      await expect(client.call('memoryGet', { token, body: body(ref().principals.agents[1]) })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(client.call('bindingsOpen', { token, body: { spec: SPEC } })).rejects.toMatchObject({
        code: 'unauthenticated',
      });
      ref().delegations!.revoke(token);
      await expect(client.call('memoryGet', { token, body: body(ref().principals.agents[0]) })).rejects.toMatchObject({
        code: 'unauthenticated',
      });
    } finally {
      await client.close();
    }
  });
});
