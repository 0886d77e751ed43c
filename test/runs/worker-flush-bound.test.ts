/**
 * A flush of a served reference during a collector outage waits on the workers' exports, each
 * bounded by the export timeout — which may be longer than the pool's 10 s bound on a worker call.
 * The pool gives a flush the export timeout (and a margin), so a slow flush never makes it kill
 * the worker as lost (contract: a collector outage "does not change … cleanup, or run outcomes").
 */
import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../contract/runs.js';
import { SPEC } from '../../fixtures/scenario/thread-session.js';
import type { ReferenceTarget } from '../../reference-impl/reference-target.js';
import { startReferenceServer } from '../../reference-impl/server/start-reference-server.js';
import { useServed } from './served-fixture.js';

/** Longer than the pool's 10 s bound on bind and health calls. */
const EXPORT_TIMEOUT_MS = 12_000;

const served = useServed(
  'smtc-flush-bound-',
  ({ dir, env }) =>
    startReferenceServer({
      dataDir: dir,
      workers: 1,
      env: { ...env, options: { exportTimeoutMs: EXPORT_TIMEOUT_MS } },
      log: () => {},
    }),
  (server) => server.close(),
  60_000,
);
const ref = () => served.target.target as ReferenceTarget;

async function run(text: string): Promise<RunOutcome> {
  const alice = ref().principals.alice;
  const { bindingId } = await ref().bindings.open(alice, SPEC);
  return ref().runs!.start(alice, { bindingId, agent: ref().principals.agents[0], steps: [{ type: 'emit', text }] });
}

describe('a worker flush bounded by the export timeout', () => {
  it(`a flush during a black-holed collector with a ${EXPORT_TIMEOUT_MS / 1000} s export timeout keeps the worker: same process, the next run completes`, async () => {
    expect((await run('before the outage')).state).toBe('completed');
    await ref().telemetry!.flush();
    const [pid] = ref().workerPids();
    expect(pid).toBeGreaterThan(0);
    await served.collector.setMode('blackhole');
    try {
      expect((await run('in the outage')).state).toBe('completed');
      const t0 = performance.now();
      await ref().telemetry!.flush();
      // The flush waited on an export the collector never answered: past the pool's call bound.
      expect(performance.now() - t0).toBeGreaterThan(10_000);
      expect(ref().workerPids(), 'the worker the flush waited on is still the pool’s').toEqual([pid]);
    } finally {
      await served.collector.setMode('up');
    }
    expect((await run('after the outage')).state).toBe('completed');
    expect(ref().workerPids()).toEqual([pid]);
  }, 60_000);
});
