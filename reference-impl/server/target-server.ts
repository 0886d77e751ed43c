/**
 * Serves any in-process Target over the HTTP target protocol (contract/http): every route of
 * the route table, each request authenticated by its auth kind and validated against its
 * schema before the target is touched, every response encoded through its schema, every
 * failure a registry-coded error body. Test controls answer only when enabled, and then only
 * to the admin token. With `instances`, the server also creates fresh isolated targets
 * (`POST /_smtc/targets`) and serves each one's whole protocol under `/_smtc/targets/{id}`.
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ContractError } from '../../contract/errors.js';
import { isTestControl, ROUTES, type RouteId, type RouteSpec } from '../../contract/http/routes.js';
import { INSTANCE_ID, instancePath } from '../../contract/http/target-instances-protocol.js';
import type { Principal } from '../../contract/principals.js';
import type { RunRequest } from '../../contract/runs.js';
import type { StateScope } from '../../contract/state.js';
import type { Target } from '../../contract/target.js';
import { bearerToken, sameToken } from './bearer-token.js';
import * as bindings from './bindings-handlers.js';
import { clientErrorHandler, isClientAbort } from './client-error.js';
import * as controls from './control-handlers.js';
import { type ErrorLog, replyFor, stderrLog } from './error-reply.js';
import * as infoHandlers from './info-handlers.js';
import * as instanceHandlers from './instance-handlers.js';
import { assertJsonDepth } from './json-depth.js';
import * as memory from './memory-handlers.js';
import { PrincipalDirectory } from './principal-directory.js';
import type { Handler, HandlerContext, ServedTarget, TargetInstances } from './route-handler.js';
import { streamRun } from './run-stream.js';
import * as state from './state-handlers.js';
import { WorkerSessions } from './worker-sessions.js';

const HANDLERS: { [Id in Exclude<RouteId, 'runsStart'>]: Handler<Id> } = {
  ...infoHandlers,
  ...bindings,
  ...state,
  ...memory,
  ...controls,
  ...instanceHandlers,
};

export interface TargetServerOptions {
  /** Loopback by default. */
  readonly host?: string;
  /** 0 = any free port. */
  readonly port?: number;
  /** Enable the `/_smtc/` test controls (off by default). */
  readonly testControls?: boolean;
  /** Bearer token of the admin routes; without one they answer `unauthenticated`. */
  readonly adminToken?: string;
  /** Largest accepted request body in bytes; default fits the target's largest payload. */
  readonly bodyLimit?: number;
  readonly log?: ErrorLog;
  /** Called when the target reports a failpoint `panic` (a served process exits here). */
  readonly onPanic?: () => void;
  /** Delegation tokens of the root target (see ServedTarget). */
  readonly delegations?: ServedTarget['delegations'];
  /** Fresh target instances (a test control); without it `POST /_smtc/targets` is `not_found`. */
  readonly instances?: TargetInstances;
}

/** The routes a delegation token may call: the caller's memory and tool authority, nothing else. */
const DELEGATED_ROUTES: ReadonlySet<RouteId> = new Set<RouteId>([
  'memoryGet',
  'memorySearch',
  'memoryPut',
  'memoryDelete',
  'toolsMayInvoke',
  'toolsMayReach',
]);

