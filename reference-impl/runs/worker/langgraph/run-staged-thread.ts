/**
 * The thread a Deep Agents run works on inside a sandbox worker: ContractCheckpointSaver over a
 * ThreadStateStore that starts from the durable head the run loaded (never from pod-local
 * state) and keeps LangGraph's checkpoints and pending writes of this run staged in memory.
 * Nothing staged is durable: the harness commits the staged log through the contract's commit
 * protocol (RunCommit) at the run's durable points only — a checkpoint step, an interrupt, the
 * end of the run — so a run makes one head revision per durable point, as the contract's runs
 * do, while LangGraph still writes a checkpoint per super-step. A run lost between durable
 * points leaves the previous head: its staged work is gone with the worker and never replayed.
 */
import { createHash } from 'node:crypto';
import { ContractError } from '../../../../contract/errors.js';
import type {
  DurableStateHead,
  OpaqueStatePayload,
  PendingStateRef,
  StateScope,
  ThreadStateStore,
} from '../../../../contract/state.js';
import { compactLog, decodeLog, encodeLog, LANGGRAPH_CODEC } from './checkpoint-log.js';
import type { ThreadSessions } from './thread-sessions.js';
import { workerThreadSessions } from './thread-sessions.js';

export interface RunStagedThread {
  readonly sessions: ThreadSessions;
  /**
   * The staged log as a native payload: what the next durable point commits — compacted to what
   * a resume reads (compactLog), so a thread's head stays within the store's payload bound.
   */
  payload(): OpaqueStatePayload | null;
}

/**
 * `base` is the durable head the run loaded (null: an empty thread). A head of another codec
 * is refused before anything runs: LangGraph must never start from bytes it did not write.
 */
export function runStagedThread(
  thread: string,
  scope: StateScope,
  base: DurableStateHead | null,
  runId: string,
): RunStagedThread {
  if (base && base.payload.codec !== LANGGRAPH_CODEC) throw new ContractError('codec_mismatch');
  let head: DurableStateHead | null = base;
  const pending = new Map<string, OpaqueStatePayload>();
  const unsupported = (): never => {
    throw new ContractError('forbidden', 'a run-staged thread only loads, writes and commits');
  };
  const store: ThreadStateStore = {
    load_head: async () => head,
    async write_native_state(_scope, codec, payload, key) {
      if (codec !== LANGGRAPH_CODEC || payload.codec !== codec) throw new ContractError('codec_mismatch');
      pending.set(key, payload);
      const contentHash = createHash('sha256').update(payload.bytes).digest('hex');
      return {
        stateId: key,
        bindingId: scope.bindingId,
        epoch: scope.epoch,
        codec,
        idempotencyKey: key,
        contentHash,
        size: payload.bytes.length,
      } satisfies PendingStateRef;
    },
    async commit_head(_scope, ref, expected, run) {
      const payload = pending.get(ref.idempotencyKey);
      if (!payload) throw new ContractError('not_found');
      if (expected !== (head?.revision ?? 0)) throw new ContractError('revision_conflict');
      pending.clear(); // one writer per run: every other staged write is superseded
      // Staged revisions only order this run's writes; the durable revision is RunCommit's.
      head = {
        bindingId: scope.bindingId,
        epoch: scope.epoch,
        revision: expected + 1,
        state: ref,
        payload,
        runId: run,
        runState: 'completed',
        interrupt: null,
        committedAt: new Date(0).toISOString(),
      };
      return head;
    },
    mark_uncertain: unsupported,
    run_status: unsupported,
    reconcile: unsupported,
  };
  return {
    sessions: workerThreadSessions(thread, { scope, credential: '' }, store, runId),
    payload: () =>
      head && {
        codec: LANGGRAPH_CODEC,
        bytes: encodeLog(compactLog(decodeLog(head.payload.bytes, thread, scope.epoch))),
      },
  };
}
