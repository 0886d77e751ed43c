/**
 * The reference as the test service W3C's Trace Context harness (w3c/trace-context,
 * `test/test.py`) drives: a plain HTTP POST whose real headers are the ingress (read from the
 * raw header list, so duplicates and name casing survive) and whose body is a JSON array of
 * `{url, arguments}`. Each POST becomes one run of the reference, as its fixed trusted
 * internal service principal (the ingress policy continues that credential's context) on a
 * fresh binding, with one `internal_call` step per entry. The worker's calls go — with the
 * trace headers the reference itself put on the wire, from each call's own client span — to a
 * loopback relay that forwards them unchanged to the entry's callback URL with `arguments` as
 * the body. The harness is answered once every callback has finished. Test-only: started by
 * `main.ts` behind `--enable-test-controls`, on loopback, one POST at a time, everything bounded.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunStep } from '../../contract/runs.js';
import type { Target } from '../../contract/target.js';
import { SCRIPTED_CODEC } from '../runs/worker/native-checkpoint.js';

const MAX_BODY_BYTES = 64 * 1024;
const MAX_ENTRIES = 16;
const CALLBACK_TIMEOUT_MS = 10_000;
const TRACE_HEADERS = new Set(['traceparent', 'tracestate', 'baggage']);
const SPEC = { environment: 'w3c-trace-context', harness: 'scripted', codec: SCRIPTED_CODEC } as const;

interface Entry {
  readonly url: URL;
  readonly arguments: unknown;
}

export interface W3CTestService {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the relay the target's trusted internal service URL must point at, then the service. */
export async function startRelay(): Promise<{ url: string; server: Server; queue: Entry[] }> {
  const queue: Entry[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const next = queue.shift();
      if (!next) return answer(res, 409, { error: 'no callback pending' });
      // Exactly the trace header lines the reference's worker sent, nothing added or merged.
      const headers = { 'content-type': ['application/json'], ...traceHeaders(req.rawHeaders, true) };
      forward(next, headers).then(
        () => answer(res, 200, {}),
        () => answer(res, 502, { error: 'callback failed' }),
      );
    });
  });
  return { url: `${await listen(server)}/`, server, queue };
}

export async function startW3CTestService(target: Target, queue: Entry[], port: number): Promise<W3CTestService> {
  const service = target.principals.internalService;
  if (!service || !target.runs) throw new Error('the target has no trusted internal service or no runs');
  let busy: Promise<unknown> = Promise.resolve();
  const server = createServer((req, res) => {
    const turn = busy.then(() => handle(req, res)).catch(() => answer(res, 500, { error: 'internal' }));
    busy = turn;
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return answer(res, 405, { error: 'POST only' });
    const entries = parseEntries(await readBody(req));
    if (!entries) return answer(res, 400, { error: 'body must be a JSON array of {url, arguments}' });
    const b = await target.bindings.open(service!, SPEC);
    queue.length = 0;
    queue.push(...entries);
    const steps: RunStep[] = entries.map(() => ({ type: 'internal_call' }));
    const outcome = await target.runs!.start(service!, {
      bindingId: b.bindingId,
      agent: target.principals.agents[0],
      steps,
      headers: traceHeaders(req.rawHeaders),
    });
    queue.length = 0;
    answer(res, outcome.state === 'completed' ? 200 : 500, { state: outcome.state });
  }

  const url = await listen(server, port);
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The trace headers of a raw header list, every field line kept; names as sent unless `lowercase`. */
function traceHeaders(raw: readonly string[], lowercase = false): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = lowercase ? raw[i]!.toLowerCase() : raw[i]!;
    if (!TRACE_HEADERS.has(name.toLowerCase())) continue;
    const lines = out[name] ?? [];
    lines.push(raw[i + 1]!);
    out[name] = lines;
  }
  return out;
}

function parseEntries(body: string | null): Entry[] | null {
  if (body === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return null;
  }
  if (!Array.isArray(v) || v.length > MAX_ENTRIES) return null;
  const out: Entry[] = [];
  for (const e of v) {
    if (!e || typeof e !== 'object' || typeof (e as { url?: unknown }).url !== 'string') return null;
    let url: URL;
    try {
      url = new URL((e as { url: string }).url);
    } catch {
      return null;
    }
    // Callbacks go to the harness on loopback only: this mode is no open relay.
    if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return null;
    out.push({ url, arguments: (e as { arguments?: unknown }).arguments ?? [] });
  }
  return out;
}

function forward(entry: Entry, headers: Record<string, string[]>): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(entry.arguments);
    const req = httpRequest(entry.url, { method: 'POST', headers, timeout: CALLBACK_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('timeout', () => req.destroy(new Error('callback timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function listen(server: Server, port = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}