export interface TargetServer {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/** Room for the largest thread-state payload in base64 plus the rest of a request. */
export function defaultBodyLimit(target: Target): number {
  const payload = target.stateLimits?.maxPayloadBytes ?? 1024 * 1024;
  const content = target.memoryPolicy?.maxContentBytes ?? 64 * 1024;
  return Math.ceil((Math.max(payload, content) * 4) / 3) + 1024 * 1024;
}

/** Per served target: its identities and the lease sessions it handed out. */
interface Endpoint {
  readonly served: ServedTarget;
  readonly directory: PrincipalDirectory;
  readonly sessions: WorkerSessions;
}

const INSTANCE_PREFIX = instancePath('');
/** The instance a request was addressed to (set by rewriteUrl, read by the handler). */
const instanceOfRequest = new WeakMap<IncomingMessage, string>();

/**
 * `/_smtc/targets/{id}/rest…` is the route `/rest…` of instance `id`; the instance routes
 * themselves (`/_smtc/targets`, `/_smtc/targets/{id}`) are left as they are.
 */
function rewriteInstanceUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (!url.startsWith(INSTANCE_PREFIX)) return url;
  const rest = url.slice(INSTANCE_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return url;
  const id = rest.slice(0, slash);
  if (!INSTANCE_ID.test(id)) return url;
  instanceOfRequest.set(req, id);
  return rest.slice(slash);
}

function decode<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = z.safeDecode(schema, value as z.input<S>);
  if (!r.success) throw new ContractError('invalid_argument', 'the request does not match the protocol schema');
  return r.data;
}

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Who a request authenticated as, decided in onRequest (before its body is read). */
interface Authenticated {
  readonly endpoint: Endpoint;
  readonly principal: Principal | null;
  readonly token: string | null;
  readonly delegatedAgent?: string;
}
const authOfRequest = new WeakMap<FastifyRequest, Authenticated>();

function isPanic(e: unknown): boolean {
  return e instanceof Error && e.name === 'FailpointPanic';
}

