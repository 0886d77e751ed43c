/**
 * Runs: one harness request end to end. A run is driven by a `scripted/v1` script so suites
 * can count provider and tool invocations and see every header sent outward.
 */
import type { MemoryProposal, MemoryScopeKind } from './memory.js';
import type { Principal } from './principals.js';
import type { RunState } from './state.js';

export type RunStep =
  | { readonly type: 'provider'; readonly prompt: string }
  | { readonly type: 'tool'; readonly tool: string; readonly args: string }
  | { readonly type: 'memory_read'; readonly scope: MemoryScopeKind; readonly key: string }
  | { readonly type: 'memory_write'; readonly scope: MemoryScopeKind; readonly proposal: MemoryProposal }
  | { readonly type: 'subagent'; readonly steps: readonly RunStep[] }
  | { readonly type: 'emit'; readonly text: string }
  | { readonly type: 'checkpoint' }
  | { readonly type: 'interrupt'; readonly value: string }
  /** Call the trusted internal service (HarnessEnv.trustedServiceUrl): it must receive trace context. */
  | { readonly type: 'internal_call' };

export interface RunRequest {
  readonly bindingId: string;
  readonly agent: string;
  readonly steps: readonly RunStep[];
  /**
   * Raw ingress headers as the client sent them (traceparent, tracestate, baggage …). Whether
   * their trace context may be continued is the target's ingress policy for the authenticated
   * caller (Principals.internalService), never anything in the request.
   */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  /** Resume an interrupted run: answer its pending interrupt. */
  readonly resume?: { readonly interruptId: string; readonly value: string };
}

export type RunEvent =
  | { readonly seq: number; readonly type: 'output'; readonly text: string }
  | { readonly seq: number; readonly type: 'interrupt'; readonly interruptId: string; readonly value: string }
  | { readonly seq: number; readonly type: 'durable'; readonly revision: number }
  | { readonly seq: number; readonly type: 'error'; readonly code: string };

export interface RunOutcome {
  readonly runId: string;
  readonly state: RunState;
  /** Durable head revision after the run (unchanged on failure / uncertainty). */
  readonly revision: number;
  readonly events: readonly RunEvent[];
  /** Trace id the run was recorded under (hex), when the target exports telemetry. */
  readonly traceId: string | null;
}

export interface Runs {
  start(caller: Principal, request: RunRequest, onEvent?: (e: RunEvent) => void): Promise<RunOutcome>;
}
