/**
 * The narrow interface between the control plane and a sandbox worker. Everything that crosses
 * it is plain data — a trace-context carrier, a lease session, a job, events — so moving the
 * worker into its own process changes the transport, not this interface.
 */
import type { WorkerSession } from '../../../contract/bindings.js';
import type { Principal } from '../../../contract/principals.js';
import type { RunStep } from '../../../contract/runs.js';
import type { UncertainReason } from '../../../contract/state.js';
import type { Carrier } from '../../telemetry/internal-carrier.js';

export interface RunJob {
  readonly runId: string;
  readonly bindingId: string;
  readonly agent: string;
  /**
   * The authenticated caller, resolved by the control plane from the credential; the worker
   * uses it only to open the caller's memory broker (which computes the namespace itself).
   */
  readonly caller: Principal;
  readonly steps: readonly RunStep[];
  readonly resume?: { readonly interruptId: string; readonly value: string };
}

/** What the worker streams back; the control plane validates, numbers and encodes it. */
export type WorkerEvent =
  | { readonly type: 'output'; readonly text: string }
  | { readonly type: 'interrupt'; readonly interruptId: string; readonly value: string }
  | { readonly type: 'durable'; readonly revision: number }
  | { readonly type: 'error'; readonly code: string };

export interface WorkerResult {
  readonly state: 'completed' | 'interrupted' | 'failed' | 'uncertain_durability';
  /** Durable head revision after the run (unchanged on failure / uncertainty). */
  readonly revision: number;
  /** Why the run is `uncertain_durability` (the control plane fences it with this reason). */
  readonly uncertainReason?: UncertainReason;
}

export interface WorkerPort {
  /** Take over a lease session (`sandbox.worker.bind`, under the carrier's span). */
  bind(carrier: Carrier, session: WorkerSession): Promise<void>;
  /** Run a job against the durable head of a bound binding (`harness.run`, under the carrier's span). */
  run(carrier: Carrier, job: RunJob, emit: (e: WorkerEvent) => void): Promise<WorkerResult>;
  /**
   * Whether the worker that bound the binding is gone (a remote port only): the control plane
   * then takes a new lease for the next run, which fences anything the old worker still holds.
   */
  needsFreshLease?(bindingId: string): boolean;
  close(): Promise<void>;
}
