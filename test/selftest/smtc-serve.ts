/** `smtc serve` started as users start it (test controls on), for tests that certify a running service. */
import path from 'node:path';
import type { ProcessSupervisor } from '../../fixtures/faults/process-supervisor.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

/** Starts it on a free port over dataDir; resolves with its URL and manifest file. */
export async function startSmtcServe(
  supervisor: ProcessSupervisor,
  dataDir: string,
  workers: number,
): Promise<{ url: string; manifest: string }> {
  const served = await supervisor.start({
    name: 'smtc-serve',
    command: process.execPath,
    args: [
      path.join(REPO_ROOT, 'cli/smtc.mjs'),
      'serve',
      ...['--port', '0', '--data-dir', dataDir, '--workers', String(workers), '--enable-test-controls'],
    ],
    cwd: REPO_ROOT,
    ready: /^smtc serve: http:\/\/127\.0\.0\.1:\d+$/,
    readyTimeoutMs: 60_000,
  });
  return { url: served.readyLine.slice('smtc serve: '.length), manifest: path.join(dataDir, 'manifest.json') };
}
