/**
 * Calls one route of the HTTP target protocol (shared by the kit's HTTP adapter and the
 * reference's sandbox worker processes, which reach the control plane only through it). Every call is bounded in time (connect, headers,
 * body, and an overall deadline), every response body is bounded in size, every 200 body is
 * decoded through the route's schema, and every error body must be a contract error. A target
 * that hangs or is unreachable becomes ContractError('unavailable') within the deadline;
 * one that answers garbage becomes an HttpProtocolError.
 */
import { Agent, type Dispatcher, request } from 'undici';
import { z } from 'zod';
import { ContractError } from '../errors.js';
import { ErrorResponseSchema } from './error-protocol.js';
import { HttpProtocolError } from './protocol-error.js';
import { ROUTES, type RouteId, type RouteSpec } from './routes.js';
import { toWireJson } from './wire-json.js';

export interface ClientTimeouts {
  /** Overall bound on one ordinary call. */
  readonly requestMs: number;
  /** Overall bound on one run stream. */
  readonly runMs: number;
}

export const DEFAULT_TIMEOUTS: ClientTimeouts = { requestMs: 30_000, runMs: 120_000 };

/** Largest response body read (a head carries a base64 payload of up to a few MiB). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const TOKEN = /^[\x21-\x7e]{1,4096}$/;

type Route<Id extends RouteId> = (typeof ROUTES)[Id];
export type ResponseOfRoute<Id extends RouteId> = z.output<Route<Id>['response']>;

export interface CallInput {
  /** Bearer token; anything that cannot be a token is simply not sent (→ unauthenticated). */
  readonly token?: unknown;
  readonly body?: unknown;
  readonly params?: Readonly<Record<string, string>>;
  /** Extra request headers (trace context between the reference's own processes). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The transport's own error as `cause` (shown in test output; never in the message). */
function withCause(err: ContractError, cause: unknown): ContractError {
  Object.defineProperty(err, 'cause', { value: cause, enumerable: false });
  return err;
}

class CallbackFailure {
  constructor(readonly error: unknown) {}
}

function issuePaths(error: z.ZodError): string {
  const paths = error.issues.slice(0, 5).map((i) => (i.path.length ? i.path.join('.') : '(root)'));
  return paths.join(', ');
}

export class HttpTargetClient {
  private readonly agent: Agent;

  constructor(
    readonly baseUrl: string,
    readonly timeouts: ClientTimeouts = DEFAULT_TIMEOUTS,
  ) {
    this.agent = new Agent({
      connect: { timeout: Math.min(timeouts.requestMs, 10_000) },
      // Below the server's keep-alive, so a reused socket is never one the server just closed.
      keepAliveTimeout: 2_000,
      keepAliveMaxTimeout: 4_000,
      connections: 64,
    });
  }

  async call<Id extends RouteId>(id: Id, input: CallInput = {}): Promise<ResponseOfRoute<Id>> {
    const route = ROUTES[id] as RouteSpec;
    const res = await this.send(id, route, input, this.timeouts.requestMs);
    const text = await this.readAll(id, res, res.statusCode === 200 ? MAX_RESPONSE_BYTES : 64 * 1024);
    if (res.statusCode !== 200) throw this.errorFrom(id, res.statusCode, text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new HttpProtocolError(`${route.method} ${route.path}: the response is not JSON`);
    }
    const decoded = z.safeDecode(route.response, json as never);
    if (!decoded.success) {
      throw new HttpProtocolError(
        `${route.method} ${route.path}: the response does not match the protocol schema at ${issuePaths(decoded.error)}`,
      );
    }
    return decoded.data as ResponseOfRoute<Id>;
  }

