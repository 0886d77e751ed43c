/**
 * Everything one `smtc certify` run leaves on the machine, so it can all be taken back when
 * the run is interrupted or stopped: every process the run starts (suite processes, targets
 * they spawn, kit services) inherits a marker in its environment; every temporary file goes
 * under the run's own TMPDIR; every instance created on a service is in the instance ledger.
 * `release()` stops the marked processes, deletes the live instances and removes the directory.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { liveInstances } from '../../fixtures/targets/http/instance-ledger.js';
import {
  INSTANCE_LEDGER_VAR,
  RUN_MARK_VAR as MARK_VAR,
  OWNER_TMPDIR_VAR,
} from '../../fixtures/targets/run-scope-env.js';

/** Looks after the removal of a stopped run's directory for processes that were still starting. */
const RELEASE_ROUNDS = 5;

export interface RunScope {
  readonly dir: string;
  /** Stops processes, deletes instances, removes the directory; says what it had to clean. */
  release(): Promise<string[]>;
  /** Removes the directory after a run that cleaned up after itself. */
  close(): void;
}

/** Pids (not ours) whose environment carries the marker: only our own processes' environ is readable. */
export function markedProcesses(mark: string): number[] {
  const needle = `${MARK_VAR}=${mark}`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      if (env.includes(needle)) found.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

function signal(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

async function stopMarked(mark: string, graceMs: number): Promise<number> {
  const first = markedProcesses(mark);
  if (first.length === 0) return 0;
  signal(first, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let left = markedProcesses(mark);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = markedProcesses(mark);
  }
  // A blocked event loop never runs its SIGTERM handler; what a killed parent spawned is marked too.
  for (let round = 0; round < 5 && left.length > 0; round++) {
    signal(left, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    left = markedProcesses(mark);
  }
  return first.length;
}

async function deleteInstance(root: string, id: string, adminToken: string): Promise<boolean> {
  try {
    const res = await fetch(`${root}/_smtc/targets/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    return res.ok || res.status === 404;
  } catch {
    return false;
  }
}

/** Opens the run's scope and points this process's environment (inherited by all it starts) at it. */
export function openRunScope(): RunScope {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-run-'));
  const mark = randomUUID();
  const ledger = path.join(dir, 'instances.ndjson');
  // What this changes is given back when the scope ends (a process may certify more than once).
  const saved = [MARK_VAR, INSTANCE_LEDGER_VAR, OWNER_TMPDIR_VAR, 'TMPDIR'].map((k) => [k, process.env[k]] as const);
  const restoreEnv = () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  process.env[MARK_VAR] = mark;
  process.env[INSTANCE_LEDGER_VAR] = ledger;
  process.env[OWNER_TMPDIR_VAR] = process.env.TMPDIR ?? '';
  // os.tmpdir() reads TMPDIR at each call: from here on, temporary files of the run land here.
  const tmp = path.join(dir, 'tmp');
  mkdirSync(tmp, { mode: 0o700 });
  process.env.TMPDIR = tmp;
  return {
    dir,
    async release() {
      const notes: string[] = [];
      const stopped = await stopMarked(mark, 3_000);
      if (stopped > 0) notes.push(`stopped ${stopped} process(es) the run had started`);
      const live = liveInstances(ledger);
      const deleted = await Promise.all(live.map((i) => deleteInstance(i.root, i.id, i.adminToken)));
      const failed = live.filter((_, n) => !deleted[n]);
      if (live.length > 0) notes.push(`deleted ${live.length - failed.length} target instance(s) the run had created`);
      for (const i of failed) notes.push(`could not delete target instance ${i.id} on ${i.root}: delete it by hand`);
      rmSync(dir, { recursive: true, force: true });
      // A stopped run's process may still have been starting (it wrote into TMPDIR after the
      // removal, recreating it): look again, a bounded number of times.
      for (let round = 0; stopped > 0 && round < RELEASE_ROUNDS; round++) {
        await new Promise((r) => setTimeout(r, 300));
        const again = await stopMarked(mark, 1_000);
        if (again === 0 && !existsSync(dir)) break;
        rmSync(dir, { recursive: true, force: true });
      }
      restoreEnv();
      return notes;
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
      restoreEnv();
    },
  };
}
