/**
 * Starts the reference implementation as an HTTP target: creates the reference Target over a
 * data directory, serves it with the generic target server, and writes its manifest (mode
 * 0600: it holds tokens). `smtc serve` and `main.ts` call this.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HttpTargetManifest } from '../../contract/http/manifest.js';
import type { HarnessEnv, Target } from '../../contract/target.js';
import { persistedAdminToken } from '../identity/persisted-admin-token.js';
import { createReferenceTarget } from '../reference-target.js';
import { type ErrorLog, stderrLog } from './error-reply.js';
import { ReferenceInstances } from './reference-instances.js';
import { servedManifest } from './served-manifest.js';
import { serveTarget } from './target-server.js';

export interface ReferenceServerOptions {
  /** Directory for the SQLite file (created if missing). */
  readonly dataDir: string;
  readonly host?: string;
  /** 0 (default) = any free port. */
  readonly port?: number;
  /** URLs and options the reference runs with (collector, provider/tool/trusted stubs…). */
  readonly env?: Omit<HarnessEnv, 'tempDir'>;
  /** Enable the `/_smtc/` test controls (clock, telemetry flush, failpoints). Default off. */
  readonly enableTestControls?: boolean;
  /** Admin token for telemetry health and test controls; random when omitted. */
  readonly adminToken?: string;
  /** Where to write the manifest (JSON, mode 0600). */
  readonly manifestOut?: string;
  readonly log?: ErrorLog;
  /** What a failpoint `panic` does; default: nothing beyond the 500 reply. */
  readonly onPanic?: () => void;
  /** Sandbox workers as separate OS processes (default 1); 0 runs the worker in-process. */
  readonly workers?: number;
  /** Absolute path of a module whose `referenceParts` replace parts of the reference (reference-parts.ts). */
  readonly partsModule?: string;
}

export interface ReferenceServer {
  readonly url: string;
  readonly manifest: HttpTargetManifest;
  readonly target: Target;
  close(): Promise<void>;
}

export async function startReferenceServer(opts: ReferenceServerOptions): Promise<ReferenceServer> {
  // Tokens and every tenant's data live here: this user only (also when it already existed).
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  chmodSync(opts.dataDir, 0o700);
  const env: HarnessEnv = { ...(opts.env ?? {}), tempDir: opts.dataDir };
  const parts = opts.partsModule ? { partsModule: opts.partsModule } : {};
  const target = await createReferenceTarget(env, { workers: opts.workers ?? 1, ...parts });
  const adminToken = opts.adminToken ?? persistedAdminToken(opts.dataDir);
  const testControls = opts.enableTestControls === true;
  // Fresh instances are a test control: only a server with its test controls on creates them.
  const instances = testControls
    ? new ReferenceInstances({
        dataDir: opts.dataDir,
        workers: opts.workers ?? 1,
        log: opts.log ?? stderrLog,
        ...parts,
      })
    : null;
  let server: Awaited<ReturnType<typeof serveTarget>>;
  try {
    server = await serveTarget(target, {
      host: opts.host ?? '127.0.0.1',
      port: opts.port ?? 0,
      testControls,
      adminToken,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.onPanic ? { onPanic: opts.onPanic } : {}),
      ...(target.delegations ? { delegations: target.delegations } : {}),
      ...(instances ? { instances } : {}),
    });
  } catch (e) {
    await target.close();
    throw e;
  }
  try {
    // Workers call back into this server: they start once it listens.
    await target.attachControlPlane(server.url);
    // After a restart on the same data, the instances come back too (each with its workers).
    await instances?.attach(server.url);
  } catch (e) {
    await server.close();
    await instances?.close();
    await target.close();
    throw e;
  }
  const manifest = servedManifest(target, server.url, { adminToken, testControls, env });
  if (opts.manifestOut) {
    mkdirSync(path.dirname(path.resolve(opts.manifestOut)), { recursive: true });
    writeFileSync(opts.manifestOut, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  }
  let closed = false;
  return {
    url: server.url,
    manifest,
    target,
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      await instances?.close();
      await target.close();
    },
  };
}
