/**
 * The embedded default backend: thread state in the target's shared SQLite file (WAL,
 * synchronous=FULL, see platform/sqlite.ts), tables prefixed `state_`. Each operation is one
 * better-sqlite3 transaction, so a returned commit survives `kill -9`, and nothing can
 * interleave inside it.
 */
import type { Db } from '../platform/sqlite.js';
import type {
  BindingRow,
  CommitPlan,
  CommitSnapshot,
  HeadRow,
  PendingRow,
  PutPendingResult,
  RunRow,
  SessionRow,
  StateBackend,
} from './state-backend.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS state_bindings (
  binding_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  environment TEXT NOT NULL,
  harness TEXT NOT NULL,
  codec TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  lease_generation INTEGER NOT NULL,
  entries INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS state_bindings_owner ON state_bindings(owner);
CREATE TABLE IF NOT EXISTS state_sessions (
  credential_hash TEXT PRIMARY KEY,
  binding_id TEXT NOT NULL REFERENCES state_bindings(binding_id),
  epoch INTEGER NOT NULL,
  lease_generation INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS state_sessions_binding ON state_sessions(binding_id, lease_generation);
CREATE TABLE IF NOT EXISTS state_pending (
  state_id TEXT PRIMARY KEY,
  binding_id TEXT NOT NULL REFERENCES state_bindings(binding_id),
  epoch INTEGER NOT NULL,
  codec TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (binding_id, epoch, idempotency_key)
);
CREATE TABLE IF NOT EXISTS state_heads (
  binding_id TEXT NOT NULL REFERENCES state_bindings(binding_id),
  epoch INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  state_id TEXT NOT NULL REFERENCES state_pending(state_id),
  run_id TEXT NOT NULL,
  run_state TEXT NOT NULL,
  interrupt_id TEXT,
  interrupt_value TEXT,
  committed_at TEXT NOT NULL,
  PRIMARY KEY (binding_id, epoch)
);
CREATE TABLE IF NOT EXISTS state_runs (
  binding_id TEXT NOT NULL REFERENCES state_bindings(binding_id),
  run_id TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  state TEXT NOT NULL,
  reason TEXT,
  retained_revision INTEGER,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (binding_id, run_id)
);
`;

interface BindingSql {
  binding_id: string;
  owner: string;
  environment: string;
  harness: string;
  codec: string;
  epoch: number;
  lease_generation: number;
  entries: number;
}
interface PendingSql {
  state_id: string;
  binding_id: string;
  epoch: number;
  codec: string;
  idempotency_key: string;
  content_hash: string;
  size: number;
  bytes: Buffer;
  created_at: string;
}
interface HeadSql {
  binding_id: string;
  epoch: number;
  revision: number;
  state_id: string;
  run_id: string;
  run_state: HeadRow['runState'];
  interrupt_id: string | null;
  interrupt_value: string | null;
  committed_at: string;
}
interface RunSql {
  binding_id: string;
  run_id: string;
  epoch: number;
  state: RunRow['state'];
  reason: string | null;
  retained_revision: number | null;
  updated_at: string;
}

const binding = (r: BindingSql): BindingRow => ({
  bindingId: r.binding_id,
  owner: r.owner,
  environment: r.environment,
  harness: r.harness,
  codec: r.codec,
  epoch: r.epoch,
  leaseGeneration: r.lease_generation,
  entries: r.entries,
});
const pending = (r: PendingSql): PendingRow => ({
  stateId: r.state_id,
  bindingId: r.binding_id,
  epoch: r.epoch,
  codec: r.codec,
  idempotencyKey: r.idempotency_key,
  contentHash: r.content_hash,
  size: r.size,
  bytes: new Uint8Array(r.bytes),
  createdAt: r.created_at,
});
const head = (r: HeadSql): HeadRow => ({
  bindingId: r.binding_id,
  epoch: r.epoch,
  revision: r.revision,
  stateId: r.state_id,
  runId: r.run_id,
  runState: r.run_state,
  interruptId: r.interrupt_id,
  interruptValue: r.interrupt_value,
  committedAt: r.committed_at,
});
const run = (r: RunSql): RunRow => ({
  bindingId: r.binding_id,
  runId: r.run_id,
  epoch: r.epoch,
  state: r.state,
  reason: r.reason,
  retainedRevision: r.retained_revision,
  updatedAt: r.updated_at,
});

export class SqliteStateBackend implements StateBackend {
  private readonly q;

  constructor(private readonly db: Db) {
    db.exec(SCHEMA);
    this.q = {
      countOwned: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM state_bindings WHERE owner = ?'),
      insertBinding: db.prepare(
        `INSERT INTO state_bindings (binding_id, owner, environment, harness, codec, epoch, lease_generation, entries)
         VALUES (@bindingId, @owner, @environment, @harness, @codec, @epoch, @leaseGeneration, @entries)`,
      ),
      getBinding: db.prepare<[string], BindingSql>('SELECT * FROM state_bindings WHERE binding_id = ?'),
      startEpoch: db.prepare<[string], BindingSql>(
        'UPDATE state_bindings SET epoch = epoch + 1, entries = 0 WHERE binding_id = ? RETURNING *',
      ),
      bumpLease: db.prepare<[string], BindingSql>(
        'UPDATE state_bindings SET lease_generation = lease_generation + 1 WHERE binding_id = ? RETURNING *',
      ),
      insertSession: db.prepare(
        `INSERT INTO state_sessions (credential_hash, binding_id, epoch, lease_generation)
         VALUES (@credentialHash, @bindingId, @epoch, @leaseGeneration)`,
      ),
      pruneSessions: db.prepare<[string, number]>(
        'DELETE FROM state_sessions WHERE binding_id = ? AND lease_generation <= ?',
      ),
      findSession: db.prepare<[string], SessionRow>(
        `SELECT credential_hash AS credentialHash, binding_id AS bindingId, epoch,
                lease_generation AS leaseGeneration
         FROM state_sessions WHERE credential_hash = ?`,
      ),
      pendingByKey: db.prepare<[string, number, string], PendingSql>(
        'SELECT * FROM state_pending WHERE binding_id = ? AND epoch = ? AND idempotency_key = ?',
      ),
      pendingById: db.prepare<[string, string, number], PendingSql>(
        'SELECT * FROM state_pending WHERE state_id = ? AND binding_id = ? AND epoch = ?',
      ),
      insertPending: db.prepare(
        `INSERT INTO state_pending
           (state_id, binding_id, epoch, codec, idempotency_key, content_hash, size, bytes, created_at)
         VALUES (@stateId, @bindingId, @epoch, @codec, @idempotencyKey, @contentHash, @size, @bytes, @createdAt)`,
      ),
      countEntry: db.prepare<[string]>('UPDATE state_bindings SET entries = entries + 1 WHERE binding_id = ?'),
      getHead: db.prepare<[string, number], HeadSql>('SELECT * FROM state_heads WHERE binding_id = ? AND epoch = ?'),
      upsertHead: db.prepare(
        `INSERT INTO state_heads
           (binding_id, epoch, revision, state_id, run_id, run_state, interrupt_id, interrupt_value, committed_at)
         VALUES (@bindingId, @epoch, @revision, @stateId, @runId, @runState, @interruptId, @interruptValue, @committedAt)
         ON CONFLICT (binding_id, epoch) DO UPDATE SET
           revision = excluded.revision, state_id = excluded.state_id, run_id = excluded.run_id,
           run_state = excluded.run_state, interrupt_id = excluded.interrupt_id,
           interrupt_value = excluded.interrupt_value, committed_at = excluded.committed_at`,
      ),
      getRun: db.prepare<[string, string], RunSql>('SELECT * FROM state_runs WHERE binding_id = ? AND run_id = ?'),
      upsertRun: db.prepare(
        `INSERT INTO state_runs (binding_id, run_id, epoch, state, reason, retained_revision, updated_at)
         VALUES (@bindingId, @runId, @epoch, @state, @reason, @retainedRevision, @updatedAt)
         ON CONFLICT (binding_id, run_id) DO UPDATE SET
           epoch = excluded.epoch, state = excluded.state, reason = excluded.reason,
           retained_revision = excluded.retained_revision, updated_at = excluded.updated_at`,
      ),
    };
  }

  async createBinding(row: BindingRow, maxPerOwner: number): Promise<boolean> {
    return this.db
      .transaction(() => {
        if (this.q.countOwned.get(row.owner)!.n >= maxPerOwner) return false;
        this.q.insertBinding.run(row);
        return true;
      })
      .immediate();
  }

  async getBinding(bindingId: string): Promise<BindingRow | null> {
    const r = this.q.getBinding.get(bindingId);
    return r ? binding(r) : null;
  }

  ownerOf(bindingId: string): string | null {
    return this.q.getBinding.get(bindingId)?.owner ?? null;
  }

  async startEpoch(bindingId: string): Promise<BindingRow | null> {
    const r = this.q.startEpoch.get(bindingId);
    return r ? binding(r) : null;
  }

  async grantLease(bindingId: string, credentialHash: string, keepSessions: number): Promise<BindingRow | null> {
    return this.db
      .transaction(() => {
        const r = this.q.bumpLease.get(bindingId);
        if (!r) return null;
        this.q.insertSession.run({
          credentialHash,
          bindingId,
          epoch: r.epoch,
          leaseGeneration: r.lease_generation,
        });
        this.q.pruneSessions.run(bindingId, r.lease_generation - keepSessions);
        return binding(r);
      })
      .immediate();
  }

  async findSession(credentialHash: string): Promise<SessionRow | null> {
    return this.q.findSession.get(credentialHash) ?? null;
  }

  async findPendingByKey(bindingId: string, epoch: number, idempotencyKey: string): Promise<PendingRow | null> {
    const r = this.q.pendingByKey.get(bindingId, epoch, idempotencyKey);
    return r ? pending(r) : null;
  }

  async putPending(row: PendingRow, leaseGeneration: number, maxEntries: number): Promise<PutPendingResult> {
    return this.db
      .transaction((): PutPendingResult => {
        const b = this.q.getBinding.get(row.bindingId);
        if (!b || b.epoch !== row.epoch || b.lease_generation !== leaseGeneration) return { kind: 'stale_scope' };
        const existing = this.q.pendingByKey.get(row.bindingId, row.epoch, row.idempotencyKey);
        if (existing) return { kind: 'existing', row: pending(existing) };
        if (b.entries >= maxEntries) return { kind: 'entry_limit' };
        this.q.insertPending.run({ ...row, bytes: Buffer.from(row.bytes) });
        this.q.countEntry.run(row.bindingId);
        return { kind: 'inserted', row };
      })
      .immediate();
  }

  async loadHead(bindingId: string, epoch: number): Promise<{ head: HeadRow; state: PendingRow } | null> {
    return this.db
      .transaction(() => {
        const h = this.q.getHead.get(bindingId, epoch);
        if (!h) return null;
        const p = this.q.pendingById.get(h.state_id, bindingId, epoch);
        if (!p) throw new Error('state store invariant broken: head without its state');
        return { head: head(h), state: pending(p) };
      })
      .deferred();
  }

  async getRun(bindingId: string, runId: string): Promise<RunRow | null> {
    const r = this.q.getRun.get(bindingId, runId);
    return r ? run(r) : null;
  }

  async transact<R>(
    key: { bindingId: string; stateId: string | null; runId: string },
    decide: (snapshot: CommitSnapshot) => CommitPlan<R>,
  ): Promise<R> {
    return this.db
      .transaction((): R => {
        const b = this.q.getBinding.get(key.bindingId);
        if (!b) throw new Error('state store invariant broken: transaction on an unknown binding');
        const h = this.q.getHead.get(b.binding_id, b.epoch);
        const p = key.stateId === null ? undefined : this.q.pendingById.get(key.stateId, b.binding_id, b.epoch);
        const r = this.q.getRun.get(b.binding_id, key.runId);
        const plan = decide({
          binding: binding(b),
          head: h ? head(h) : null,
          pending: p ? pending(p) : null,
          run: r ? run(r) : null,
        });
        if (plan.head) this.q.upsertHead.run(plan.head);
        if (plan.run) this.q.upsertRun.run(plan.run);
        return plan.result;
      })
      .immediate();
  }

  close(): void {
    // The db belongs to the ReferenceContext and is closed by the target.
  }
}
