/**
 * The sandbox worker's loopback HTTP endpoints, reached only by its control plane (bearer
 * worker token, compared in constant time): bind a lease session, run a job with its events
 * streamed back as NDJSON the moment the harness emits them, telemetry health and flush. Trace
 * context arrives as `traceparent`/`tracestate`/`baggage` headers. Every body is validated
 * against the internal wire schemas; failures are contract error bodies with fixed messages.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { ContractError, ERROR_REGISTRY, isContractError } from '../../contract/errors.js';
import type { Principal } from '../../contract/principals.js';
import type { RunStep } from '../../contract/runs.js';
import {
  BindRequestSchema,
  RunRequestWireSchema,
  TRACE_HEADERS,
  WORKER_MAX_BODY_BYTES,
  WORKER_PATHS,
} from '../runs/remote/worker-wire.js';
import type { WorkerEvent, WorkerPort } from '../runs/worker/worker-port.js';
import { bearerToken, sameToken } from '../server/bearer-token.js';
import type { Carrier } from '../telemetry/internal-carrier.js';
import type { TelemetryIdentity } from '../telemetry/telemetry-identity.js';

/** Runs in flight at once in one worker (a bound on its work, not a scheduling policy). */
const MAX_RUNS = 64;

export interface WorkerServerDeps {
  readonly token: string;
  readonly worker: WorkerPort;
  readonly telemetry: TelemetryIdentity;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function errorReply(res: ServerResponse, e: unknown): void {
  const err = isContractError(e) ? e : new ContractError('internal');
  reply(res, ERROR_REGISTRY[err.code].status, { error: err.toBody() });
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > WORKER_MAX_BODY_BYTES) {
        req.destroy();
        reject(new ContractError('payload_too_large', 'worker request'));
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        reject(new ContractError('invalid_argument', 'the body is not JSON'));
      }
    });
    req.on('error', () => reject(new ContractError('unavailable', 'request aborted')));
  });
}

function decode<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ContractError('invalid_argument', 'the request does not match the worker protocol');
  return r.data;
}

/** Only the trace-context headers cross into the worker's carrier. */
function carrierOf(req: IncomingMessage): Carrier {
  const carrier: Carrier = {};
  for (const name of TRACE_HEADERS) {
    const v = req.headers[name];
    if (typeof v === 'string' && v.length <= 8192) carrier[name] = v;
  }
  return carrier;
}

export async function startWorkerServer(deps: WorkerServerDeps): Promise<{ url: string; server: Server }> {
  let running = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) errorReply(res, e);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = bearerToken(req.headers.authorization);
    if (token === null || !sameToken(token, deps.token)) throw new ContractError('unauthenticated');
    const route = `${req.method} ${req.url}`;
    switch (route) {
      case `GET ${WORKER_PATHS.health}`:
        return reply(res, 200, deps.telemetry.health());
      case `POST ${WORKER_PATHS.flush}`:
        await deps.telemetry.flush();
        return reply(res, 200, {});
      case `POST ${WORKER_PATHS.bind}`: {
        const { session } = decode(BindRequestSchema, await readBody(req));
        await deps.worker.bind(carrierOf(req), session);
        return reply(res, 200, {});
      }
      case `POST ${WORKER_PATHS.run}`:
        return run(req, res);
      default:
        throw new ContractError('not_found');
    }
  }

  async function run(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { job } = decode(RunRequestWireSchema, await readBody(req));
    if (running >= MAX_RUNS) throw new ContractError('rate_limited', 'worker busy');
    running++;
    // The worker acts for the caller only through the delegation: no subject, no own credential.
    const caller: Principal = {
      id: job.principalId,
      subject: '',
      organization: '',
      roles: [],
      credential: job.delegation,
    };
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
    const line = (l: unknown) => res.write(`${JSON.stringify(l)}\n`);
    try {
      const result = await deps.worker.run(
        carrierOf(req),
        {
          runId: job.runId,
          bindingId: job.bindingId,
          agent: job.agent,
          caller,
          steps: job.steps as RunStep[],
          ...(job.resume ? { resume: job.resume } : {}),
        },
        (e: WorkerEvent) => line({ event: e }),
      );
      line({ result });
    } catch (e) {
      line({ error: (isContractError(e) ? e : new ContractError('internal')).toBody() });
    } finally {
      running--;
      res.end();
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}
