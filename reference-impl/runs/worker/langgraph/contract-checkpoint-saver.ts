/**
 * A LangGraph checkpointer whose only storage is the contract's ThreadStateStore, reached with
 * a worker's lease credential (see thread-sessions.ts). It keeps the observable semantics of
 * LangGraph's MongoDBSaver; README "LangGraph checkpointer over the contract" has the table.
 *
 * The mapping:
 *  - thread_id → one binding (the lease names it); deleteThread → clear, i.e. a new epoch: the
 *    old epoch's checkpoints can never become the thread's state again, as the contract says.
 *  - All of a thread's checkpoints (every namespace, with parent ids) and pending writes in the
 *    current epoch form one opaque `langgraph-checkpoint/v1` log (checkpoint-log.ts), each
 *    value exactly as LangGraph's serde wrote it. The binding's durable head holds the log.
 *  - put / putWrites are LangGraph's durability points: MongoDBSaver makes each durable before
 *    it returns, and LangGraph relies on that (a task's writes saved before a crash are not
 *    re-run on resume — the contract's "do not replay model or tool work"). So each one is a
 *    full commit-protocol cycle: load head (revision r) → apply the upsert to the log → write
 *    it as pending under an idempotency key derived from thread / ns / checkpoint id / task,
 *    r and the bytes → compare-and-set the head from r, under the run's id. A LangGraph run
 *    (several checkpoints, one per super-step) is thus several commits of one run id; the
 *    run's last commit is its durable head. Nothing is read back from pending state or from
 *    memory: every read loads the durable head (a decoded copy is reused only when it is the
 *    very head load_head returned), so pod-local state is never selected. A write may start
 *    from the head this saver itself committed last, optimistically: the compare-and-set
 *    rejects it if anything committed since, and it is then redone on the loaded head.
 *  - A lost commit answer is retried with the same pending ref (the store returns the same
 *    head); a revision conflict re-reads and re-applies (bounded). Any other error leaves the
 *    head as it was: a rejected operation is never half-applied.
 *
 * Where it differs from MongoDBSaver: it also migrates pending sends of pre-v4 checkpoints (as
 * MemorySaver does; LangGraph's validation suite requires it of every saver but MongoDBSaver),
 * and ids/the log are bounded (the store's payload bound applies to the whole thread's log).
 */
import { createHash } from 'node:crypto';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  maxChannelVersion,
  type PendingWrite,
  type SerializerProtocol,
  TASKS,
  WRITES_IDX_MAP,
} from '@langchain/langgraph-checkpoint';
import { ContractError, isContractError } from '../../../../contract/errors.js';
import type { DurableStateHead, PendingStateRef, StateScope } from '../../../../contract/state.js';
import { BoundedCache } from '../../../state/bounded-cache.js';
import {
  type CheckpointLog,
  decodeLog,
  emptyLog,
  encodeLog,
  fromB64,
  LANGGRAPH_CODEC,
  LOG_BOUNDS,
  type StoredCheckpoint,
  type StoredWrite,
  toB64,
} from './checkpoint-log.js';
import type { ThreadHandle, ThreadSessions } from './thread-sessions.js';

/** Re-reads after a revision conflict, and re-sends of a commit whose answer was lost. */
const MAX_CONFLICT_RETRIES = 8;
const MAX_LOST_ANSWER_RETRIES = 2;

export interface HeadLog {
  readonly handle: ThreadHandle;
  readonly revision: number;
  readonly log: CheckpointLog;
}

interface CommittedBase {
  readonly bindingId: string;
  readonly epoch: number;
  readonly revision: number;
  readonly log: CheckpointLog;
}

function configString(config: RunnableConfig, name: string, required: boolean): string | undefined {
  const v = (config.configurable as Record<string, unknown> | undefined)?.[name];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v.length > LOG_BOUNDS.maxIdChars) {
    throw new ContractError('invalid_argument', `configurable.${name} must be a bounded string`);
  }
  return v;
}

const sha = (s: string | Uint8Array): string => createHash('sha256').update(s).digest('hex');

