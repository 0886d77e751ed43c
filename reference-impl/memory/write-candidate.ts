import type { EpisodicSource, MemoryContentType, MemoryKind, MemoryScopeKind } from '../../contract/memory.js';
import type { Namespace } from './namespace.js';

/**
 * A proposal that passed steps 1–4: authorized, valid, scanned, redacted. This (never the raw
 * proposal) is what waits for approval and what steps 6–7 persist.
 */
export interface WriteCandidate {
  readonly namespace: Namespace;
  readonly scope: MemoryScopeKind;
  /** Organization of the writer: whose admins audit it, whose approvers decide on it. */
  readonly org: string;
  readonly writer: string;
  readonly agent: string;
  readonly key: string;
  readonly kind: MemoryKind;
  /** Post-redaction content. */
  readonly content: string;
  readonly contentType: MemoryContentType;
  readonly contentHash: string;
  readonly retentionSeconds: number | null;
  readonly source: EpisodicSource | null;
  readonly onConflict: 'reject' | 'consolidate';
  readonly findings: readonly string[];
}
