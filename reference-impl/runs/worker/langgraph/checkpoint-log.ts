/**
 * The `langgraph-checkpoint/v1` native payload: one LangGraph thread's checkpoints and pending
 * writes in one epoch, as LangGraph's own serde wrote them (type tag + bytes, kept verbatim).
 * The ThreadStateStore sees only these bytes; the adapter alone reads them. Decoding is strict
 * (a payload that is not exactly this shape, or names another thread or epoch, is refused with
 * a typed contract error and never partly used), and every field is bounded.
 *
 * Encoding is deterministic (fixed field order, arrays in write order), so the same operation
 * applied to the same head yields the same bytes — what makes a retried write idempotent.
 */
import { ContractError } from '../../../../contract/errors.js';

export const LANGGRAPH_CODEC = 'langgraph-checkpoint/v1';

/** A stored checkpoint: [ns, checkpoint id, parent id | null, serde type, checkpoint b64, metadata b64]. */
export type StoredCheckpoint = [string, string, string | null, string, string, string];
/** A stored write: [ns, checkpoint id, task id, idx, channel, serde type, value b64, task path]. */
export type StoredWrite = [string, string, string, number, string, string, string, string];

export interface CheckpointLog {
  readonly v: 1;
  readonly thread: string;
  readonly epoch: number;
  /** In first-put order; a re-put of the same (ns, id) replaces in place, like an upsert. */
  readonly checkpoints: StoredCheckpoint[];
  /** In first-write order (MongoDB's natural order for the writes collection). */
  readonly writes: StoredWrite[];
}

/** Bounds on identifiers inside the log (the payload as a whole is bounded by the store). */
export const LOG_BOUNDS = { maxIdChars: 256, maxEntries: 100_000 } as const;

export function emptyLog(thread: string, epoch: number): CheckpointLog {
  return { v: 1, thread, epoch, checkpoints: [], writes: [] };
}

export function encodeLog(log: CheckpointLog): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify({
      v: log.v,
      thread: log.thread,
      epoch: log.epoch,
      checkpoints: log.checkpoints,
      writes: log.writes,
    }),
  );
}

const corrupt = (): never => {
  throw new ContractError('invalid_argument', 'the native payload is not a langgraph-checkpoint/v1 log');
};

const isId = (x: unknown): x is string => typeof x === 'string' && x.length <= LOG_BOUNDS.maxIdChars;
const isB64 = (x: unknown): x is string => typeof x === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(x);

function checkCheckpoint(x: unknown): StoredCheckpoint {
  if (!Array.isArray(x) || x.length !== 6) return corrupt();
  const [ns, id, parent, type, cp, md] = x as unknown[];
  if (!isId(ns) || !isId(id) || id === '' || !(parent === null || isId(parent)) || !isId(type)) return corrupt();
  if (!isB64(cp) || !isB64(md)) return corrupt();
  return x as StoredCheckpoint;
}

function checkWrite(x: unknown): StoredWrite {
  if (!Array.isArray(x) || x.length !== 8) return corrupt();
  const [ns, id, task, idx, channel, type, value, path] = x as unknown[];
  if (!isId(ns) || !isId(id) || !isId(task) || !isId(channel) || !isId(type) || !isId(path)) return corrupt();
  if (!Number.isSafeInteger(idx) || !isB64(value)) return corrupt();
  return x as StoredWrite;
}

/**
 * The log a head holds, for exactly this thread and epoch. A log written for another thread
 * (bytes copied between bindings) is a scope violation; one from another epoch (old-epoch
 * bytes replayed after a clear) is an epoch mismatch.
 */
export function decodeLog(bytes: Uint8Array, thread: string, epoch: number): CheckpointLog {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return corrupt();
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return corrupt();
  const r = raw as Record<string, unknown>;
  if (r.v !== 1 || !isId(r.thread) || !Number.isSafeInteger(r.epoch)) return corrupt();
  if (!Array.isArray(r.checkpoints) || !Array.isArray(r.writes)) return corrupt();
  if (r.checkpoints.length + r.writes.length > LOG_BOUNDS.maxEntries) return corrupt();
  if (r.thread !== thread) throw new ContractError('scope_violation', 'the native payload belongs to another thread');
  if (r.epoch !== epoch) throw new ContractError('epoch_mismatch', 'the native payload belongs to another epoch');
  return {
    v: 1,
    thread,
    epoch,
    checkpoints: r.checkpoints.map(checkCheckpoint),
    writes: r.writes.map(checkWrite),
  };
}

/**
 * What a durable head needs of a log: per namespace, the newest checkpoint (greatest id, the
 * one LangGraph resumes from, as the saver's `getTuple` picks it) and its pending writes;
 * older checkpoints and their writes are history nothing reads when a thread resumes. LangGraph
 * stores every channel's whole value in every checkpoint, so a log that kept them all would grow
 * with the square of a run's steps and without bound over a thread's runs — past the store's
 * payload bound, after which every commit fails. Deterministic: same log, same result.
 */
export function compactLog(log: CheckpointLog): CheckpointLog {
  const newest = new Map<string, string>();
  for (const c of log.checkpoints) {
    const best = newest.get(c[0]);
    if (best === undefined || c[1] > best) newest.set(c[0], c[1]);
  }
  const kept = (ns: string, id: string) => newest.get(ns) === id;
  return {
    v: 1,
    thread: log.thread,
    epoch: log.epoch,
    checkpoints: log.checkpoints.filter((c) => kept(c[0], c[1])),
    writes: log.writes.filter((w) => kept(w[0], w[1])),
  };
}

export const toB64 = (b: Uint8Array): string => Buffer.from(b).toString('base64');
export const fromB64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));
