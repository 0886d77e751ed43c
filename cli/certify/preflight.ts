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

/** Default bound of the whole pre-flight; with the stop grace, a bad target ends the run well within 30 s. */
export const PREFLIGHT_DEFAULT_MS = 20_000;

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

export interface PreflightResult {
  readonly serialSuites: boolean;
  readonly durationMs: number;
}

export function preflightBudgetMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.SMTC_PREFLIGHT_MS);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 600_000) : PREFLIGHT_DEFAULT_MS;
}

export async function preflight(target: string, budgetMs = preflightBudgetMs()): Promise<PreflightResult> {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'smtc-preflight-'));
  try {
    return await probe(target, tempDir, budgetMs);
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

async function probe(target: string, tempDir: string, budgetMs: number): Promise<PreflightResult> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, target, tempDir], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  let step: PreflightStep | 'start' = 'start';
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
        else if ('step' in msg) step = msg.step;
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
  let timer: NodeJS.Timeout | undefined;
  const overran = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), budgetMs);
  });
  const outcome = await Promise.race([exited, overran]);
  clearTimeout(timer);
  const secs = `${Math.round(budgetMs / 1000)} s`;
  if (outcome === 'timeout') {
    await stopProcessGroup(child, exited);
    const at = step === 'start' ? 'load' : step;
    throw new PreflightError(
      `pre-flight: the target ${target} did not ${WHAT[at]} within ${secs}${overrunHint(target, at)}; stopped it (SMTC_PREFLIGHT_MS sets the bound)`,
    );
  }
  // Anything the probe's process group still holds (a target's own children) goes too.
  await stopProcessGroup(child, exited);
  if (result && 'ok' in result) return { serialSuites: result.serialSuites, durationMs: Date.now() - started };
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
