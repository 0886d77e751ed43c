/**
 * Closing the control plane's worker pool while its workers are still starting (a SIGTERM
 * during start-up, a create() abandoned) leaves no worker process behind: close() returns only
 * once every process it started is gone, and the start it interrupted fails as unavailable.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Delegations } from '../../reference-impl/runs/control-plane/delegations.js';
import { RemoteWorkerPool } from '../../reference-impl/runs/remote/remote-worker-pool.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'smtc-pool-close-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Live (non-zombie) processes whose command line names `dir`. */
function processesNaming(dir: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const zombie = /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (!zombie && cmd.includes(dir)) found.push(Number(pid));
    } catch {
      // gone
    }
  }
  return found;
}

describe('remote worker pool', () => {
  it('closed while its workers start: no worker outlives close(), the start fails as unavailable', async () => {
    const pool = new RemoteWorkerPool({
      workers: 2,
      rootDir: root,
      hmacKey: randomBytes(32),
      // Only runs use delegations; none is started here.
      delegations: {} as Delegations,
      env: {},
    });
    // Workers call the control plane only during runs: an address nobody serves will do.
    const started = pool.start('http://127.0.0.1:9');
    const outcome = started.then(
      () => 'started',
      (e: { code?: string }) => e.code,
    );
    expect(processesNaming(root).length).toBeGreaterThan(0);
    await pool.close();
    expect(processesNaming(root)).toEqual([]);
    expect(await outcome).toBe('unavailable');
    expect(pool.pids()).toEqual([-1, -1]);
  }, 60_000);
});
