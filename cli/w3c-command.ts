/**
 * `smtc w3c`: W3C's Trace Context harness against a target, in a child process (the runner
 * starts the target's W3C test service and Python; fixtures/w3c/run-harness.ts). An interrupt
 * is passed on, so the child stops its service and the target it created.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/targets/load-target.js';

export function runW3CReferee(args: readonly string[]): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'fixtures/w3c/run-harness.ts'), ...args],
    {
      stdio: 'inherit',
    },
  );
  const pass = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = pass('SIGINT');
  const onTerm = pass('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal ? 130 : 2));
    });
  });
}
