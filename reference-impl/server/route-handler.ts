/**
 * The shape of one route's handler: it receives the served Target, the authenticated caller
 * (a principal, or a worker session derived from the lease credential) and the decoded,
 * validated body, and returns the contract value the response schema encodes.
 */
import type { z } from 'zod';
import type { WorkerSession } from '../../contract/bindings.js';
import { ContractError } from '../../contract/errors.js';
import { ROUTES, type RouteId } from '../../contract/http/routes.js';
import type { Principal } from '../../contract/principals.js';
import type { Target } from '../../contract/target.js';

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
}

export type Handler<Id extends RouteId> = (ctx: HandlerContext<Id>) => Promise<ResponseOf<Id>>;

/** A part the target does not provide is answered as an absent endpoint. */
export function required<T>(part: T | undefined): T {
  if (part === undefined) throw new ContractError('not_found', 'the target does not provide this operation');
  return part;
}

export { ROUTES };