export function createTargetServer(target: Target, opts: TargetServerOptions = {}): FastifyInstance {
  const log = opts.log ?? stderrLog;
  const testControls = opts.testControls === true;
  const endpoints = new WeakMap<ServedTarget, Endpoint>();
  const endpointOf = (served: ServedTarget): Endpoint => {
    let e = endpoints.get(served);
    if (!e) {
      e = { served, directory: new PrincipalDirectory(served.target.principals), sessions: new WorkerSessions() };
      endpoints.set(served, e);
    }
    return e;
  };
  const root = endpointOf({
    target,
    adminToken: opts.adminToken && opts.adminToken.length > 0 ? opts.adminToken : null,
    ...(opts.delegations ? { delegations: opts.delegations } : {}),
  });
  const instances = testControls ? (opts.instances ?? null) : null;
  /** The endpoint a request addresses: the root target, or a live instance. */
  const endpointFor = (req: FastifyRequest): Endpoint => {
    const id = instanceOfRequest.get(req.raw);
    if (id === undefined) return root;
    const found = instances?.lookup(id);
    if (found === undefined) throw new ContractError('not_found');
    if (found === 'restoring') throw new ContractError('unavailable', 'the target instance is starting');
    return endpointOf(found);
  };
  const onFailure = (e: unknown): void => {
    if (isPanic(e)) opts.onPanic?.();
  };

  const app = Fastify({
    logger: false,
    bodyLimit: opts.bodyLimit ?? defaultBodyLimit(target),
    // Bounds on receiving a request (slow clients); runs stream for as long as they run.
    requestTimeout: 60_000,
    keepAliveTimeout: 5_000,
    forceCloseConnections: true,
    return503OnClosing: false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { maxParamLength: 128 },
    rewriteUrl: rewriteInstanceUrl,
    // Node's parser errors (framing, header size) and fastify's routing errors in the protocol's shape.
    clientErrorHandler,
    frameworkErrors: (err, _req, reply) => {
      const { status, body } = replyFor(err, 'unrouted', log);
      return sendJson(reply, status, body);
    },
  });

  // Bodies are depth-checked as text before they are parsed, let alone validated.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    try {
      assertJsonDepth(text as string);
    } catch (e) {
      done(e as Error, undefined);
      return;
    }
    parseJson(req, text as string, done);
  });

  app.setErrorHandler((err, req, reply) => {
    // A client that went away while its body was read: its doing, not an internal error.
    if (isClientAbort(err)) return sendJson(reply, 400, { error: new ContractError('invalid_argument').toBody() });
    const { status, body } = replyFor(err, req.routeOptions.url ?? 'unrouted', log);
    return sendJson(reply, status, body);
  });
  app.setNotFoundHandler((_req, reply) => sendJson(reply, 404, { error: new ContractError('not_found').toBody() }));

  const authenticate = (
    { served, directory }: Endpoint,
    id: RouteId,
    spec: RouteSpec,
    req: FastifyRequest,
  ): { principal: Principal | null; token: string | null; delegatedAgent?: string } => {
    if (isTestControl(spec) && !testControls) throw new ContractError('not_found');
    const token = bearerToken(req.headers.authorization);
    switch (spec.auth) {
      case 'none':
        return { principal: null, token: null };
      case 'principal': {
        const delegation = token !== null && DELEGATED_ROUTES.has(id) ? served.delegations?.resolve(token) : null;
        if (delegation) return { principal: delegation.principal, token, delegatedAgent: delegation.agent };
        return { principal: directory.resolve(token), token };
      }
      case 'worker':
        if (token === null) throw new ContractError('unauthenticated');
        return { principal: null, token };
      case 'admin':
        if (served.adminToken === null || token === null || !sameToken(token, served.adminToken)) {
          throw new ContractError('unauthenticated');
        }
        return { principal: null, token };
    }
  };

  for (const [id, spec] of Object.entries(ROUTES) as [RouteId, RouteSpec][]) {
    app.route({
      method: spec.method,
      url: spec.path,
      // Authenticated before the body is read: a caller without a valid token never gets its
      // body buffered or parsed (its errors go through the error handler above).
      onRequest: async (req) => {
        const endpoint = endpointFor(req);
        authOfRequest.set(req, { endpoint, ...authenticate(endpoint, id, spec, req) });
      },
      handler: async (req, reply) => {
        try {
          const auth = authOfRequest.get(req);
          if (!auth) throw new ContractError('unauthenticated');
          const { endpoint, principal, token, delegatedAgent } = auth;
          const addressed = endpoint.served.target;
          const params = spec.params ? decode(spec.params, req.params) : undefined;
          const body = spec.request ? decode(spec.request, req.body) : undefined;
          if (delegatedAgent !== undefined && (body as { agent?: unknown } | undefined)?.agent !== delegatedAgent) {
            throw new ContractError('forbidden', 'the delegation covers another agent');
          }
          if (id === 'runsStart') {
            reply.hijack();
            await streamRun(
              addressed,
              principal!,
              // Memory proposals inside the script travel as sent; the target's pipeline judges them.
              (body as { request: unknown }).request as RunRequest,
              reply.raw,
              log,
              onFailure,
            );
            return reply;
          }
          const ctx = {
            target: addressed,
            body,
            params,
            principal: principal as Principal,
            session:
              spec.auth === 'worker'
                ? endpoint.sessions.session(token!, (body as { scope: StateScope }).scope)
                : (undefined as never),
            rememberSession: (s) => endpoint.sessions.remember(s),
            testControls,
            // Instances are created on the root only (no instance inside an instance).
            instances: endpoint === root ? instances : null,
            // The socket, not the response: a response is not marked destroyed when its client hangs up.
            clientGone: () => req.raw.socket?.destroyed !== false,
          } as HandlerContext<RouteId>;
          const result = await (HANDLERS[id as Exclude<RouteId, 'runsStart'>] as Handler<RouteId>)(ctx);
          let wire: unknown;
          try {
            wire = z.encode(spec.response, result as never);
          } catch {
            // The target returned something the protocol cannot carry: its bug, not the caller's.
            throw new ContractError('internal');
          }
          return sendJson(reply, 200, wire);
        } catch (e) {
          onFailure(e);
          const { status, body } = replyFor(e, id, log);
          return sendJson(reply, status, body);
        }
      },
    });
  }
  return app;
}

export async function serveTarget(target: Target, opts: TargetServerOptions = {}): Promise<TargetServer> {
  const app = createTargetServer(target, opts);
  await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const addr = app.server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    app,
    close: () => app.close(),
  };
}
