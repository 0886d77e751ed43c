/**
 * The SQLite backend of the memory broker (tables prefixed `memory_`, on the target's shared
 * database). Records, revision history (hash and writer only — never a body), pending
 * approvals and the audit log. Callers compose these statements inside one `transaction` so
 * content, provenance, hash and audit commit together or not at all.
 */
import type { AuditEntry, EpisodicSource, MemoryScopeKind } from '../../contract/memory.js';
import type { Db } from '../platform/sqlite.js';
import type { Namespace } from './namespace.js';
import type { StoredRecord } from './stored-record.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS memory_records (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  org TEXT NOT NULL,
  scope TEXT NOT NULL,
  revision INTEGER NOT NULL,
  live INTEGER NOT NULL,
  created_revision INTEGER NOT NULL,
  kind TEXT,
  content TEXT,
  content_type TEXT,
  content_hash TEXT,
  expires_at INTEGER,
  writer TEXT NOT NULL,
  agent TEXT NOT NULL,
  source_revisions TEXT NOT NULL,
  sources TEXT NOT NULL,
  approval TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  findings TEXT NOT NULL,
  episodic_source TEXT,
  UNIQUE (namespace, key)
);
CREATE INDEX IF NOT EXISTS memory_records_expiry ON memory_records (namespace, expires_at) WHERE live = 1;
CREATE TABLE IF NOT EXISTS memory_revisions (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  revision INTEGER NOT NULL,
  operation TEXT NOT NULL,
  writer TEXT NOT NULL,
  content_hash TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (namespace, key, revision, operation)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS memory_approvals (
  approval_id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL,
  org TEXT NOT NULL,
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  writer TEXT NOT NULL,
  agent TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  candidate TEXT,
  expected_revision INTEGER,
  state TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_approvals_pending ON memory_approvals (org, state, created_at);
CREATE TABLE IF NOT EXISTS memory_audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  org TEXT NOT NULL,
  namespace TEXT,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  operation TEXT NOT NULL,
  scope TEXT,
  key TEXT NOT NULL,
  outcome TEXT NOT NULL,
  revision INTEGER,
  content_hash TEXT,
  reasons TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_audit_org ON memory_audit (org, seq);
`;

interface RecordRow {
  namespace: string;
  key: string;
  org: string;
  scope: string;
  revision: number;
  live: number;
  created_revision: number;
  kind: string | null;
  content: string | null;
  content_type: string | null;
  content_hash: string | null;
  expires_at: number | null;
  writer: string;
  agent: string;
  source_revisions: string;
  sources: string;
  approval: string;
  created_at: string;
  updated_at: string;
  findings: string;
  episodic_source: string | null;
}

function fromRow(r: RecordRow): StoredRecord {
  return {
    namespace: r.namespace,
    org: r.org,
    scope: r.scope as MemoryScopeKind,
    key: r.key,
    revision: r.revision,
    live: r.live === 1,
    createdRevision: r.created_revision,
    kind: r.kind as StoredRecord['kind'],
    content: r.content,
    contentType: r.content_type as StoredRecord['contentType'],
    contentHash: r.content_hash,
    expiresAt: r.expires_at,
    writer: r.writer,
    agent: r.agent,
    sourceRevisions: JSON.parse(r.source_revisions) as number[],
    sources: JSON.parse(r.sources) as StoredRecord['sources'],
    approval: JSON.parse(r.approval) as StoredRecord['approval'],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    findings: JSON.parse(r.findings) as string[],
    episodicSource: r.episodic_source === null ? null : (JSON.parse(r.episodic_source) as EpisodicSource),
  };
}

export interface PendingRow {
  readonly approvalId: string;
  readonly namespace: Namespace;
  readonly org: string;
  readonly scope: MemoryScopeKind;
  readonly key: string;
  readonly writer: string;
  readonly agent: string;
  readonly contentHash: string;
  /** JSON of the redacted, scanned write candidate; cleared once decided. */
  readonly candidate: string | null;
  readonly expectedRevision: number | null;
  readonly state: 'pending' | 'approved' | 'rejected';
  readonly createdAt: string;
}

export type StoredAuditEntry = AuditEntry & { readonly org: string; readonly namespace: Namespace | null };

export class MemoryStore {
  private readonly s;

  constructor(private readonly db: Db) {
    db.exec(SCHEMA);
    // A removed body must leave the file too: freed cells and pages are zeroed, not just unlinked.
    // Bodies live in a rowid table on purpose: a WITHOUT ROWID table is an index b-tree, whose
    // rebalancing leaves stray copies of whole rows (bodies included) that secure_delete never
    // zeroes (test/memory/tombstone-residue.test.ts).
    db.pragma('secure_delete = ON');
    this.s = {
      get: db.prepare<[string, string], RecordRow>('SELECT * FROM memory_records WHERE namespace = ? AND key = ?'),
      live: db.prepare<[string], RecordRow>(
        'SELECT * FROM memory_records WHERE namespace = ? AND live = 1 ORDER BY key',
      ),
      countLive: db.prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM memory_records WHERE namespace = ? AND live = 1',
      ),
      expiredNamespaces: db.prepare<[number], { namespace: string }>(
        'SELECT DISTINCT namespace FROM memory_records WHERE live = 1 AND expires_at IS NOT NULL AND expires_at <= ?',
      ),
      recordsHolding: db.prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM memory_records WHERE instr(content, ?) > 0',
      ),
      approvalsHolding: db.prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM memory_approvals WHERE instr(candidate, ?) > 0',
      ),
      auditHolding: db.prepare<[string, string], { n: number }>(
        'SELECT COUNT(*) AS n FROM memory_audit WHERE instr(reasons, ?) > 0 OR instr(key, ?) > 0',
      ),
      expired: db.prepare<[string, number], { key: string }>(
        'SELECT key FROM memory_records WHERE namespace = ? AND live = 1 AND expires_at IS NOT NULL AND expires_at <= ?',
      ),
      upsert: db.prepare(
        `INSERT INTO memory_records (namespace, key, org, scope, revision, live, created_revision, kind, content,
           content_type, content_hash, expires_at, writer, agent, source_revisions, sources, approval, created_at,
           updated_at, findings, episodic_source)
         VALUES (@namespace, @key, @org, @scope, @revision, @live, @created_revision, @kind, @content, @content_type,
           @content_hash, @expires_at, @writer, @agent, @source_revisions, @sources, @approval, @created_at,
           @updated_at, @findings, @episodic_source)
         ON CONFLICT (namespace, key) DO UPDATE SET org = excluded.org, scope = excluded.scope,
           revision = excluded.revision, live = excluded.live, created_revision = excluded.created_revision,
           kind = excluded.kind, content = excluded.content, content_type = excluded.content_type,
           content_hash = excluded.content_hash, expires_at = excluded.expires_at, writer = excluded.writer,
           agent = excluded.agent, source_revisions = excluded.source_revisions, sources = excluded.sources,
           approval = excluded.approval, created_at = excluded.created_at, updated_at = excluded.updated_at,
           findings = excluded.findings, episodic_source = excluded.episodic_source`,
      ),
      tombstone: db.prepare<[string, string, string, string]>(
        `UPDATE memory_records SET live = 0, kind = NULL, content = NULL, content_type = NULL, content_hash = NULL,
           expires_at = NULL, episodic_source = NULL, sources = '[]', source_revisions = '[]', findings = '[]',
           updated_at = ?, writer = ? WHERE namespace = ? AND key = ?`,
      ),
      history: db.prepare(
        `INSERT OR REPLACE INTO memory_revisions (namespace, key, revision, operation, writer, content_hash, at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      historyRange: db.prepare<
        [string, string, number, number, number],
        { revision: number; writer: string; content_hash: string }
      >(
        `SELECT revision, writer, content_hash FROM memory_revisions
         WHERE namespace = ? AND key = ? AND revision > ? AND revision <= ? AND content_hash IS NOT NULL
         ORDER BY revision DESC LIMIT ?`,
      ),
      insertPending: db.prepare(
        `INSERT INTO memory_approvals (approval_id, namespace, org, scope, key, writer, agent,
           content_hash, candidate, expected_revision, state, created_at)
         VALUES (@approvalId, @namespace, @org, @scope, @key, @writer, @agent, @contentHash,
           @candidate, @expectedRevision, @state, @createdAt)`,
      ),
      getPending: db.prepare<[string], Record<string, unknown>>('SELECT * FROM memory_approvals WHERE approval_id = ?'),
      listPending: db.prepare<[string, string, number], Record<string, unknown>>(
        `SELECT * FROM memory_approvals WHERE org = ? AND state = 'pending' AND writer <> ?
         ORDER BY created_at, approval_id LIMIT ?`,
      ),
      countPending: db.prepare<[string], { n: number }>(
        `SELECT COUNT(*) AS n FROM memory_approvals WHERE namespace = ? AND state = 'pending'`,
      ),
      decidePending: db.prepare<[string, string]>(
        `UPDATE memory_approvals SET state = ?, candidate = NULL WHERE approval_id = ? AND state = 'pending'`,
      ),
      audit: db.prepare(
        `INSERT INTO memory_audit (org, namespace, at, actor, operation, scope, key, outcome, revision, content_hash,
           reasons) VALUES (@org, @namespace, @at, @actor, @operation, @scope, @key, @outcome, @revision,
           @contentHash, @reasons)`,
      ),
      readAudit: db.prepare<[string, number], Record<string, unknown>>(
        'SELECT * FROM (SELECT * FROM memory_audit WHERE org = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
      ),
      readAuditKey: db.prepare<[string, string, number], Record<string, unknown>>(
        'SELECT * FROM (SELECT * FROM memory_audit WHERE org = ? AND key = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
      ),
    };
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  get(namespace: Namespace, key: string): StoredRecord | null {
    const r = this.s.get.get(namespace, key);
    return r ? fromRow(r) : null;
  }

  liveRecords(namespace: Namespace): StoredRecord[] {
    return this.s.live.all(namespace).map(fromRow);
  }

  countLive(namespace: Namespace): number {
    return this.s.countLive.get(namespace)?.n ?? 0;
  }

  /** Namespaces holding live records whose retention has run out. */
  namespacesWithExpired(nowMs: number): Namespace[] {
    return this.s.expiredNamespaces.all(nowMs).map((r) => r.namespace as Namespace);
  }

  /** The memory tables that still hold `needle` in a text column (storage inspection). */
  tablesHolding(needle: string): string[] {
    const out: string[] = [];
    if ((this.s.recordsHolding.get(needle)?.n ?? 0) > 0) out.push('sqlite:memory_records');
    if ((this.s.approvalsHolding.get(needle)?.n ?? 0) > 0) out.push('sqlite:memory_approvals');
    if ((this.s.auditHolding.get(needle, needle)?.n ?? 0) > 0) out.push('sqlite:memory_audit');
    return out;
  }

  /**
   * Fold the write-ahead log into the database file and truncate it, so a removed body leaves
   * the log too (the log otherwise keeps every page image until its next reuse).
   */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** The database file (its `-wal` sibling is the log). */
  get file(): string {
    return this.db.name;
  }

  expiredKeys(namespace: Namespace, nowMs: number): string[] {
    return this.s.expired.all(namespace, nowMs).map((r) => r.key);
  }

  put(r: StoredRecord): void {
    this.s.upsert.run({
      namespace: r.namespace,
      key: r.key,
      org: r.org,
      scope: r.scope,
      revision: r.revision,
      live: r.live ? 1 : 0,
      created_revision: r.createdRevision,
      kind: r.kind,
      content: r.content,
      content_type: r.contentType,
      content_hash: r.contentHash,
      expires_at: r.expiresAt,
      writer: r.writer,
      agent: r.agent,
      source_revisions: JSON.stringify(r.sourceRevisions),
      sources: JSON.stringify(r.sources),
      approval: JSON.stringify(r.approval),
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      findings: JSON.stringify(r.findings),
      episodic_source: r.episodicSource === null ? null : JSON.stringify(r.episodicSource),
    });
  }

  /** Removes the body (and everything derived from it) but keeps the key's revision. */
  tombstone(namespace: Namespace, key: string, actor: string, at: string): void {
    this.s.tombstone.run(at, actor, namespace, key);
  }

  addHistory(
    namespace: Namespace,
    key: string,
    revision: number,
    operation: 'write' | 'delete' | 'expire',
    writer: string,
    contentHash: string | null,
    at: string,
  ): void {
    this.s.history.run(namespace, key, revision, operation, writer, contentHash, at);
  }

  /** Written revisions in (after, upTo], newest first, at most `limit`. */
  historyBetween(
    namespace: Namespace,
    key: string,
    after: number,
    upTo: number,
    limit: number,
  ): Array<{ revision: number; writer: string; contentHash: string }> {
    return this.s.historyRange
      .all(namespace, key, after, upTo, limit)
      .map((r) => ({ revision: r.revision, writer: r.writer, contentHash: r.content_hash }));
  }

  insertPending(p: PendingRow): void {
    this.s.insertPending.run(p);
  }

  getPending(approvalId: string): PendingRow | null {
    const r = this.s.getPending.get(approvalId);
    return r ? pendingFromRow(r) : null;
  }

  listPending(org: string, excludeWriter: string, limit: number): PendingRow[] {
    return this.s.listPending.all(org, excludeWriter, limit).map(pendingFromRow);
  }

  countPending(namespace: Namespace): number {
    return this.s.countPending.get(namespace)?.n ?? 0;
  }

  /** Marks a pending approval decided and drops its content; false if it was not pending. */
  decidePending(approvalId: string, state: 'approved' | 'rejected'): boolean {
    return this.s.decidePending.run(state, approvalId).changes === 1;
  }

  appendAudit(e: StoredAuditEntry): void {
    this.s.audit.run({
      org: e.org,
      namespace: e.namespace,
      at: e.at,
      actor: e.actor,
      operation: e.operation,
      scope: e.scope,
      key: e.key,
      outcome: e.outcome,
      revision: e.revision,
      contentHash: e.contentHash,
      reasons: JSON.stringify(e.reasons),
    });
  }

  readAudit(org: string, key: string | undefined, limit: number): AuditEntry[] {
    const rows = key === undefined ? this.s.readAudit.all(org, limit) : this.s.readAuditKey.all(org, key, limit);
    return rows.map((r) => ({
      at: r.at as string,
      actor: r.actor as string,
      operation: r.operation as AuditEntry['operation'],
      scope: (r.scope as AuditEntry['scope']) ?? null,
      key: r.key as string,
      outcome: r.outcome as AuditEntry['outcome'],
      revision: (r.revision as number | null) ?? null,
      contentHash: (r.content_hash as string | null) ?? null,
      reasons: JSON.parse(r.reasons as string) as string[],
    }));
  }
}

function pendingFromRow(r: Record<string, unknown>): PendingRow {
  return {
    approvalId: r.approval_id as string,
    namespace: r.namespace as string,
    org: r.org as string,
    scope: r.scope as MemoryScopeKind,
    key: r.key as string,
    writer: r.writer as string,
    agent: r.agent as string,
    contentHash: r.content_hash as string,
    candidate: (r.candidate as string | null) ?? null,
    expectedRevision: (r.expected_revision as number | null) ?? null,
    state: r.state as PendingRow['state'],
    createdAt: r.created_at as string,
  };
}
