import type { Principal } from './principals.js';
import type { CodecId, StateScope } from './state.js';

export interface BindingSpec {
  readonly environment: string;
  readonly harness: string;
  readonly codec: CodecId;
}

export interface BindingInfo {
  readonly bindingId: string;
  readonly environment: string;
  readonly harness: string;
  readonly codec: CodecId;
  readonly epoch: number;
  /** Current lease generation (0 before any lease was acquired). */
  readonly leaseGeneration: number;
}

/**
 * What a sandbox worker holds after claiming a lease: the exact scope it may use and an
 * opaque credential bound to binding + epoch + lease generation. Workers never get database
 * handles or collection names.
 */
export interface WorkerSession {
  readonly scope: StateScope;
  readonly credential: string;
}

export interface Bindings {
  /** Open a new binding owned by the principal. */
  open(owner: Principal, spec: BindingSpec): Promise<BindingInfo>;
  get(owner: Principal, bindingId: string): Promise<BindingInfo>;
  /** Clear: start a new epoch. Old-epoch state can never become the new epoch's head. */
  clear(owner: Principal, bindingId: string): Promise<BindingInfo>;
  /** Acquire a lease: bumps the lease generation, fencing every older generation. */
  acquireLease(owner: Principal, bindingId: string): Promise<WorkerSession>;
}
