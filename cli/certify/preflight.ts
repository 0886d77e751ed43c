/**
 * Pre-flight: before any suite, the target must load, create one instance and answer within a
 * bounded time. The probe runs in a child process (its own process group) under a watchdog: a
 * never-settling import or top-level await, a create() that never resolves, a blocked event
 * loop or a URL that accepts and never answers are stopped and reported as one clear error
 * (exit 2), instead of every suite file waiting out its own timeouts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TargetLoadError } from '../../fixtures/targets/load-target.js';
import type { PreflightLine, PreflightStep } from './preflight-child.js';
import { stopProcessGroup } from './process-group.js';

export class PreflightError extends TargetLoadError {
  override name = 'PreflightError';
}

/**
 * Default bound of each step. Loading and answering are quick for any target (a bad one ends
 * the run in about 25 s); creating an instance gets what the suites themselves allow it (60 s,
 * their hook timeout), because a real target may take that long to start its processes.
 */
export const PREFLIGHT_DEFAULT_MS: Readonly<Record<PreflightStep, number>> = {
  load: 20_000,
  create: 60_000,
  check: 20_000,
  destroy: 20_000,
};

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'preflight-child.ts');

const WHAT: Record<PreflightStep, string> = {
  load: 'load',
  create: 'create an instance',
  check: 'answer a first call',
  destroy: 'destroy its instance',
};

/** Why a step can overrun, as far as the kit can tell from outside. */
function overrunHint(target: string, step: PreflightStep): string {
  if (/^https?:\/\//i.test(target)) return ' (the service did not answer in time)';
  if (step === 'load') return ' (its import or top-level await never settled, or it blocked the event loop)';
  return ' (it never settled, or it blocked the event loop)';
}

/** A target's name longer than this is cut (it reaches the terminal and every report). */
const MAX_NAME_CHARS = 200;

export interface PreflightResult {
  readonly serialSuites: boolean;
  /** The target module's declared name (target-controlled: bounded here, made inert where printed). */
  readonly name: string;
  readonly durationMs: number;
}

/** Each step's bound: SMTC_PREFLIGHT_MS sets one bound for every step. */
export function preflightBudgetMs(env: NodeJS.ProcessEnv = process.env): Readonly<Record<PreflightStep, number>> {
  const n = Number(env.SMTC_PREFLIGHT_MS);
  if (!(env.SMTC_PREFLIGHT_MS && Number.isFinite(n) && n > 0)) return PREFLIGHT_DEFAULT_MS;
  const ms = Math.min(n, 600_000);
  return { load: ms, create: ms, check: ms, destroy: ms };
}

export async function preflight(
  target: string,
  manifest?: string,
  budgetMs: Readonly<Record<PreflightStep, number>> = preflightBudgetMs(),
): Promise<PreflightResult> {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'smtc-preflight-'));
  try {
    return await probe(target, manifest, tempDir, budgetMs);
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

async function probe(
  target: string,
  manifest: string | undefined,
  tempDir: string,
  budgetMs: Readonly<Record<PreflightStep, number>>,
): Promise<PreflightResult> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, target, tempDir], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The probe loads an HTTP target's manifest as the suites do (settings from the environment).
    env: manifest ? { ...process.env, SMTC_MANIFEST: manifest } : process.env,
  });
  let step: PreflightStep | 'start' = 'start';
  // The watchdog: each step gets its own bound, from when it was announced.
  let timer: NodeJS.Timeout | undefined;
  let overrun!: () => void;
  const overran = new Promise<'timeout'>((resolve) => {
    overrun = () => resolve('timeout');
  });
  const arm = (s: PreflightStep) => {
    clearTimeout(timer);
    timer = setTimeout(overrun, budgetMs[s]);
  };
  arm('load');
  let result: PreflightLine | undefined;
  let stdoutBuf = '';
  let stderrTail = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdoutBuf += d;
    for (let i = stdoutBuf.indexOf('\n'); i >= 0; i = stdoutBuf.indexOf('\n')) {
      const line = stdoutBuf.slice(0, i);
      stdoutBuf = stdoutBuf.slice(i + 1);
      try {
        const msg = JSON.parse(line) as PreflightLine;
        if ('ok' in msg || 'error' in msg) result = msg;
        else if ('step' in msg && msg.step in budgetMs) {
          if (msg.step !== step) arm(msg.step);
          step = msg.step;
        }
      } catch {
        // A target printing to stdout: not ours to interpret.
      }
    }
    if (stdoutBuf.length > 65_536) stdoutBuf = '';
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderrTail = (stderrTail + d).slice(-2000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const outcome = await Promise.race([exited, overran]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    await stopProcessGroup(child, exited);
    const at = step === 'start' ? 'load' : step;
    const secs = `${Math.round(budgetMs[at] / 1000)} s`;
    throw new PreflightError(
      `pre-flight: the target ${target} did not ${WHAT[at]} within ${secs}${overrunHint(target, at)}; stopped it (SMTC_PREFLIGHT_MS sets the bound)`,
    );
  }
  // Anything the probe's process group still holds (a target's own children) goes too.
  await stopProcessGroup(child, exited);
  if (result && 'ok' in result) {
    const name = typeof result.name === 'string' && result.name ? result.name.slice(0, MAX_NAME_CHARS) : target;
    return { serialSuites: result.serialSuites === true, name, durationMs: Date.now() - started };
  }
  if (result && 'error' in result) {
    throw new PreflightError(`pre-flight: the target ${target} failed to ${result.step}: ${result.error}`);
  }
  const { code, signal } = outcome;
  const hint = code === 13 ? ' (a top-level await that waits on nothing: the import can never settle)' : '';
  const tail = stderrTail.trim() ? `\n${stderrTail.trim().split('\n').slice(-8).join('\n')}` : '';
  throw new PreflightError(
    `pre-flight: the target ${target} ended the probe during ${step === 'start' ? 'load' : step} with ${signal ?? `exit code ${code}`}${hint}${tail}`,
  );
}