export class ContractCheckpointSaver extends BaseCheckpointSaver {
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Decoded logs by exact durable head (binding, epoch, revision, content hash). */
  private readonly decoded = new BoundedCache<string, CheckpointLog>(64);
  /** Per thread, the head this saver committed last: only ever the base of a CAS-checked write. */
  private readonly committed = new BoundedCache<string, CommittedBase>(64);

  constructor(
    private readonly threads: ThreadSessions,
    serde?: SerializerProtocol,
  ) {
    super(serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const thread = configString(config, 'thread_id', false);
    if (thread === undefined) return undefined;
    const ns = configString(config, 'checkpoint_ns', false) ?? '';
    const id = configString(config, 'checkpoint_id', false);
    const found = await this.readLog(thread);
    if (!found) return undefined;
    const entry = this.latest(found.log, ns, id);
    return entry ? this.toTuple(found.log, entry) : undefined;
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const thread = configString(config, 'thread_id', false);
    const ns = configString(config, 'checkpoint_ns', false);
    const before = options?.before ? configString(options.before, 'checkpoint_id', false) : undefined;
    const filter = Object.entries(options?.filter ?? {});
    for (const [key, value] of filter) {
      if (value !== null && typeof value === 'object') {
        throw new ContractError('invalid_argument', 'filter values must be primitives');
      }
      if (key.length > LOG_BOUNDS.maxIdChars) throw new ContractError('invalid_argument', 'filter key too long');
    }
    const candidates: [CheckpointLog, StoredCheckpoint][] = [];
    for (const t of thread ? [thread] : this.threads.threads()) {
      const found = await this.readLog(t);
      for (const c of found?.log.checkpoints ?? []) {
        if ((ns === undefined || c[0] === ns) && (before === undefined || c[1] < before))
          candidates.push([found!.log, c]);
      }
    }
    // MongoDBSaver: sort("checkpoint_id", -1) over every matching document, then limit.
    candidates.sort((a, b) => (a[1][1] < b[1][1] ? 1 : a[1][1] > b[1][1] ? -1 : 0));
    let left = options?.limit ?? Number.POSITIVE_INFINITY;
    for (const [log, c] of candidates) {
      if (left <= 0) return;
      const tuple = await this.toTuple(log, c);
      const md = tuple.metadata as Record<string, unknown> | undefined;
      if (!filter.every(([k, v]) => (v === null ? (md?.[k] ?? null) === null : md?.[k] === v))) continue;
      left -= 1;
      yield tuple;
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    _newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const thread = configString(config, 'thread_id', true) as string;
    const ns = configString(config, 'checkpoint_ns', false) ?? '';
    const parent = configString(config, 'checkpoint_id', false) ?? null;
    if (typeof checkpoint?.id !== 'string' || checkpoint.id === '' || checkpoint.id.length > LOG_BOUNDS.maxIdChars) {
      throw new ContractError('invalid_argument', 'checkpoint.id must be a bounded string');
    }
    const [[cpType, cpBytes], [mdType, mdBytes]] = await Promise.all([
      this.serde.dumpsTyped(checkpoint),
      this.serde.dumpsTyped(metadata),
    ]);
    if (cpType !== mdType) throw new ContractError('invalid_argument', 'mismatched checkpoint and metadata types');
    const stored: StoredCheckpoint = [ns, checkpoint.id, parent, cpType, toB64(cpBytes), toB64(mdBytes)];
    await this.mutate(thread, ['put', ns, checkpoint.id], (log) => {
      const at = log.checkpoints.findIndex((c) => c[0] === ns && c[1] === checkpoint.id);
      if (at >= 0 && log.checkpoints[at]?.join('\u0000') === stored.join('\u0000')) return null; // a retried put
      const checkpoints = [...log.checkpoints];
      if (at >= 0) checkpoints[at] = stored;
      else checkpoints.push(stored);
      return { ...log, checkpoints };
    });
    return { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const thread = configString(config, 'thread_id', true) as string;
    const ns = configString(config, 'checkpoint_ns', true) as string;
    const id = configString(config, 'checkpoint_id', true) as string;
    if (typeof taskId !== 'string' || taskId.length > LOG_BOUNDS.maxIdChars) {
      throw new ContractError('invalid_argument', 'task id must be a bounded string');
    }
    const path = typeof taskPath === 'string' ? taskPath.slice(0, LOG_BOUNDS.maxIdChars) : '';
    if (writes.length === 0) return;
    // MongoDBSaver: all-special writes ($set) replace; otherwise the first write wins ($setOnInsert).
    const allSpecial = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const rows: StoredWrite[] = await Promise.all(
      writes.map(async ([channel, value], i): Promise<StoredWrite> => {
        if (typeof channel !== 'string' || channel.length > LOG_BOUNDS.maxIdChars) {
          throw new ContractError('invalid_argument', 'channel must be a bounded string');
        }
        const [type, bytes] = await this.serde.dumpsTyped(value);
        return [ns, id, taskId, WRITES_IDX_MAP[channel] ?? i, channel, type, toB64(bytes), path];
      }),
    );
    await this.mutate(thread, ['writes', ns, id, taskId], (log) => {
      const next = [...log.writes];
      let changed = false;
      for (const row of rows) {
        const at = next.findIndex((w) => w[0] === ns && w[1] === id && w[2] === taskId && w[3] === row[3]);
        if (at < 0) next.push(row);
        else if (allSpecial && next[at]?.join('\u0000') !== row.join('\u0000')) next[at] = row;
        else continue;
        changed = true;
      }
      return changed ? { ...log, writes: next } : null;
    });
  }

  async deleteThread(threadId: string): Promise<void> {
    if (typeof threadId !== 'string' || threadId.length > LOG_BOUNDS.maxIdChars) {
      throw new ContractError('invalid_argument', 'thread id must be a bounded string');
    }
    this.committed.delete(threadId);
    await this.serialized(threadId, () => this.threads.clear(threadId));
  }

  /** The thread's durable head, decoded; null when the thread has no binding here. */
  protected async readLog(thread: string): Promise<HeadLog | null> {
    const handle = await this.threads.open(thread, false);
    if (!handle) return null;
    return this.loadHead(thread, handle);
  }

  /** The writes stored against one checkpoint, in write order. */
  protected writesFor(log: CheckpointLog, ns: string, id: string): StoredWrite[] {
    return log.writes.filter((w) => w[0] === ns && w[1] === id);
  }

  private async loadHead(thread: string, handle: ThreadHandle): Promise<HeadLog> {
    if (handle.scope.codec !== LANGGRAPH_CODEC) throw new ContractError('codec_mismatch');
    const head = await handle.store.load_head(handle.scope);
    if (!head) return { handle, revision: 0, log: emptyLog(thread, handle.scope.epoch) };
    return { handle, revision: head.revision, log: this.decodeHead(thread, handle.scope, head) };
  }

  private decodeHead(thread: string, scope: StateScope, head: DurableStateHead): CheckpointLog {
    if (head.payload.codec !== LANGGRAPH_CODEC) throw new ContractError('codec_mismatch');
    if (head.epoch !== scope.epoch || head.bindingId !== scope.bindingId) throw new ContractError('epoch_mismatch');
    const key = `${head.bindingId}:${head.epoch}:${head.revision}:${head.state.contentHash}`;
    const cached = this.decoded.get(key);
    if (cached && cached.thread === thread) return cached;
    const log = decodeLog(head.payload.bytes, thread, scope.epoch);
    this.decoded.set(key, log);
    return log;
  }

  /** The checkpoint `id` in `ns`, or the newest (greatest id) there, as MongoDBSaver sorts. */
  private latest(log: CheckpointLog, ns: string, id: string | undefined): StoredCheckpoint | undefined {
    let best: StoredCheckpoint | undefined;
    for (const c of log.checkpoints) {
      if (c[0] !== ns || (id && c[1] !== id)) continue;
      if (!best || c[1] > best[1]) best = c;
    }
    return best;
  }

  private async toTuple(log: CheckpointLog, c: StoredCheckpoint): Promise<CheckpointTuple> {
    const [ns, id, parent, type, cp, md] = c;
    const checkpoint = (await this.serde.loadsTyped(type, fromB64(cp))) as Checkpoint;
    if (checkpoint.v < 4 && parent !== null) await this.migratePendingSends(log, checkpoint, ns, parent);
    const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
      this.writesFor(log, ns, id).map(
        async (w): Promise<CheckpointPendingWrite> => [w[2], w[4], await this.serde.loadsTyped(w[5], fromB64(w[6]))],
      ),
    );
    const configurable = { thread_id: log.thread, checkpoint_ns: ns, checkpoint_id: id };
    return {
      config: { configurable },
      checkpoint,
      metadata: (await this.serde.loadsTyped(type, fromB64(md))) as CheckpointMetadata,
      pendingWrites,
      parentConfig:
        parent !== null
          ? { configurable: { thread_id: log.thread, checkpoint_ns: ns, checkpoint_id: parent } }
          : undefined,
    };
  }

  /** Pre-v4 checkpoints kept pending sends as writes on their parent (MemorySaver's migration). */
  private async migratePendingSends(log: CheckpointLog, cp: Checkpoint, ns: string, parent: string): Promise<void> {
    const sends = await Promise.all(
      this.writesFor(log, ns, parent)
        .filter((w) => w[4] === TASKS)
        .map((w) => this.serde.loadsTyped(w[5], fromB64(w[6]))),
    );
    const mutable = cp as { channel_values: Record<string, unknown>; channel_versions: ChannelVersions };
    mutable.channel_values ??= {};
    mutable.channel_values[TASKS] = sends;
    mutable.channel_versions ??= {};
    const versions = Object.values(mutable.channel_versions);
    mutable.channel_versions[TASKS] =
      versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }

  /**
   * One commit-protocol cycle for one LangGraph durability point; `apply` returns the new log,
   * or null when the operation changes nothing (then nothing is written).
   */
  private async mutate(
    thread: string,
    op: readonly string[],
    apply: (log: CheckpointLog) => CheckpointLog | null,
  ): Promise<void> {
    await this.serialized(thread, async () => {
      const handle = await this.threads.open(thread, true);
      if (!handle) throw new ContractError('not_found');
      const opHash = sha(JSON.stringify([thread, ...op])).slice(0, 32);
      for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
        // The head this saver committed last is the base of an optimistic write (the CAS
        // rejects it if anyone committed since); otherwise, or after a conflict, load the head.
        const mine = attempt === 0 ? this.committed.get(thread) : undefined;
        const base =
          mine && mine.bindingId === handle.scope.bindingId && mine.epoch === handle.scope.epoch
            ? mine
            : await this.loadHead(thread, handle);
        this.committed.delete(thread);
        const { revision, log } = base;
        const next = apply(log);
        if (!next) {
          if (base === mine) continue; // "nothing to do" only counts against the durable head
          return;
        }
        if (next.checkpoints.length + next.writes.length > LOG_BOUNDS.maxEntries)
          throw new ContractError('entry_limit');
        const bytes = encodeLog(next);
        const key = `lg1:${op[0]}:${opHash}:${revision}:${sha(bytes).slice(0, 16)}`;
        const pending = await handle.store.write_native_state(
          handle.scope,
          LANGGRAPH_CODEC,
          { codec: LANGGRAPH_CODEC, bytes },
          key,
        );
        try {
          const head = await this.commit(handle, pending, revision);
          this.committed.set(thread, {
            bindingId: head.bindingId,
            epoch: head.epoch,
            revision: head.revision,
            log: next,
          });
          return;
        } catch (e) {
          if (!isContractError(e, 'revision_conflict')) throw e;
        }
      }
      throw new ContractError('revision_conflict');
    });
  }

  private async commit(handle: ThreadHandle, pending: PendingStateRef, revision: number): Promise<DurableStateHead> {
    for (let i = 0; ; i++) {
      try {
        return await handle.store.commit_head(handle.scope, pending, revision, handle.runId);
      } catch (e) {
        // Same pending, same run, same expected revision: the store answers with the same head.
        if (!isContractError(e, 'unavailable') || i >= MAX_LOST_ANSWER_RETRIES) throw e;
      }
    }
  }

  /** Operations on one thread run one at a time (LangGraph writes parallel tasks concurrently). */
  private async serialized<T>(thread: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(thread) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.queues.set(thread, tail);
    try {
      return await run;
    } finally {
      if (this.queues.get(thread) === tail) this.queues.delete(thread);
    }
  }
}
