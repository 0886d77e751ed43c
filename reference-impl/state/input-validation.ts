/**
 * Argument validation for every public thread-state operation. Runs before anything is read
 * or written, so a rejected call changes nothing; errors carry fixed details only, never the
 * offending value.
 */
import type { BindingSpec } from '../../contract/bindings.js';
import { ContractError } from '../../contract/errors.js';
import {
  type CommitOptions,
  type OpaqueStatePayload,
  type PendingInterrupt,
  type PendingStateRef,
  type Reconciliation,
  STATE_SCOPE_FIELDS,
  type StateScope,
  UNCERTAIN_REASONS,
  type UncertainReason,
} from '../../contract/state.js';
import { isWellFormedText } from '../platform/well-formed-text.js';
import { isRegisteredCodec } from './codec-registry.js';
import { FIXED_BOUNDS } from './state-limits.js';

const NAME = /^[A-Za-z0-9._:/-]+$/;
const HEX64 = /^[0-9a-f]{64}$/;

function bad(detail: string): never {
  throw new ContractError('invalid_argument', detail);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Only own, known keys: a scope or ref carrying extra claims is refused, not ignored. */
function onlyKeys(x: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const k of Object.keys(x)) if (!allowed.includes(k)) bad(`${what} has an unknown field`);
}

function name(x: unknown, what: string, max: number = FIXED_BOUNDS.maxNameLength): string {
  if (typeof x !== 'string' || x.length === 0 || x.length > max || !NAME.test(x)) bad(`${what} is not a valid name`);
  return x;
}

function int(x: unknown, min: number, what: string): number {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < min) bad(`${what} is not a valid integer`);
  return x;
}

export function validateScope(x: unknown): StateScope {
  if (!isRecord(x)) bad('scope must be an object');
  onlyKeys(x, STATE_SCOPE_FIELDS, 'scope');
  return {
    bindingId: name(x.bindingId, 'scope.bindingId', FIXED_BOUNDS.maxIdLength),
    environment: name(x.environment, 'scope.environment'),
    harness: name(x.harness, 'scope.harness'),
    epoch: int(x.epoch, 1, 'scope.epoch'),
    codec: name(x.codec, 'scope.codec'),
    leaseGeneration: int(x.leaseGeneration, 0, 'scope.leaseGeneration'),
  };
}

/** A codec named by a caller: the wrong type is invalid input; a well-typed unknown one is `unknown_codec`. */
export function validateCodec(x: unknown): string {
  if (typeof x !== 'string' || x.length === 0 || x.length > FIXED_BOUNDS.maxNameLength) bad('codec must be a string');
  if (!isRegisteredCodec(x)) throw new ContractError('unknown_codec');
  return x;
}

export function validatePayload(x: unknown): OpaqueStatePayload {
  if (!isRecord(x)) bad('payload must be an object');
  onlyKeys(x, ['codec', 'bytes'], 'payload');
  if (!(x.bytes instanceof Uint8Array)) bad('payload.bytes must be a Uint8Array');
  const codec = validateCodec(x.codec);
  return { codec, bytes: x.bytes };
}

export function validateIdempotencyKey(x: unknown): string {
  if (typeof x !== 'string' || x.length === 0 || x.length > FIXED_BOUNDS.maxKeyLength) {
    bad('idempotency key must be a non-empty bounded string');
  }
  if (/\p{Cc}/u.test(x)) bad('idempotency key contains control characters');
  // A lone surrogate has no UTF-8 form: stored, each becomes U+FFFD and distinct keys collide.
  if (!isWellFormedText(x)) bad('idempotency key is not well-formed text');
  return x;
}

export function validateRunId(x: unknown): string {
  return name(x, 'run id', FIXED_BOUNDS.maxIdLength);
}

export function validateRevision(x: unknown): number {
  return int(x, 0, 'expected revision');
}

