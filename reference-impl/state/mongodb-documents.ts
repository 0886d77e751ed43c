/**
 * The MongoDB backend's documents and their `_id`s. Every read and write of the backend names
 * one document by `_id`: that is the only lookup FerretDB v1 pushes down to its storage (any
 * other filter scans the whole collection), and on mongod it is the always-present unique index.
 *
 * Strings a caller chose freely (idempotency keys, interrupt values) are stored as UTF-16LE
 * binaries: BSON strings are UTF-8 and would silently replace a lone surrogate, so the key or
 * value read back would differ from the one written.
 */
import { createHash } from 'node:crypto';
import { Binary } from 'mongodb';
import type { RunState } from '../../contract/state.js';
import type { BindingRow, HeadRow, PendingRow, RunRow, SessionRow } from './state-backend.js';

export const COLLECTIONS = {
  /** Immutable versions of every compare-and-set register (see mongodb-version-chain.ts). */
  versions: 'state_register_versions',
  pending: 'state_pending',
  /** Idempotency-key claims: the first insert for (binding, epoch, key) wins. */
  pendingKeys: 'state_pending_keys',
  sessions: 'state_sessions',
  /** Run records moved out of a binding register's outbox (immutable, one per change). */
  runs: 'state_runs',
} as const;

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf16le').digest('hex');

/** Register keys. Binding ids are validated names (no `#`), so they are used as they are. */
export const registerKey = {
  binding: (bindingId: string): string => `b:${bindingId}`,
  owner: (owner: string): string => `o:${sha256(owner)}`,
};

/** Every intent of one write key shares this `_id` prefix (`#` then the state id follow it). */
const intentPrefix = (bindingId: string, epoch: number, key: string): string =>
  `i:${sha256(`${bindingId}\n${epoch}\n${key}`)}`;

export const docId = {
  pendingKey: (bindingId: string, epoch: number, key: string): string =>
    `k:${sha256(`${bindingId}\n${epoch}\n${key}`)}`,
  /**
   * A write of the key in flight (`i:<key hash>#<state id>`): a range of `_id`s per key, so a
   * writer refused by the entry bound can see a duplicate that holds a reservation but has not
   * claimed the key yet, with only the `_id` index.
   */
  writeIntent: (bindingId: string, epoch: number, key: string, stateId: string): string =>
    `${intentPrefix(bindingId, epoch, key)}#${stateId}`,
  writeIntentRange: (bindingId: string, epoch: number, key: string): { $gt: string; $lt: string } => {
    const prefix = intentPrefix(bindingId, epoch, key);
    return { $gt: `${prefix}#`, $lt: `${prefix}$` };
  },
  session: (credentialHash: string): string => `c:${credentialHash}`,
  leaseSession: (bindingId: string, generation: number): string => `g:${bindingId}#${generation}`,
  run: (bindingId: string, runId: string, n: number): string => `r:${sha256(`${bindingId}\n${runId}`)}#${n}`,
};

export function stringToBinary(s: string): Binary {
  return new Binary(Buffer.from(s, 'utf16le'));
}

export function binaryToString(b: Binary): string {
  return Buffer.from(b.buffer.buffer, b.buffer.byteOffset, b.position).toString('utf16le');
}

function binaryBytes(b: Binary): Uint8Array {
  return Uint8Array.from(b.buffer.subarray(0, b.position)); // a copy the caller owns
}

/** A head as held inside its binding's register. */
export interface HeadDoc {
  epoch: number;
  revision: number;
  stateId: string;
  runId: string;
  runState: HeadRow['runState'];
  interruptId: string | null;
  interruptValue: Binary | null;
  committedAt: string;
}

/** One change of a run: in a register's outbox, then in `state_runs` (n counts per run, from 1). */
export interface RunEntryDoc {
  runId: string;
  n: number;
  epoch: number;
  state: RunState;
  reason: string | null;
  retainedRevision: number | null;
  updatedAt: string;
}