  /**
   * A streaming route (NDJSON): each decoded line goes to `onLine` as it arrives. Resolves when
   * the stream ends; the caller decides whether what it saw was complete.
   */
  async stream(id: RouteId, input: CallInput, onLine: (line: unknown) => void): Promise<void> {
    const route = ROUTES[id] as RouteSpec;
    const res = await this.send(id, route, input, this.timeouts.runMs);
    if (res.statusCode !== 200) throw this.errorFrom(id, res.statusCode, await this.readAll(id, res, 64 * 1024));
    let pending = '';
    let total = 0;
    const take = (line: string): void => {
      if (line.trim() === '') return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new HttpProtocolError(`${route.method} ${route.path}: a stream line is not JSON`);
      }
      const decoded = z.safeDecode(route.response, json as never);
      if (!decoded.success) {
        throw new HttpProtocolError(
          `${route.method} ${route.path}: a stream line does not match the protocol schema at ${issuePaths(decoded.error)}`,
        );
      }
      try {
        onLine(decoded.data);
      } catch (e) {
        throw new CallbackFailure(e);
      }
    };
    // One decoder for the whole stream: a character split between two chunks is decoded whole.
    const utf8 = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        const text = typeof chunk === 'string' ? chunk : utf8.decode(chunk as Uint8Array, { stream: true });
        total += text.length;
        if (total > MAX_RESPONSE_BYTES) {
          throw new HttpProtocolError(`${route.method} ${route.path}: the stream exceeds the response bound`);
        }
        pending += text;
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          take(pending.slice(0, nl));
          pending = pending.slice(nl + 1);
          nl = pending.indexOf('\n');
        }
      }
    } catch (e) {
      res.body.destroy();
      // The caller's own callback failed: hand its error back untouched.
      if (e instanceof CallbackFailure) throw e.error;
      throw this.transportError(e);
    }
    pending += utf8.decode();
    if (pending.trim() !== '') take(pending);
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => {});
  }

  private async send(
    id: RouteId,
    route: RouteSpec,
    input: CallInput,
    deadlineMs: number,
  ): Promise<Dispatcher.ResponseData> {
    let path = route.path;
    for (const [k, v] of Object.entries(input.params ?? {})) path = path.replace(`:${k}`, encodeURIComponent(v));
    const headers: Record<string, string> = {
      ...(input.headers ?? {}),
      accept: route.stream ? 'application/x-ndjson' : 'application/json',
    };
    if (typeof input.token === 'string' && TOKEN.test(input.token)) headers.authorization = `Bearer ${input.token}`;
    let body: string | undefined;
    if (route.request) {
      if (route.bodyType === 'text') {
        headers['content-type'] = 'text/plain; charset=utf-8';
        body = typeof input.body === 'string' ? input.body : toWireJson(input.body);
      } else {
        headers['content-type'] = 'application/json';
        body = toWireJson(input.body ?? {});
      }
    }
    try {
      return await request(`${this.baseUrl}${path}`, {
        method: route.method,
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(deadlineMs),
        headersTimeout: deadlineMs,
        bodyTimeout: deadlineMs,
      });
    } catch (e) {
      throw this.transportError(e, id);
    }
  }

  private async readAll(id: RouteId, res: Dispatcher.ResponseData, max: number): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += b.length;
        if (size > max) {
          res.body.destroy();
          throw new HttpProtocolError(`${ROUTES[id].path}: the response exceeds the response bound`);
        }
        chunks.push(b);
      }
    } catch (e) {
      throw this.transportError(e, id);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private errorFrom(id: RouteId, status: number, text: string): Error {
    const route = ROUTES[id];
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return new HttpProtocolError(`${route.method} ${route.path}: HTTP ${status} without a contract error body`);
    }
    const parsed = ErrorResponseSchema.safeParse(json);
    if (!parsed.success) {
      return new HttpProtocolError(`${route.method} ${route.path}: HTTP ${status} without a contract error body`);
    }
    return ContractError.fromBody(parsed.data.error);
  }

  private transportError(e: unknown, _id?: RouteId): Error {
    if (e instanceof HttpProtocolError || e instanceof ContractError) return e;
    const name = (e as { name?: unknown })?.name;
    const code = (e as { code?: unknown })?.code;
    if (
      name === 'TimeoutError' ||
      name === 'AbortError' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'UND_ERR_ABORTED'
    ) {
      return withCause(new ContractError('unavailable', 'the target did not answer in time'), e);
    }
    return withCause(new ContractError('unavailable', 'the target could not be reached or closed the connection'), e);
  }
}
