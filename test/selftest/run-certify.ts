/** Runs `smtc certify` as a child process (as users do) and returns its verdict.json. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Certification } from '../../cli/certify/verdict.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

export interface CertifyRun {
  exitCode: number | null;
  output: string;
  verdict: Certification | null;
}

/** The verdict.json a certification wrote into `out`, or null when it wrote none (or a torn one). */
export function readVerdict(out: string): Certification | null {
  try {
    return JSON.parse(readFileSync(path.join(out, 'verdict.json'), 'utf8')) as Certification;
  } catch {
    return null;
  }
}

export function runCertify(
  args: readonly string[],
  timeoutMs = 300_000,
  out = mkdtempSync(path.join(os.tmpdir(), 'smtc-selftest-')),
): Promise<CertifyRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'cli/smtc.mjs'), 'certify', '-q', '--out', out, ...args],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SMTC_TARGET: '' },
      },
    );
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`certify ${args.join(' ')} did not finish in ${timeoutMs} ms\n${output}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, output, verdict: readVerdict(out) });
    });
  });
}
