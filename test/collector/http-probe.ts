/**
 * A raw HTTP client for observing the collector's outage modes exactly: the status it answered,
 * the socket error it caused (ECONNREFUSED, ECONNRESET), or that it never answered in time.
 */
import { request } from 'node:http';

export type ProbeResult =
  | { kind: 'status'; status: number; body: Buffer; ms: number }
  | { kind: 'error'; code: string; ms: number }
  | { kind: 'timeout'; ms: number };

export function probe(
  url: string,
  body: Buffer | string,
  opts: { contentType?: string; encoding?: string; timeoutMs?: number; method?: string } = {},
): Promise<ProbeResult> {
  const started = performance.now();
  const ms = () => performance.now() - started;
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: opts.method ?? 'POST',
        agent: false,
        headers: {
          'content-type': opts.contentType ?? 'application/json',
          ...(opts.encoding ? { 'content-encoding': opts.encoding } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ kind: 'status', status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: ms() });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ kind: 'timeout', ms: ms() });
    }, opts.timeoutMs ?? 5_000);
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ kind: 'error', code: e.code ?? 'unknown', ms: ms() });
    });
    req.end(body);
  });
}
