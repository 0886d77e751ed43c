/**
 * Pipeline step 2: validate key, kind, content type, size, retention and the episodic source.
 * Proposal fields that are wrong come back as rejection reasons (all of them, not just the
 * first); a proposal that is not even an object is an argument error.
 */
import { ContractError } from '../../contract/errors.js';
import {
  type EpisodicSource,
  MEMORY_CONTENT_TYPES,
  MEMORY_KINDS,
  type MemoryContentType,
  type MemoryKind,
  type MemoryRejectionReason,
} from '../../contract/memory.js';
import { isWellFormedText } from '../platform/well-formed-text.js';
import { jsonStrings } from './json-strings.js';
import { MEMORY_BOUNDS, MEMORY_POLICY } from './memory-policy.js';

export interface ValidProposal {
  readonly key: string;
  readonly kind: MemoryKind;
  readonly content: string;
  readonly contentType: MemoryContentType;
  readonly retentionSeconds: number | undefined;
  readonly source: EpisodicSource | undefined;
  readonly onConflict: 'reject' | 'consolidate';
}

export type Validation =
  | { readonly ok: true; readonly proposal: ValidProposal }
  | { readonly ok: false; readonly reasons: readonly MemoryRejectionReason[] };

// C0 except tab/newline/carriage return, DEL, C1.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const KEY_CHARS = /^[A-Za-z0-9._\-/]+$/;
const BINDING_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Why a key is unusable, or null. Also used by get and delete. */
export function keyProblem(key: unknown): MemoryRejectionReason | null {
  if (typeof key !== 'string' || key.length === 0 || key.length > MEMORY_POLICY.maxKeyLength) return 'invalid_key';
  if (!isWellFormedText(key) || CONTROL.test(key)) return 'invalid_key';
  // Keys are relative to the caller's namespace: anything that looks like leaving it is refused
  // as such, so the audit log shows the attempt for what it is.
  if (key.startsWith('/') || key.includes('\\') || /%2[ef]|%5c/i.test(key)) return 'cross_scope';
  const segments = key.split('/');
  if (segments.some((s) => s === '.' || s === '..')) return 'cross_scope';
  if (!KEY_CHARS.test(key) || segments.some((s) => s.length === 0)) return 'invalid_key';
  if (key.toLowerCase().startsWith(MEMORY_POLICY.protectedKeyPrefix)) return 'protected_skill';
  return null;
}

export function validExpectedRevision(x: unknown, allowNull: true): number | null;
export function validExpectedRevision(x: unknown, allowNull: false): number;
export function validExpectedRevision(x: unknown, allowNull: boolean): number | null {
  if (x === null && allowNull) return null;
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 1) {
    throw new ContractError('invalid_argument', 'expected revision');
  }
  return x;
}

function jsonDepth(value: unknown): number {
  // Iterative so hostile nesting can't exhaust the stack.
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > max) max = d;
    if (max > MEMORY_BOUNDS.maxJsonDepth) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

function contentProblem(content: unknown, contentType: unknown): MemoryRejectionReason | null {
  if (typeof content !== 'string' || content.length === 0) return 'invalid_content';
  // Byte length without allocating a huge buffer for an enormous string.
  if (content.length > MEMORY_POLICY.maxContentBytes) return 'content_too_large';
  if (Buffer.byteLength(content, 'utf8') > MEMORY_POLICY.maxContentBytes) return 'content_too_large';
  if (!isWellFormedText(content) || CONTROL.test(content)) return 'invalid_content';
  if (contentType === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      return 'invalid_content';
    }
    if (jsonDepth(parsed) > MEMORY_BOUNDS.maxJsonDepth) return 'invalid_content';
    // A repeated member name is dropped by the parser (the last copy wins) but not by the raw text
    // that is stored: what the scan saw would not be what is kept. I-JSON (RFC 7493 §2.3) forbids it.
    if (repeatsMemberName(content, parsed)) return 'invalid_content';
    // Escapes decode to what the raw text can't hold (NUL, lone surrogates): check decoded strings.
    if (jsonStrings(parsed).some((s) => !isWellFormedText(s) || CONTROL.test(s))) return 'invalid_content';
  }
  return null;
}

function sourceProblem(source: unknown): MemoryRejectionReason | null {
  if (typeof source !== 'object' || source === null) return 'unreadable_source';
  const s = source as Record<string, unknown>;
  if (typeof s.bindingId !== 'string' || !BINDING_ID.test(s.bindingId)) return 'unreadable_source';
  for (const n of [s.epoch, s.revision]) {
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return 'unreadable_source';
  }
  return null;
}

export function validateProposal(proposal: unknown): Validation {
  if (typeof proposal !== 'object' || proposal === null || Array.isArray(proposal)) {
    throw new ContractError('invalid_argument', 'proposal');
  }
  const p = proposal as Record<string, unknown>;
  if (p.onConflict !== undefined && p.onConflict !== 'reject' && p.onConflict !== 'consolidate') {
    throw new ContractError('invalid_argument', 'onConflict');
  }
  const reasons = new Set<MemoryRejectionReason>();
  const kp = keyProblem(p.key);
  if (kp) reasons.add(kp);
  const kindOk = typeof p.kind === 'string' && (MEMORY_KINDS as readonly string[]).includes(p.kind);
  if (!kindOk) reasons.add('invalid_kind');
  const typeOk =
    typeof p.contentType === 'string' && (MEMORY_CONTENT_TYPES as readonly string[]).includes(p.contentType);
  if (!typeOk) reasons.add('invalid_content_type');
  const cp = contentProblem(p.content, p.contentType);
  if (cp) reasons.add(cp);
  if (p.retentionSeconds !== undefined) {
    const r = p.retentionSeconds;
    if (
      typeof r !== 'number' ||
      !Number.isSafeInteger(r) ||
      r < MEMORY_BOUNDS.minRetentionSeconds ||
      r > MEMORY_BOUNDS.maxRetentionSeconds
    ) {
      reasons.add('invalid_retention');
    }
  }
  if (p.kind === 'episodic_reference') {
    const sp = sourceProblem(p.source);
    if (sp) reasons.add(sp);
  } else if (p.source !== undefined) {
    // Only an episodic reference points at thread state.
    reasons.add('invalid_kind');
  }
  if (reasons.size > 0) return { ok: false, reasons: [...reasons] };
  return {
    ok: true,
    proposal: {
      key: p.key as string,
      kind: p.kind as MemoryKind,
      content: p.content as string,
      contentType: p.contentType as MemoryContentType,
      retentionSeconds: p.retentionSeconds as number | undefined,
      source: p.kind === 'episodic_reference' ? (p.source as EpisodicSource) : undefined,
      onConflict: (p.onConflict as 'reject' | 'consolidate' | undefined) ?? 'reject',
    },
  };
}

/**
 * In valid JSON every string literal is a member name or a string value, so the raw text holds
 * exactly as many literals as the parsed value holds names and strings — unless a repeated member
 * name was dropped (with its value) by the parse.
 */
function repeatsMemberName(raw: string, parsed: unknown): boolean {
  const literals = raw.match(/"(?:[^"\\]|\\.)*"/g)?.length ?? 0;
  return literals !== jsonStrings(parsed).length;
}
