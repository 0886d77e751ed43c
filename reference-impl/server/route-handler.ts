/**
 * The shape of one route's handler: it receives the served Target, the authenticated caller
 * (a principal, or a worker session derived from the lease credential) and the decoded,
 * validated body, and returns the contract value the response schema encodes.
 */
import type { z } from 'zod';
import type { WorkerSession } from '../../contract/bindings.js';
import { ContractError } from '../../contract/errors.js';
import { ROUTES, type RouteId } from '../../contract/http/routes.js';
import type { TargetEnvSchema } from '../../contract/http/target-instances-protocol.js';
import type { Principal } from '../../contract/principals.js';
import type { Target } from '../../contract/target.js';

/** One target as a server serves it: the root target, or a fresh instance. */
export interface ServedTarget {
  readonly target: Target;
  /** Bearer token of its admin routes; null: they answer `unauthenticated`. */
  readonly adminToken: string | null;
  /**
   * Run-scoped delegation tokens (the served reference's worker processes present them instead
   * of the caller's own token): accepted only on memory and tool routes, for their agent only.
   */
  readonly delegations?: { resolve(token: string): { principal: Principal; agent: string } | null };
}

/** Fresh target instances a server creates on demand (`POST /_smtc/targets`). */
export interface TargetInstances {
  /** `clientGone`: the caller has gone, so nobody would learn the new instance's id. */
  create(
    env: z.output<typeof TargetEnvSchema>,
    clientGone?: () => boolean,
  ): Promise<{ readonly id: string; readonly served: ServedTarget }>;
  /** The live instance, 'restoring' while it comes back after a restart, undefined if unknown. */
  lookup(id: string): ServedTarget | 'restoring' | undefined;
  destroy(id: string): Promise<void>;
}

type Route<Id extends RouteId> = (typeof ROUTES)[Id];
export type RequestOf<Id extends RouteId> = Route<Id>['request'] extends z.ZodType
  ? z.output<Route<Id>['request']>
  : undefined;
export type ParamsOf<Id extends RouteId> =
  Route<Id> extends { params: z.ZodType } ? z.output<Route<Id>['params']> : undefined;
/** Readonly all the way down, so the contract's (readonly) values are valid handler results. */
type DeepReadonly<T> = T extends Uint8Array
  ? T
  : T extends (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;
export type ResponseOf<Id extends RouteId> = DeepReadonly<z.output<Route<Id>['response']>>;

export interface HandlerContext<Id extends RouteId> {
  readonly target: Target;
  readonly body: RequestOf<Id>;
  readonly params: ParamsOf<Id>;
  /** The caller, on `principal` routes. */
  readonly principal: Principal;
  /** The worker session, on `worker` routes. */
  readonly session: WorkerSession;
  /** Remember a lease this server handed out (acquire-lease). */
  readonly rememberSession: (s: WorkerSession) => void;
  /** Whether the test controls are enabled (info reports it). */
  readonly testControls: boolean;
  /** Fresh target instances, on the root target of a server that creates them. */
  readonly instances: TargetInstances | null;
  /** Whether the caller's connection has closed (nobody is left to read the answer). */
  readonly clientGone: () => boolean;
}

export type Handler<Id extends RouteId> = (ctx: HandlerContext<Id>) => Promise<ResponseOf<Id>>;

/** A part the target does not provide is answered as an absent endpoint. */
export function required<T>(part: T | undefined): T {
  if (part === undefined) throw new ContractError('not_found', 'the target does not provide this operation');
  return part;
}

export { ROUTES };
