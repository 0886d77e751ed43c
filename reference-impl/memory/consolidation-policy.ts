/**
 * Pipeline step 6b: the declared consolidation policy `append-text/v1`, run when a proposal
 * with `onConflict: 'consolidate'` meets a newer live revision. Plain text only: the live
 * content, a newline, then the proposal (unless the live content already holds it verbatim).
 * It records every input: each stored revision after the proposal's base (writer and hash,
 * from the revision history) and the proposal itself (`revision: null`).
 */
import type { MemorySourceRef } from '../../contract/memory.js';
import { contentHash } from './content-hash.js';
import { MEMORY_BOUNDS, MEMORY_POLICY } from './memory-policy.js';
import type { LiveRecord } from './stored-record.js';

export interface ConsolidationInput {
  readonly current: LiveRecord;
  readonly proposalContent: string;
  readonly proposalContentType: string;
  readonly proposalKind: string;
  readonly writer: string;
  /** The revision the proposal was based on (null: it expected no record). */
  readonly baseRevision: number | null;
  /** Written revisions in (base, current], newest first, from the history table. */
  readonly history: (
    after: number,
    upTo: number,
    limit: number,
  ) => Array<{ revision: number; writer: string; contentHash: string }>;
}

export type Consolidation =
  | {
      readonly ok: true;
      readonly content: string;
      readonly sources: readonly MemorySourceRef[];
      readonly sourceRevisions: readonly number[];
    }
  | { readonly ok: false; readonly why: 'declined' | 'too_large' };

export function consolidate(input: ConsolidationInput): Consolidation {
  const { current } = input;
  if (current.contentType !== 'text/plain' || input.proposalContentType !== 'text/plain') {
    return { ok: false, why: 'declined' };
  }
  if (current.kind !== input.proposalKind) return { ok: false, why: 'declined' };
  const content = current.content.split('\n').includes(input.proposalContent)
    ? current.content
    : `${current.content}\n${input.proposalContent}`;
  if (Buffer.byteLength(content, 'utf8') > MEMORY_POLICY.maxContentBytes) return { ok: false, why: 'too_large' };
  const after = Math.max(input.baseRevision ?? 0, current.createdRevision - 1);
  const stored = input
    .history(after, current.revision, MEMORY_BOUNDS.maxConsolidationSources)
    .sort((a, b) => a.revision - b.revision);
  // The live revision is always an input, even if its history row predates this life of the key.
  if (!stored.some((s) => s.revision === current.revision)) {
    stored.push({ revision: current.revision, writer: current.writer, contentHash: current.contentHash });
  }
  const sources: MemorySourceRef[] = [
    ...stored.map((s) => ({ revision: s.revision, writer: s.writer, contentHash: s.contentHash })),
    { revision: null, writer: input.writer, contentHash: contentHash(input.proposalContent) },
  ];
  return { ok: true, content, sources, sourceRevisions: stored.map((s) => s.revision) };
}
