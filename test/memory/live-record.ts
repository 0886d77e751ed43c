/** A live memory record as the reference's store holds it, for unit tests of the store and index. */
import { contentHash } from '../../reference-impl/memory/content-hash.js';
import type { LiveRecord } from '../../reference-impl/memory/stored-record.js';

export function liveRecord(ns: string, key: string, content: string, extra: Partial<LiveRecord> = {}): LiveRecord {
  return {
    namespace: ns,
    org: 'o',
    scope: 'user',
    key,
    revision: 1,
    live: true,
    createdRevision: 1,
    kind: 'semantic',
    content,
    contentType: 'text/plain',
    contentHash: contentHash(content),
    expiresAt: null,
    writer: 'w',
    agent: 'a',
    sourceRevisions: [],
    sources: [],
    approval: { state: 'not_required', approver: null, decidedAt: null },
    createdAt: '',
    updatedAt: '',
    findings: [],
    episodicSource: null,
    ...extra,
  };
}
