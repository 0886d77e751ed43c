/**
 * The HTTP target protocol's route table: one route per contract operation, with its auth
 * kind and its request/response schemas. The server registers exactly these routes, the
 * adapter calls exactly these, and the OpenAPI document is generated from this table.
 *
 * Auth kinds:
 * - `none`: no token (info, readiness).
 * - `principal`: a principal's credential as `Authorization: Bearer …`.
 * - `worker`: a worker's lease credential (WorkerSession.credential) as the bearer token.
 * - `admin`: the operator/admin token; `/_smtc/…` routes additionally need the server's
 *   test controls enabled (else they answer 404 `not_found`, as if absent).
 *
 * Operations are RPC-style `POST`s whose JSON body holds the operation's arguments, so every
 * argument (ids included) keeps its JSON type and a wrong type is answered by the schema.
 */
import type { z } from 'zod';
import { DecideApprovalRequest, ListApprovalsRequest, ListApprovalsResponse } from './approvals-protocol.js';
import { MemoryAuditRequest, MemoryAuditResponse } from './audit-protocol.js';
import { BindingIdRequest, BindingInfoSchema, OpenBindingRequest, WorkerSessionSchema } from './bindings-protocol.js';
import { PrincipalSelfSchema, TargetInfoSchema } from './info-protocol.js';
import {
  MemoryDeleteRequest,
  MemoryGetRequest,
  MemoryGetResponse,
  MemoryPutRequest,
  MemorySearchRequest,
  MemorySearchResponse,
  MemoryWriteOutcomeSchema,
} from './memory-protocol.js';
import { RunStreamLineSchema, StartRunRequest } from './runs-protocol.js';
import {
  CommitHeadRequest,
  DurableStateHeadSchema,
  EmptyResponse,
  LoadHeadRequest,
  LoadHeadResponse,
  MarkUncertainRequest,
  PendingStateRefSchema,
  ReconcileRequest,
  RunRecordSchema,
  RunStatusRequest,
  RunStatusResponse,
  WriteNativeStateRequest,
} from './state-protocol.js';
import { TargetEnvSchema, TargetInstanceParams, TargetInstanceSchema } from './target-instances-protocol.js';
import { TelemetryHealthSchema } from './telemetry-protocol.js';
import {
  AdvanceClockRequest,
  ClockResponse,
  FailpointParams,
  FailpointTermBody,
  NetworkLinksResponse,
  PoisonCacheRequest,
  ProcessIdsResponse,
  ProcessRestartRequest,
  ProcessSignalRequest,
  StorageResidueRequest,
  StorageResidueResponse,
} from './test-controls-protocol.js';
import { AllowedResponse, MayInvokeRequest, MayReachRequest } from './tools-protocol.js';

export type AuthKind = 'none' | 'principal' | 'worker' | 'admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteSpec {
  readonly method: HttpMethod;
  /** Fastify-style path; `:name` segments are path parameters. */
  readonly path: string;
  readonly auth: AuthKind;
  readonly summary: string;
  readonly tag:
    | 'info'
    | 'bindings'
    | 'thread-state'
    | 'memory'
    | 'approvals'
    | 'audit'
    | 'tools'
    | 'runs'
    | 'telemetry'
    | 'test-controls';
  /** Request body schema (JSON unless `bodyType` is `text`); null = no body. */
  readonly request: z.ZodType | null;
  readonly bodyType?: 'json' | 'text';
  readonly params?: z.ZodType;
  /** 200 response: a JSON body, or an NDJSON stream whose lines match the schema. */
  readonly response: z.ZodType;
  readonly stream?: 'ndjson';
}

function route<R extends RouteSpec>(r: R): R {
  return r;
}

export const TEST_CONTROL_PREFIX = '/_smtc/';

