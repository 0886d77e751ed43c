/**
 * How the LangGraph adapter reaches a thread's ThreadStateStore: LangGraph names threads by
 * `thread_id`; the contract names them by binding. A ThreadSessions maps one to the other and
 * hands out a store bound to a worker lease — the adapter never sees a database.
 *
 *  - `workerThreadSessions`: what runs inside a sandbox worker — exactly one thread, the
 *    binding its lease names. Any other thread id is a scope violation; deleteThread (a clear,
 *    i.e. a new epoch) is the binding owner's act, not a worker's, so it is forbidden.
 *  - `ownerThreadSessions`: the owner's side (control plane, tests, LangGraph's validation
 *    suite): one binding per thread id, opened on first write; each thread is worked through a
 *    lease the directory acquires; deleteThread clears the binding (new epoch) and takes a new
 *    lease, so old checkpoints can never be the thread's state again.
 */
import { randomBytes } from 'node:crypto';
import type { Bindings, WorkerSession } from '../../../../contract/bindings.js';
import { ContractError } from '../../../../contract/errors.js';
import type { Principal } from '../../../../contract/principals.js';
import type { StateScope, ThreadStateStore } from '../../../../contract/state.js';
import { LANGGRAPH_CODEC } from './checkpoint-log.js';

export interface ThreadHandle {
  readonly store: ThreadStateStore;
  readonly scope: StateScope;
  /** The run every commit through this handle is made for. */
  readonly runId: string;
}

export interface ThreadSessions {
  /** The handle for a thread; null when the thread has no binding and `create` is false. */
  open(threadId: string, create: boolean): Promise<ThreadHandle | null>;
  /** The threads reachable here, for `list` without a thread id (bounded). */
  threads(): readonly string[];
  /** deleteThread: start a new epoch for the thread. */
  clear(threadId: string): Promise<void>;
}

/** Bindings + the store facade: what a Target or the reference state service exposes. */
export interface StateAccess {
  readonly bindings: Bindings;
  threadState(session: WorkerSession): ThreadStateStore;
}

const MAX_THREADS = 10_000;

export function newRunId(): string {
  return `lg-${randomBytes(12).toString('hex')}`;
}

export function workerThreadSessions(
  threadId: string,
  session: WorkerSession,
  store: ThreadStateStore,
  runId: string,
): ThreadSessions {
  const handle: ThreadHandle = { store, scope: session.scope, runId };
  return {
    async open(id) {
      if (id !== threadId) throw new ContractError('scope_violation', 'the thread is not the lease binding');
      return handle;
    },
    threads: () => [threadId],
    async clear() {
      throw new ContractError('forbidden', 'only the binding owner clears a thread');
    },
  };
}

export function ownerThreadSessions(
  access: StateAccess,
  owner: Principal,
  spec: { readonly environment: string; readonly harness: string },
  runId: string = newRunId(),
): ThreadSessions {
  const bindingOf = new Map<string, string>();
  const handles = new Map<string, ThreadHandle>();
  const lease = async (threadId: string, bindingId: string): Promise<ThreadHandle> => {
    const session = await access.bindings.acquireLease(owner, bindingId);
    const h = { store: access.threadState(session), scope: session.scope, runId };
    handles.set(threadId, h);
    return h;
  };
  return {
    async open(threadId, create) {
      const h = handles.get(threadId);
      if (h) return h;
      const known = bindingOf.get(threadId);
      if (known) return lease(threadId, known);
      if (!create) return null;
      if (bindingOf.size >= MAX_THREADS) throw new ContractError('entry_limit', 'too many threads in one directory');
      const info = await access.bindings.open(owner, { ...spec, codec: LANGGRAPH_CODEC });
      bindingOf.set(threadId, info.bindingId);
      return lease(threadId, info.bindingId);
    },
    threads: () => [...bindingOf.keys()],
    async clear(threadId) {
      const bindingId = bindingOf.get(threadId);
      if (!bindingId) return; // like MongoDBSaver: deleting an unknown thread deletes nothing
      await access.bindings.clear(owner, bindingId);
      await lease(threadId, bindingId);
    },
  };
}