export function validatePendingRef(x: unknown): PendingStateRef {
  if (!isRecord(x)) bad('pending must be an object');
  onlyKeys(x, ['stateId', 'bindingId', 'epoch', 'codec', 'idempotencyKey', 'contentHash', 'size'], 'pending');
  if (typeof x.contentHash !== 'string' || !HEX64.test(x.contentHash)) bad('pending.contentHash is malformed');
  return {
    stateId: name(x.stateId, 'pending.stateId', FIXED_BOUNDS.maxIdLength),
    bindingId: name(x.bindingId, 'pending.bindingId', FIXED_BOUNDS.maxIdLength),
    epoch: int(x.epoch, 1, 'pending.epoch'),
    codec: name(x.codec, 'pending.codec'),
    idempotencyKey: validateIdempotencyKey(x.idempotencyKey),
    contentHash: x.contentHash,
    size: int(x.size, 0, 'pending.size'),
  };
}

export interface ValidCommitOptions {
  readonly runState: 'completed' | 'interrupted' | 'failed';
  readonly interrupt: PendingInterrupt | null;
}

export function validateCommitOptions(x: unknown): ValidCommitOptions {
  if (x === undefined) return { runState: 'completed', interrupt: null };
  if (!isRecord(x)) bad('options must be an object');
  onlyKeys(x, ['runState', 'interrupt'], 'options');
  const o = x as CommitOptions;
  let interrupt: PendingInterrupt | null = null;
  if (o.interrupt !== undefined && o.interrupt !== null) {
    const i: unknown = o.interrupt;
    if (!isRecord(i)) bad('interrupt must be an object');
    onlyKeys(i, ['interruptId', 'value'], 'interrupt');
    if (typeof i.value !== 'string') bad('interrupt value must be a string');
    if (!isWellFormedText(i.value)) bad('interrupt value is not well-formed text');
    if (Buffer.byteLength(i.value) > FIXED_BOUNDS.maxInterruptValueBytes) {
      throw new ContractError('payload_too_large', 'interrupt value');
    }
    interrupt = { interruptId: name(i.interruptId, 'interrupt id', FIXED_BOUNDS.maxIdLength), value: i.value };
  }
  const runState = o.runState ?? (interrupt ? 'interrupted' : 'completed');
  if (runState !== 'completed' && runState !== 'interrupted' && runState !== 'failed') bad('unknown run state');
  if ((runState === 'interrupted') !== (interrupt !== null)) bad('an interrupted run needs exactly one interrupt');
  return { runState, interrupt };
}

export function validateUncertainReason(x: unknown): UncertainReason {
  if (typeof x !== 'string' || !(UNCERTAIN_REASONS as readonly string[]).includes(x)) {
    bad('reason must be one of the registered uncertain reasons');
  }
  return x as UncertainReason;
}

export function validateReconciliation(x: unknown): Reconciliation {
  if (!isRecord(x)) bad('resolution must be an object');
  if (x.action === 'keep_previous') {
    onlyKeys(x, ['action'], 'resolution');
    return { action: 'keep_previous' };
  }
  if (x.action === 'commit_pending') {
    onlyKeys(x, ['action', 'pending', 'expectedDurableRevision'], 'resolution');
    return {
      action: 'commit_pending',
      pending: validatePendingRef(x.pending),
      expectedDurableRevision: validateRevision(x.expectedDurableRevision),
    };
  }
  return bad('unknown reconciliation action');
}

export function validateBindingSpec(x: unknown): BindingSpec {
  if (!isRecord(x)) bad('binding spec must be an object');
  onlyKeys(x, ['environment', 'harness', 'codec'], 'binding spec');
  return {
    environment: name(x.environment, 'environment'),
    harness: name(x.harness, 'harness'),
    codec: validateCodec(x.codec),
  };
}

export function validateBindingId(x: unknown): string {
  return name(x, 'binding id', FIXED_BOUNDS.maxIdLength);
}