export const ROUTES = {
  info: route({
    method: 'GET',
    path: '/v1/info',
    auth: 'none',
    tag: 'info',
    summary: 'Target name, protocol version, capabilities, declared bounds',
    request: null,
    response: TargetInfoSchema,
  }),
  principalSelf: route({
    method: 'GET',
    path: '/v1/principals/self',
    auth: 'principal',
    tag: 'info',
    summary: 'Who the bearer token authenticates as',
    request: null,
    response: PrincipalSelfSchema,
  }),

  bindingsOpen: route({
    method: 'POST',
    path: '/v1/bindings/open',
    auth: 'principal',
    tag: 'bindings',
    summary: 'Open a binding owned by the caller',
    request: OpenBindingRequest,
    response: BindingInfoSchema,
  }),
  bindingsGet: route({
    method: 'POST',
    path: '/v1/bindings/get',
    auth: 'principal',
    tag: 'bindings',
    summary: 'Read a binding the caller owns',
    request: BindingIdRequest,
    response: BindingInfoSchema,
  }),
  bindingsClear: route({
    method: 'POST',
    path: '/v1/bindings/clear',
    auth: 'principal',
    tag: 'bindings',
    summary: 'Clear: start a new epoch',
    request: BindingIdRequest,
    response: BindingInfoSchema,
  }),
  bindingsAcquireLease: route({
    method: 'POST',
    path: '/v1/bindings/acquire-lease',
    auth: 'principal',
    tag: 'bindings',
    summary: 'Acquire a lease (bumps the lease generation, fencing older ones)',
    request: BindingIdRequest,
    response: WorkerSessionSchema,
  }),

  stateLoadHead: route({
    method: 'POST',
    path: '/v1/thread-state/load-head',
    auth: 'worker',
    tag: 'thread-state',
    summary: 'load_head',
    request: LoadHeadRequest,
    response: LoadHeadResponse,
  }),
  stateWriteNative: route({
    method: 'POST',
    path: '/v1/thread-state/write-native-state',
    auth: 'worker',
    tag: 'thread-state',
    summary: 'write_native_state (idempotent by key)',
    request: WriteNativeStateRequest,
    response: PendingStateRefSchema,
  }),
  stateCommitHead: route({
    method: 'POST',
    path: '/v1/thread-state/commit-head',
    auth: 'worker',
    tag: 'thread-state',
    summary: 'commit_head (compare-and-set of the durable head)',
    request: CommitHeadRequest,
    response: DurableStateHeadSchema,
  }),
  stateMarkUncertain: route({
    method: 'POST',
    path: '/v1/thread-state/mark-uncertain',
    auth: 'worker',
    tag: 'thread-state',
    summary: 'mark_uncertain',
    request: MarkUncertainRequest,
    response: EmptyResponse,
  }),
  stateRunStatus: route({
    method: 'POST',
    path: '/v1/thread-state/run-status',
    auth: 'worker',
    tag: 'thread-state',
    summary: 'Status of a run (certification extension)',
    request: RunStatusRequest,
    response: RunStatusResponse,
  }),
  stateReconcile: route({
    method: 'POST',
    path: '/v1/thread-state/reconcile',
    auth: 'worker',
    tag: 'thread-state',
    summary: 'Explicit reconciliation of an uncertain run',
    request: ReconcileRequest,
    response: RunRecordSchema,
  }),

  memoryGet: route({
    method: 'POST',
    path: '/v1/memory/get',
    auth: 'principal',
    tag: 'memory',
    summary: 'MemoryBroker.get',
    request: MemoryGetRequest,
    response: MemoryGetResponse,
  }),
  memorySearch: route({
    method: 'POST',
    path: '/v1/memory/search',
    auth: 'principal',
    tag: 'memory',
    summary: 'MemoryBroker.search',
    request: MemorySearchRequest,
    response: MemorySearchResponse,
  }),
  memoryPut: route({
    method: 'POST',
    path: '/v1/memory/put',
    auth: 'principal',
    tag: 'memory',
    summary: 'MemoryBroker.put (the memory-write pipeline)',
    request: MemoryPutRequest,
    response: MemoryWriteOutcomeSchema,
  }),
  memoryDelete: route({
    method: 'POST',
    path: '/v1/memory/delete',
    auth: 'principal',
    tag: 'memory',
    summary: 'MemoryBroker.delete',
    request: MemoryDeleteRequest,
    response: MemoryWriteOutcomeSchema,
  }),

  approvalsList: route({
    method: 'POST',
    path: '/v1/approvals/list',
    auth: 'principal',
    tag: 'approvals',
    summary: 'Pending approvals the caller may decide on',
    request: ListApprovalsRequest,
    response: ListApprovalsResponse,
  }),
  approvalsDecide: route({
    method: 'POST',
    path: '/v1/approvals/decide',
    auth: 'principal',
    tag: 'approvals',
    summary: 'Approve or reject a pending write',
    request: DecideApprovalRequest,
    response: MemoryWriteOutcomeSchema,
  }),
  auditMemory: route({
    method: 'POST',
    path: '/v1/audit/memory',
    auth: 'principal',
    tag: 'audit',
    summary: 'Memory audit entries the caller (an admin) may read',
    request: MemoryAuditRequest,
    response: MemoryAuditResponse,
  }),
  toolsMayInvoke: route({
    method: 'POST',
    path: '/v1/tools/may-invoke',
    auth: 'principal',
    tag: 'tools',
    summary: 'May the caller’s run with this agent invoke the tool?',
    request: MayInvokeRequest,
    response: AllowedResponse,
  }),
  toolsMayReach: route({
    method: 'POST',
    path: '/v1/tools/may-reach',
    auth: 'principal',
    tag: 'tools',
    summary: 'May the caller’s run with this agent reach the host?',
    request: MayReachRequest,
    response: AllowedResponse,
  }),

  runsStart: route({
    method: 'POST',
    path: '/v1/runs',
    auth: 'principal',
    tag: 'runs',
    summary: 'Start (or resume) a run; streams its events as NDJSON, then its outcome',
    request: StartRunRequest,
    response: RunStreamLineSchema,
    stream: 'ndjson',
  }),

  telemetryHealth: route({
    method: 'GET',
    path: '/v1/telemetry/health',
    auth: 'admin',
    tag: 'telemetry',
    summary: 'The telemetry health signal (dropped spans, queue depth, exporter state)',
    request: null,
    response: TelemetryHealthSchema,
  }),

  controlTelemetryFlush: route({
    method: 'POST',
    path: '/_smtc/telemetry/flush',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Flush queued telemetry now',
    request: null,
    response: EmptyResponse,
  }),
  controlClockNow: route({
    method: 'GET',
    path: '/_smtc/clock',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'The target clock (ms since epoch)',
    request: null,
    response: ClockResponse,
  }),
  controlClockAdvance: route({
    method: 'POST',
    path: '/_smtc/clock/advance',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Move the target clock forward',
    request: AdvanceClockRequest,
    response: ClockResponse,
  }),
  controlFailpointSet: route({
    method: 'PUT',
    path: '/_smtc/failpoints/:name',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Arm a failpoint with a gofail-style term (text/plain body)',
    request: FailpointTermBody,
    bodyType: 'text',
    params: FailpointParams,
    response: EmptyResponse,
  }),
  controlFailpointsClear: route({
    method: 'DELETE',
    path: '/_smtc/failpoints',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Disarm every failpoint',
    request: null,
    response: EmptyResponse,
  }),
  controlProcessIds: route({
    method: 'GET',
    path: '/_smtc/processes',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'OS process ids of the control plane and its sandbox workers',
    request: null,
    response: ProcessIdsResponse,
  }),
  controlProcessSignal: route({
    method: 'POST',
    path: '/_smtc/processes/signal',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Send a real signal (SIGKILL, SIGSTOP, SIGCONT) to every sandbox worker process',
    request: ProcessSignalRequest,
    response: EmptyResponse,
  }),
  controlProcessRestart: route({
    method: 'POST',
    path: '/_smtc/processes/restart',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Restart every sandbox worker process (same slots, fresh processes)',
    request: ProcessRestartRequest,
    response: EmptyResponse,
  }),
  controlPodCachePoison: route({
    method: 'POST',
    path: '/_smtc/pod-cache/poison',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Poison every worker pod-local cache for a binding (restore must never select it)',
    request: PoisonCacheRequest,
    response: EmptyResponse,
  }),
  controlNetworkLinks: route({
    method: 'GET',
    path: '/_smtc/network-links',
    auth: 'admin',
    tag: 'test-controls',
    summary: "The Toxiproxy proxies in front of the target's own links (worker → control plane, …)",
    request: null,
    response: NetworkLinksResponse,
  }),
  controlStorageResidue: route({
    method: 'POST',
    path: '/_smtc/storage/residue',
    auth: 'admin',
    tag: 'test-controls',
    summary:
      'Run retention and deletion work already due, then report which declared storage locations still hold the needle',
    request: StorageResidueRequest,
    response: StorageResidueResponse,
  }),
  controlTargetsCreate: route({
    method: 'POST',
    path: '/_smtc/targets',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Create a fresh isolated target with this env; it answers under /_smtc/targets/{id}',
    request: TargetEnvSchema,
    response: TargetInstanceSchema,
  }),
  controlTargetsDelete: route({
    method: 'DELETE',
    path: '/_smtc/targets/:id',
    auth: 'admin',
    tag: 'test-controls',
    summary: 'Destroy a target instance and its data',
    request: null,
    params: TargetInstanceParams,
    response: EmptyResponse,
  }),
} as const satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof ROUTES;

export function isTestControl(r: RouteSpec): boolean {
  return r.path.startsWith(TEST_CONTROL_PREFIX);
}
