/** A reference served over HTTP inside the test process (own temp dir), and raw protocol calls. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { type ReferenceServer, startReferenceServer } from '../../reference-impl/server/start-reference-server.js';

export interface Served {
  readonly server: ReferenceServer;
  readonly dataDir: string;
  readonly logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

export async function serveReference(
  opts: { testControls?: boolean; workers?: number; dataDir?: string; port?: number } = {},
): Promise<Served> {
  const dir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'smtc-http-test-'));
  const logs: Record<string, unknown>[] = [];
  const server = await startReferenceServer({
    dataDir: dir,
    enableTestControls: opts.testControls ?? true,
    log: (e) => logs.push(e),
    ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
  });
  return {
    server,
    dataDir: dir,
    logs,
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  json(): unknown;
}

/** One raw HTTP call (no adapter): what a stranger's client would send. */
export async function raw(
  baseUrl: string,
  method: string,
  pathname: string,
  init: { token?: string; body?: string; contentType?: string } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const res = await request(`${baseUrl}${pathname}`, {
    method: method as 'GET',
    headers,
    body: init.body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    contentType: String(res.headers['content-type'] ?? ''),
    text,
    json: () => JSON.parse(text),
  };
}
