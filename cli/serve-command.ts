/**
 * `smtc serve`: the reference implementation as real processes — this process becomes the
 * control plane (the HTTP target protocol on loopback), and N sandbox workers run as separate
 * OS processes it supervises. Prints the URL and writes a manifest (mode 0600: it holds the
 * test identities' tokens) that `smtc certify --target URL --manifest FILE` reads. Stops
 * cleanly on SIGINT/SIGTERM; its workers exit with it even when it is killed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from 'commander';
import { parseManifest } from '../contract/http/manifest.js';
import { TARGET_ENV_URLS, TargetEnvSchema, type TargetEnvUrl } from '../contract/http/target-instances-protocol.js';
import type { HarnessEnv } from '../contract/target.js';
import { startReferenceServer } from '../reference-impl/server/start-reference-server.js';
import { isLoopbackHost } from './loopback-host.js';
import { OWN_PID_SH, removeOwnPidFile, writePidFile } from './serve-pid-file.js';

export interface ServeOptions extends Partial<Readonly<Record<TargetEnvUrl, string>>> {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly workers: number;
  readonly manifestOut?: string;
  readonly enableTestControls: boolean;
  /** Listen on a non-loopback address (test identities' tokens would be reachable from the network). */
  readonly allowNonLoopback?: boolean;
  /** Where to print (stdout by default). */
  readonly out?: (line: string) => void;
}

export interface Serving {
  readonly url: string;
  readonly manifestFile: string;
  close(): Promise<void>;
}

export async function serve(o: ServeOptions): Promise<Serving> {
  const out = o.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (!isLoopbackHost(o.host) && o.allowNonLoopback !== true) {
    throw new InvalidArgumentError(
      `--host ${o.host} is not a loopback address: the reference serves test identities (and with --enable-test-controls, admin controls); pass --allow-non-loopback to serve it on the network anyway`,
    );
  }
  const dataDir = path.resolve(o.dataDir);
  // This process is the control plane: what it creates (store, tokens, pid file) is this user's only.
  process.umask(0o077);
  const manifestFile = path.resolve(o.manifestOut ?? path.join(dataDir, 'manifest.json'));
  const env = serveEnv(o);
  const server = await startReferenceServer({
    dataDir,
    host: o.host,
    port: o.port,
    env,
    workers: o.workers,
    enableTestControls: o.enableTestControls,
    manifestOut: manifestFile,
    // A failpoint panic is a crash: the control plane dies at once, as a gofail panic would.
    onPanic: () => process.kill(process.pid, 'SIGKILL'),
  });
  const pidFile = path.join(dataDir, 'control-plane.pid');
  writePidFile(pidFile);
  addProcessCommands(manifestFile, pidFile, restartArgv(o, dataDir, manifestFile, new URL(server.url).port));
  const pids = server.target.faults?.processIds ? await server.target.faults.processIds() : null;
  out(`smtc serve: ${server.url}`);
  out(`  control plane pid ${process.pid}; sandbox worker pids ${pids?.workers.join(', ') || '(in-process)'}`);
  out(`  manifest: ${manifestFile}`);
  out(`  data: ${dataDir}${o.enableTestControls ? '; test controls ON (admin token in the manifest)' : ''}`);
  out(`  certify it: smtc certify --target ${server.url} --manifest ${manifestFile}`);
  return {
    url: server.url,
    manifestFile,
    async close() {
      await server.close();
      removeOwnPidFile(pidFile);
    },
  };
}

/** Kill the old control plane, wait (bounded) until it is gone and its port free, start the new one detached. */
const RESTART_SCRIPT = [
  // Only a control plane the pid file still names is killed; a stale file just means it is gone.
  `if (${OWN_PID_SH}); then pid="$(cut -d" " -f1 "$0")"; kill -s KILL "$pid" 2>/dev/null; else pid=; fi`,
  'i=0; while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done',
  'log="$1"; shift 1',
  'nohup "$@" >>"$log" 2>&1 </dev/null &',
].join('; ');

const SMTC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'smtc.mjs');

/** The same `smtc serve`, on the port it got, so a restart answers on the same URL. */
function restartArgv(o: ServeOptions, dataDir: string, manifestFile: string, port: string): string[] {
  return [
    process.execPath,
    SMTC,
    'serve',
    ...['--host', o.host, '--port', port, '--data-dir', dataDir, '--workers', String(o.workers)],
    ...['--manifest-out', manifestFile],
    ...(o.enableTestControls ? ['--enable-test-controls'] : []),
    ...(o.allowNonLoopback ? ['--allow-non-loopback'] : []),
    ...Object.entries(TARGET_ENV_URLS).flatMap(([field, flag]) => {
      const v = o[field as TargetEnvUrl];
      return v ? [flag, v] : [];
    }),
  ];
}

/** The URLs the reference runs with, each checked as the protocol checks a fresh target's env. */
function serveEnv(o: ServeOptions): Omit<HarnessEnv, 'tempDir'> {
  const given = Object.fromEntries(
    Object.keys(TARGET_ENV_URLS).flatMap((k) => (o[k as TargetEnvUrl] ? [[k, o[k as TargetEnvUrl]]] : [])),
  );
  const r = TargetEnvSchema.safeParse(given);
  if (!r.success) {
    const flags = r.error.issues.map((i) => TARGET_ENV_URLS[i.path[0] as TargetEnvUrl] ?? String(i.path[0]));
    throw new InvalidArgumentError(`${[...new Set(flags)].join(', ')}: expected an http(s) URL`);
  }
  return r.data;
}

/**
 * The manifest's local process commands, so `smtc certify --target URL --manifest FILE` can
 * kill and restart this control plane for process-fault scenarios: kill signals the pid in the
 * pid file; restart kills it and starts the same `smtc serve` detached, logging beside the data.
 */
function addProcessCommands(manifestFile: string, pidFile: string, argv: readonly string[]): void {
  const manifest = parseManifest(JSON.parse(readFileSync(manifestFile, 'utf8')), manifestFile);
  const log = path.join(path.dirname(pidFile), 'serve.log');
  const withProcess = {
    ...manifest,
    process: {
      kill: ['/bin/sh', '-c', `${OWN_PID_SH}; kill -s "\${1#SIG}" "$pid"`, pidFile, '{signal}'],
      restart: ['/bin/sh', '-c', RESTART_SCRIPT, pidFile, log, ...argv],
    },
  };
  writeFileSync(manifestFile, `${JSON.stringify(parseManifest(withProcess, manifestFile), null, 2)}\n`, {
    mode: 0o600,
  });
}
