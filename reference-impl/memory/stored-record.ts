/**
 * A memory record as the SQLite backend holds it. A key keeps its row after delete or expiry
 * (a tombstone: no content, no hash, `live = false`) so revisions keep growing and a stale
 * expected revision can never resurrect old state.
 */
import type {
  EpisodicSource,
  MemoryApproval,
  MemoryContentType,
  MemoryKind,
  MemoryRecord,
  MemoryScopeKind,
  MemorySourceRef,
} from '../../contract/memory.js';
import type { Namespace } from './namespace.js';

export interface StoredRecord {
  readonly namespace: Namespace;
  /** Organization whose admins read this record's audit trail. */
  readonly org: string;
  readonly scope: MemoryScopeKind;
  readonly key: string;
  readonly revision: number;
  readonly live: boolean;
  /** First revision of the current life of the key (after the last delete/expiry). */
  readonly createdRevision: number;
  readonly kind: MemoryKind | null;
  readonly content: string | null;
  readonly contentType: MemoryContentType | null;
  readonly contentHash: string | null;
  /** Epoch ms, or null for no expiry. */
  readonly expiresAt: number | null;
  readonly writer: string;
  readonly agent: string;
  readonly sourceRevisions: readonly number[];
  readonly sources: readonly MemorySourceRef[];
  readonly approval: MemoryApproval;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly findings: readonly string[];
  readonly episodicSource: EpisodicSource | null;
}

export type LiveRecord = StoredRecord & {
  readonly live: true;
  readonly kind: MemoryKind;
  readonly content: string;
  readonly contentType: MemoryContentType;
  readonly contentHash: string;
};

export function isLive(r: StoredRecord | null, nowMs: number): r is LiveRecord {
  return r?.live === true && (r.expiresAt === null || r.expiresAt > nowMs);
}

/** Search scores are rounded so equal rankings compare equal whatever the index's history. */
export function roundScore(score: number): number {
  return Number(score.toPrecision(12));
}

export function toMemoryRecord(r: LiveRecord, score?: number): MemoryRecord {
  return {
    scope: r.scope,
    key: r.key,
    kind: r.kind,
    content: r.content,
    contentType: r.contentType,
    revision: r.revision,
    expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt).toISOString(),
    provenance: {
      writer: r.writer,
      agent: r.agent,
      sourceRevisions: [...r.sourceRevisions],
      sources: r.sources.map((s) => ({ ...s })),
      contentHash: r.contentHash,
      approval: { ...r.approval },
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      findings: [...r.findings],
    },
    ...(score === undefined ? {} : { score: roundScore(score) }),
  };
}