export interface ArchivedRunDoc extends RunEntryDoc {
  _id: string;
  bindingId: string;
}

/**
 * Everything about one binding that must change together, in one register value: epoch, lease
 * generation, entry count, the current epoch's head with its run metadata and interrupt, and
 * the outbox of run changes not yet archived. Replacing it is the commit's compare-and-set.
 */
export interface BindingValue {
  owner: string;
  environment: string;
  harness: string;
  codec: string;
  epoch: number;
  leaseGeneration: number;
  entries: number;
  head: HeadDoc | null;
  runs: RunEntryDoc[];
}

export interface OwnerValue {
  bindings: number;
}

export interface PendingDoc {
  _id: string;
  bindingId: string;
  epoch: number;
  codec: string;
  key: Binary;
  contentHash: string;
  size: number;
  bytes: Binary;
  createdAt: string;
}

export interface PendingKeyDoc {
  _id: string;
  stateId: string;
}

export interface SessionDoc {
  _id: string;
  bindingId: string;
  epoch: number;
  leaseGeneration: number;
  /** On `g:` documents: the credential hash of that generation's session (for pruning). */
  credentialHash?: string;
}

export function bindingRow(bindingId: string, v: BindingValue): BindingRow {
  return {
    bindingId,
    owner: v.owner,
    environment: v.environment,
    harness: v.harness,
    codec: v.codec,
    epoch: v.epoch,
    leaseGeneration: v.leaseGeneration,
    entries: v.entries,
  };
}

export function headRow(bindingId: string, h: HeadDoc): HeadRow {
  return {
    bindingId,
    epoch: h.epoch,
    revision: h.revision,
    stateId: h.stateId,
    runId: h.runId,
    runState: h.runState,
    interruptId: h.interruptId,
    interruptValue: h.interruptValue === null ? null : binaryToString(h.interruptValue),
    committedAt: h.committedAt,
  };
}

export function headDoc(h: HeadRow): HeadDoc {
  return {
    epoch: h.epoch,
    revision: h.revision,
    stateId: h.stateId,
    runId: h.runId,
    runState: h.runState,
    interruptId: h.interruptId,
    interruptValue: h.interruptValue === null ? null : stringToBinary(h.interruptValue),
    committedAt: h.committedAt,
  };
}

export function pendingDoc(p: PendingRow): PendingDoc {
  return {
    _id: p.stateId,
    bindingId: p.bindingId,
    epoch: p.epoch,
    codec: p.codec,
    key: stringToBinary(p.idempotencyKey),
    contentHash: p.contentHash,
    size: p.size,
    bytes: new Binary(Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength)),
    createdAt: p.createdAt,
  };
}

export function pendingRow(d: PendingDoc): PendingRow {
  return {
    stateId: d._id,
    bindingId: d.bindingId,
    epoch: d.epoch,
    codec: d.codec,
    idempotencyKey: binaryToString(d.key),
    contentHash: d.contentHash,
    size: d.size,
    bytes: binaryBytes(d.bytes),
    createdAt: d.createdAt,
  };
}

export function runRow(bindingId: string, r: RunEntryDoc): RunRow {
  return {
    bindingId,
    runId: r.runId,
    epoch: r.epoch,
    state: r.state,
    reason: r.reason,
    retainedRevision: r.retainedRevision,
    updatedAt: r.updatedAt,
  };
}

export function runEntry(r: RunRow, n: number): RunEntryDoc {
  return {
    runId: r.runId,
    n,
    epoch: r.epoch,
    state: r.state,
    reason: r.reason,
    retainedRevision: r.retainedRevision,
    updatedAt: r.updatedAt,
  };
}

export function sessionRow(d: SessionDoc, credentialHash: string): SessionRow {
  return { credentialHash, bindingId: d.bindingId, epoch: d.epoch, leaseGeneration: d.leaseGeneration };
}
