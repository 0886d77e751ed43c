/**
 * Test-only fault hooks: the one place where the reference can be told (through
 * `HarnessEnv.options.mutation`) to misbehave in a named way, for mutants whose bug a wrapper
 * around the Target cannot express — the bug is inside the request path. Each hook is read only
 * at the sites named below. With no `mutation` option (the default and every certification
 * run of the reference) every hook is off.
 */
export const MUTATION_HOOKS = {
  /** runs/worker/scripted-harness.ts: tool.invoke is parented to harness.request. */
  toolSpanUnderRequest: 'tool-span-under-request',
  /** runs/worker/scripted-harness.ts: a subagent runs without its subagent.run span. */
  noSubagentSpan: 'no-subagent-span',
  /** runs/worker/sandbox-worker.ts: the worker ignores the carrier and starts its own trace. */
  workerDropsContext: 'worker-drops-context',
  /** runs/worker/outbound-http.ts: trace context is sent to untrusted provider and tool endpoints. */
  propagateToExternal: 'propagate-to-external',
  /** runs/worker/outbound-http.ts: accepted baggage is forwarded to the model provider. */
  baggageToProvider: 'baggage-to-provider',
  /**
   * runs/control-plane/control-plane.ts and runs/worker/outbound-http.ts: ingress baggage is
   * taken whole and forwarded whole (the schema is checked at both ends, so both must break).
   */
  unfilteredBaggage: 'unfiltered-baggage',
  /** runs/control-plane/control-plane.ts: a request claiming trust in an `x-trusted-ingress: true` header is trusted. */
  honourClaimedTrust: 'honour-claimed-trust',
  /** worker-process/pod-local-cache.ts: restore prefers the worker's pod-local cache to the durable head. */
  restoreFromPodCache: 'restore-from-pod-cache',
  /** worker-process/pod-local-cache.ts: a worker process restores nothing for a binding it has not served before. */
  newWorkerIgnoresHead: 'new-worker-ignores-head',
  /** runs/control-plane/control-plane.ts: a run whose worker was lost is re-dispatched to a new worker. */
  replayAfterWorkerLoss: 'replay-after-worker-loss',
  /** runs/control-plane/control-plane.ts: a run its worker reports uncertain is left to the worker to fence. */
  uncertainNotFencedByControlPlane: 'uncertain-not-fenced-by-control-plane',
  /** runs/control-plane/control-plane.ts: a worker lost after output is reported failed, not uncertain, and not fenced. */
  workerLossNotFenced: 'worker-loss-not-fenced',
  /** worker-process/worker-server.ts: the worker flushes telemetry after a run and fails it when the export failed. */
  workerFailsRunOnExportFailure: 'worker-fails-run-on-export-failure',
  /** runs/control-plane/lease-cache.ts: the control plane keeps dispatching on its cached lease after a takeover. */
  leaseNeverRefreshed: 'lease-never-refreshed',
  /** state/thread-state-store.ts: a superseded lease can still write pending state and commit it. */
  staleLeaseCanWrite: 'stale-lease-can-write',
  /** runs/worker/deepagents/deepagents-harness.ts: a run starts from the newest log this worker staged, not the committed head. */
  deepagentsNewestCheckpoint: 'deepagents-newest-checkpoint',
  /** runs/worker/deepagents/deepagents-harness.ts: the checkpointer returns checkpoints without their pending writes. */
  deepagentsDropsPendingWrites: 'deepagents-drops-pending-writes',
} as const;
export type MutationHook = (typeof MUTATION_HOOKS)[keyof typeof MUTATION_HOOKS];

const KNOWN = new Set<string>(Object.values(MUTATION_HOOKS));

export class MutationHooks {
  private readonly active: MutationHook | null;

  constructor(mutation: unknown) {
    if (mutation === undefined) this.active = null;
    else if (typeof mutation === 'string' && KNOWN.has(mutation)) this.active = mutation as MutationHook;
    // An unknown hook name is a kit bug: fail loudly rather than certify an unmutated reference.
    else throw new RangeError('unknown mutation hook');
  }

  has(hook: MutationHook): boolean {
    return this.active === hook;
  }
}
