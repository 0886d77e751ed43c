/**
 * The control plane's pid file for `smtc serve`: `<pid> <start time>` (mode 0600), so the
 * manifest's kill and restart commands signal the process only while it is still the one
 * that wrote the file — a pid reused by another process after a crash is left alone — and
 * removed on a clean shutdown. The start time is field 22 of /proc/<pid>/stat (clock ticks
 * since boot), read after the command name, which may itself hold spaces or parentheses.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export function writePidFile(file: string, pid = process.pid): void {
  writeFileSync(file, `${pid} ${processStartTime(pid) ?? '-'}\n`, { mode: 0o600 });
}

/** The pid the file names, if that process still runs and started when the file says. */
export function livePidOf(file: string): number | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const [pidText, start] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return start !== undefined && start === processStartTime(pid) ? pid : null;
}

/** Removes the file if it still names this process (a restarted control plane owns a new one). */
export function removeOwnPidFile(file: string, pid = process.pid): void {
  if (livePidOf(file) === pid) rmSync(file, { force: true });
}

/**
 * Shell: sets $pid to the process the pid file ($0) names, or exits 3 when it names none that
 * still runs as the one that wrote it (stale file, pid reused).
 */
export const OWN_PID_SH = [
  'read pid start <"$0" || exit 3',
  'now="$(sed "s/.*) //" "/proc/$pid/stat" 2>/dev/null | cut -d" " -f20)"',
  '[ -n "$now" ] && [ "$now" = "$start" ] || { echo "smtc: $0 names no running control plane (stale pid file)" >&2; exit 3; }',
].join('; ');
