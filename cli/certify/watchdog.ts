/**
 * Bounds on the suites beyond vitest's per-test and per-hook timeouts (which let a hanging
 * target cost every suite file its own timeouts, hundreds of seconds): each suite file, and
 * the whole run, must finish within a bound; the first overrun stops the run and says which
 * file and which scenario was running.
 */
import path from 'node:path';

export interface RunningFiles {
  /** Suite files now running: absolute path → when it started and the scenario it is in. */
  readonly running: ReadonlyMap<string, { readonly startedAt: number; readonly current?: string }>;
}

export interface Overrun {
  readonly kind: 'file' | 'run';
  /** The suite file that overran (for a whole-run overrun: the longest-running one, if any). */
  readonly file?: string;
  readonly message: string;
}

export interface WatchdogBounds {
  readonly fileMs: number;
  readonly runMs: number;
}

function envMs(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** SMTC_SUITE_FILE_MS (default 30 min) and SMTC_RUN_MS (default 2 h). */
export function watchdogBounds(env: NodeJS.ProcessEnv = process.env): WatchdogBounds {
  return { fileMs: envMs(env.SMTC_SUITE_FILE_MS, 30 * 60_000), runMs: envMs(env.SMTC_RUN_MS, 2 * 60 * 60_000) };
}

const secs = (ms: number) => `${Math.round(ms / 1000)} s`;

export function startWatchdog(
  files: RunningFiles,
  root: string,
  bounds: WatchdogBounds,
  onOverrun: (o: Overrun) => void,
): { stop(): void } {
  const started = Date.now();
  const where = (file: string, current?: string) =>
    // Before its first scenario the file is loading or in a setup hook (creating the target).
    `${path.relative(root, file)}${current ? ` in scenario "${current}"` : ' before its first scenario (loading or setting up)'}`;
  const timer = setInterval(
    () => {
      const now = Date.now();
      let oldest: [string, { startedAt: number; current?: string }] | undefined;
      for (const entry of files.running) if (!oldest || entry[1].startedAt < oldest[1].startedAt) oldest = entry;
      if (oldest && now - oldest[1].startedAt > bounds.fileMs) {
        clearInterval(timer);
        onOverrun({
          kind: 'file',
          file: oldest[0],
          message: `suite file ${where(oldest[0], oldest[1].current)} overran its ${secs(bounds.fileMs)} bound (SMTC_SUITE_FILE_MS); the run was stopped`,
        });
      } else if (now - started > bounds.runMs) {
        clearInterval(timer);
        onOverrun({
          kind: 'run',
          ...(oldest ? { file: oldest[0] } : {}),
          message: `the run overran its ${secs(bounds.runMs)} bound (SMTC_RUN_MS)${oldest ? ` while ${where(oldest[0], oldest[1].current)} ran` : ''}; the run was stopped`,
        });
      }
    },
    Math.min(1_000, Math.max(50, Math.floor(bounds.fileMs / 10))),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
