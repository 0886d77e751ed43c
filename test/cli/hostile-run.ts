/** Runs `smtc certify` against a hostile target and reports what it left behind. */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Certification } from '../../cli/certify/verdict.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

/** Runs at once: each is two Node processes; more only slows every one of them. */
const AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  while (running >= AT_ONCE) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  readonly leftProcesses: readonly number[];
  readonly leftFiles: readonly string[];
  readonly wroteVerdict: boolean;
  readonly verdict: Certification | null;
}

/** Processes whose environment carries the marker (ours only: /proc/<pid>/environ of others is unreadable). */
function processesMarked(mark: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(mark)) found.push(Number(pid));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

export interface HostileRunOptions {
  readonly env?: Record<string, string>;
  /** Sends this signal once the run's output so far matches (then waits for the run to end). */
  readonly signalWhen?: { readonly output: RegExp; readonly signal: NodeJS.Signals; readonly also?: () => boolean };
  readonly timeoutMs?: number;
}

/** `smtc certify` as a child with its own TMPDIR and a marker in its environment (to find leftovers). */
export function certifyHostile(
  args: readonly string[],
  opts: HostileRunOptions | Record<string, string> = {},
): Promise<Run> {
  const o: HostileRunOptions =
    'env' in opts || 'signalWhen' in opts || 'timeoutMs' in opts
      ? (opts as HostileRunOptions)
      : { env: opts as Record<string, string> };
  return slot(() => certifyOnce(args, o));
}

async function certifyOnce(args: readonly string[], o: HostileRunOptions): Promise<Run> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'smtc-zoo-tmp-'));
  const out = mkdtempSync(path.join(os.tmpdir(), 'smtc-zoo-out-'));
  const mark = `SMTC_ZOO_MARK=${randomUUID()}`;
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'cli/smtc.mjs'), 'certify', '--out', out, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SMTC_TARGET: '',
      TMPDIR: tmp,
      SMTC_ZOO_MARK: mark.slice('SMTC_ZOO_MARK='.length),
      ...o.env,
    },
  });
  let stdout = '';
  let stderr = '';
  let signalled = false;
  const watch = () => {
    const w = o.signalWhen;
    if (!w || signalled || !w.output.test(stdout + stderr) || (w.also && !w.also())) return;
    signalled = true;
    child.kill(w.signal);
  };
  const poll = setInterval(watch, 200);
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    watch();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    watch();
  });
  const code = await new Promise<number | null>((resolve) => {
    const guard = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 150_000);
    child.on('close', (c) => {
      clearTimeout(guard);
      clearInterval(poll);
      resolve(c);
    });
  });
  const wallMs = Date.now() - started;
  // Whatever outlives the run by more than a moment is left behind.
  let leftProcesses = processesMarked(mark);
  for (let i = 0; i < 20 && leftProcesses.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    leftProcesses = processesMarked(mark);
  }
  for (const pid of leftProcesses) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  // tsx keeps its transform cache in TMPDIR (tsx-<uid>): the loader's, not a target's data.
  const leftFiles = readdirSync(tmp).filter((f) => !/^tsx-\d+$/.test(f));
  const wroteVerdict = existsSync(path.join(out, 'verdict.json'));
  rmSync(tmp, { recursive: true, force: true });
  const verdict = wroteVerdict
    ? (JSON.parse(readFileSync(path.join(out, 'verdict.json'), 'utf8')) as Certification)
    : null;
  rmSync(out, { recursive: true, force: true });
  return { code, stdout, stderr, wallMs, leftProcesses, leftFiles, wroteVerdict, verdict };
}
