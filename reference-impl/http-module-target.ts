/**
 * The bundled reference certified over real HTTP: each `create(env)` starts the reference
 * server (reference-impl/server/main.ts) as a child process with the env's collector and stub
 * URLs and options, test controls on, and returns the HTTP adapter's Target for it. Run every
 * suite this way with `SMTC_TARGET=reference-impl/http-module-target.ts`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpTargetManifest } from '../contract/http/manifest.js';
import type { TargetModule } from '../contract/target.js';
import { httpTargetModule } from '../fixtures/targets/http/http-target-module.js';
import { runEntryArgs } from './run-entry-command.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..');

/**
 * A spawn-mode manifest for the reference server (`server/main.ts`): the served process writes
 * the rest (URL, tokens, capabilities). `workers: 0` keeps the worker inside the server process.
 */
export function referenceServerManifest(opts: {
  readonly name: string;
  readonly workers: number;
  readonly testControls: boolean;
  /** A module whose `referenceParts` the served reference is assembled with (reference-parts.ts). */
  readonly partsModule?: string;
}): HttpTargetManifest {
  return {
    manifestVersion: 1,
    name: opts.name,
    capabilities: {},
    process: {
      start: {
        command: [
          process.execPath,
          ...runEntryArgs(path.join(HERE, 'server/main.ts'), { partsModule: opts.partsModule }),
          // A fixed port, so a restarted control plane answers on the same URL.
          '--port',
          '{port}',
          '--data-dir',
          '{dataDir}',
          '--env',
          '{envFile}',
          '--manifest-out',
          '{manifestOut}',
          ...(opts.testControls ? ['--enable-test-controls'] : []),
          '--exit-on-stdin-close',
          // Sandbox workers as separate OS processes (process-fault scenarios kill them).
          '--workers',
          String(opts.workers),
          ...(opts.partsModule ? ['--parts', opts.partsModule] : []),
        ],
        cwd: REPO_ROOT,
        readyTimeoutMs: 60_000,
      },
    },
  };
}

export const REFERENCE_HTTP_MANIFEST = referenceServerManifest({
  name: 'smtc-reference',
  workers: 1,
  testControls: true,
});

const referenceOverHttp: TargetModule = httpTargetModule(REFERENCE_HTTP_MANIFEST, {
  source: path.join(HERE, 'http-module-target.ts'),
});
export default referenceOverHttp;
