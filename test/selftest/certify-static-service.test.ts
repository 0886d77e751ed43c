/**
 * The reference as a running service, certified the way a stranger's service is: `smtc serve`
 * started by hand, then `smtc certify --target URL --manifest FILE`. Every suite gets a fresh
 * instance of the service with its own collector, stubs and options (`POST /_smtc/targets`),
 * control-plane faults go through the manifest's kill/restart commands — so every requirement
 * must be certified — and the kit deletes every instance it created.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { livePidOf } from '../../cli/serve-pid-file.js';
import { ProcessSupervisor, processAlive } from '../../fixtures/faults/process-supervisor.js';
import { expectCertifiedExcept } from './expect-certified.js';
import { runCertify } from './run-certify.js';
import { startSmtcServe } from './smtc-serve.js';

const supervisor = new ProcessSupervisor();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'smtc-static-service-'));

/** The serving control plane: after a restart it is no child of ours, so it is found by its pid file. */
async function stopService(): Promise<void> {
  await supervisor.stopAll();
  // Only while the pid file still names the process that wrote it (never a reused pid).
  const pid = livePidOf(path.join(dataDir, 'control-plane.pid'));
  if (pid === null || !processAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (processAlive(pid)) process.kill(pid, 'SIGKILL');
}

afterAll(async () => {
  await stopService();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('self-test: the reference as a running service (smtc serve, URL + manifest)', () => {
  it('is certified on every requirement, and no instance the kit created is left behind', async () => {
    const { url, manifest } = await startSmtcServe(supervisor, dataDir, 1);
    const run = await runCertify(['--target', url, '--manifest', manifest], 1_200_000);
    expectCertifiedExcept(run, [/Toxiproxy not available/]);
    const registry = JSON.parse(readFileSync(path.join(dataDir, 'targets', 'registry.json'), 'utf8')) as {
      instances: unknown[];
    };
    expect(registry.instances).toEqual([]);
  }, 1_200_000);
});
