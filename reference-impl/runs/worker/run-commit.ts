/**
 * The contract's commit protocol as a run performs it, with its spans: load the durable head
 * (`thread_state.load`), then for every durable point write the native state as pending,
 * idempotently (`thread_state.write`), and compare-and-set the head (`thread_state.commit`).
 * The caller reports `durable` only after `commit` returned. If a write or commit fails after
 * client-visible output, the run is marked `uncertain_durability` and nothing is replayed.
 */
import { type Context, SpanKind, type Tracer } from '@opentelemetry/api';
import type {
  DurableStateHead,
  OpaqueStatePayload,
  PendingInterrupt,
  StateScope,
  ThreadStateStore,
  UncertainReason,
} from '../../../contract/state.js';
import { inSpan } from '../../telemetry/span-scope.js';

/** Which protocol step failed: decides the uncertain-durability reason. */
export class CommitStepFailed extends Error {
  override name = 'CommitStepFailed';
  constructor(
    readonly step: 'write' | 'commit',
    override readonly cause: unknown,
  ) {
    super(`thread state ${step} failed`);
  }
}

export class RunCommit {
  private revision = 0;
  private commits = 0;

  constructor(
    private readonly store: ThreadStateStore,
    private readonly scope: StateScope,
    private readonly runId: string,
    private readonly tracer: Tracer,
  ) {}

  /** Revision of the last durable head this run saw or made. */
  get durableRevision(): number {
    return this.revision;
  }

  async load(runCtx: Context): Promise<DurableStateHead | null> {
    return inSpan(
      this.tracer,
      'thread_state.load',
      runCtx,
      {},
      async (s) => {
        const head = await this.store.load_head(this.scope);
        this.revision = head?.revision ?? 0;
        s.set({ 'smtc.size.bytes': head?.state.size ?? 0 });
        return head;
      },
      SpanKind.CLIENT,
    );
  }

  /** Steps 3–5: write the harness's native payload as pending, then CAS the head with the run's terminal metadata. */
  async commit(
    runCtx: Context,
    payload: OpaqueStatePayload,
    interrupt: PendingInterrupt | null,
  ): Promise<DurableStateHead> {
    // One key per durable point of this run: a retried write of the same point is idempotent.
    const key = `${this.runId}:${this.commits}`;
    const pending = await inSpan(
      this.tracer,
      'thread_state.write',
      runCtx,
      { 'smtc.size.bytes': payload.bytes.length },
      () => this.store.write_native_state(this.scope, payload.codec, payload, key),
      SpanKind.CLIENT,
    ).catch((e: unknown) => {
      throw new CommitStepFailed('write', e);
    });
    const head = await inSpan(
      this.tracer,
      'thread_state.commit',
      runCtx,
      {},
      async (s) => {
        const h = await this.store.commit_head(this.scope, pending, this.revision, this.runId, {
          runState: interrupt ? 'interrupted' : 'completed',
          interrupt,
        });
        s.set({ 'smtc.outcome': 'ok' });
        return h;
      },
      SpanKind.CLIENT,
    ).catch((e: unknown) => {
      throw new CommitStepFailed('commit', e);
    });
    this.commits++;
    this.revision = head.revision;
    return head;
  }

  /** Fence the run; never throws (the run is reported uncertain whether or not this lands). */
  async markUncertain(reason: UncertainReason): Promise<void> {
    try {
      await this.store.mark_uncertain(this.scope, this.runId, reason);
    } catch {
      // The store is unreachable as well: the run still reports uncertain_durability and the
      // previous head stays durable; reconciliation is explicit.
    }
  }
}
