/**
 * Stops a child the kit started `detached` (leader of its own process group) and everything
 * it started in that group: SIGTERM so it may clean up, SIGKILL after a short grace (a blocked
 * event loop never runs a signal handler). Bounded.
 */
import type { ChildProcess } from 'node:child_process';
import { signalProcessGroup } from '../../fixtures/faults/process-supervisor.js';

export const STOP_GRACE_MS = 2_000;

export async function stopProcessGroup(
  child: ChildProcess,
  exited: Promise<unknown>,
  graceMs = STOP_GRACE_MS,
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const running = child.exitCode === null && child.signalCode === null;
  if (running) signalProcessGroup(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const waited = running
    ? await Promise.race([
        exited.then(() => true),
        new Promise<false>((r) => {
          timer = setTimeout(() => r(false), graceMs);
        }),
      ])
    : true;
  clearTimeout(timer);
  // The leader gone or not, its group may still hold what it started.
  signalProcessGroup(pid, 'SIGKILL');
  if (!waited) await exited;
}
