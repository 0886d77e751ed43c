/**
 * The production backend: thread state on a MongoDB-wire server (mongod replica set with
 * majority writes; tested against FerretDB). No multi-document transactions are used, so the
 * atomic unit is one document:
 *
 *  - each binding is a compare-and-set register (mongodb-version-chain.ts) whose value holds
 *    epoch, lease generation, entry count, the current epoch's head with its run metadata and
 *    pending interrupt, and an outbox of run changes — so head + revision + run metadata +
 *    interrupt change in one insert (contract step 5), and `transact` is read → decide → CAS,
 *    retried when another writer was first;
 *  - pending states are immutable documents keyed by stateId; a claim document keyed by
 *    (binding, epoch, idempotency key) decides which write of a key wins, so concurrent
 *    duplicates converge on one ref (the loser removes its own unclaimed document);
 *  - run changes leave the outbox only after they were written to `state_runs` as immutable
 *    per-run sequences, so a run's latest record is always in the outbox or in the archive.
 *
 * Pending states and claims are written before anything refers to them, and every document is
 * only ever inserted (or, for register versions, emptied long after being superseded), so a
 * crash between two writes leaves at worst an unreferenced document or one unused entry of the
 * entry budget, never a half-applied commit.
 */
import type { Collection, Db } from 'mongodb';
import { BoundedCache } from './bounded-cache.js';
import { lastOfSequence } from './mongodb-contiguous-search.js';
import {
  type ArchivedRunDoc,
  type BindingValue,
  bindingRow,
  COLLECTIONS,
  docId,
  headDoc,
  headRow,
  type OwnerValue,
  type PendingDoc,
  type PendingKeyDoc,
  pendingDoc,
  pendingRow,
  type RunEntryDoc,
  registerKey,
  runEntry,
  runRow,
  type SessionDoc,
  sessionRow,
} from './mongodb-documents.js';
import { isDuplicateKey, storeCall } from './mongodb-failure.js';
import { detectServerProfile, type MongoServerProfile } from './mongodb-server-profile.js';
import { VersionChain, type Versioned } from './mongodb-version-chain.js';
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

/** Run changes held in a binding register before they are archived (bounds the register's size). */
const OUTBOX = 8;
/** Facts remembered in-process: owners (for the synchronous `ownerOf`), sessions, key claims. */
const MAX_CACHED = 100_000;
/** How long a write the entry bound refused waits for a duplicate in flight to claim the key. */
const RACE_WAIT_MS = 2_000;

export class MongoStateBackend implements StateBackend {
  private readonly bindings: VersionChain<BindingValue>;
  private readonly ownerCounts: VersionChain<OwnerValue>;
  private readonly pending: Collection<PendingDoc>;
  private readonly keys: Collection<PendingKeyDoc>;
  private readonly sessions: Collection<SessionDoc>;
  private readonly runs: Collection<ArchivedRunDoc>;
  private readonly owners = new BoundedCache<string, string>(MAX_CACHED);
  private readonly knownSessions = new BoundedCache<string, SessionRow>(MAX_CACHED);
  private readonly knownClaims = new BoundedCache<string, string>(MAX_CACHED);

  private constructor(
    db: Db,
    readonly profile: MongoServerProfile,
  ) {
    const opts = {
      writeConcern: profile.writeConcern,
      ...(profile.readConcern ? { readConcern: { level: profile.readConcern } } : {}),
    };
    this.bindings = new VersionChain<BindingValue>(db, opts, profile.headReadConcern);
    this.ownerCounts = new VersionChain<OwnerValue>(db, opts, profile.headReadConcern);
    this.pending = db.collection(COLLECTIONS.pending, opts);
    this.keys = db.collection(COLLECTIONS.pendingKeys, opts);
    this.sessions = db.collection(COLLECTIONS.sessions, opts);
    this.runs = db.collection(COLLECTIONS.runs, opts);
  }

  /** Open on a database (collections are created on first write; only `_id` indexes are used). */
  static async open(db: Db): Promise<MongoStateBackend> {
    return new MongoStateBackend(db, await storeCall(() => detectServerProfile(db)));
  }

  private remember(bindingId: string, owner: string): void {
    if (this.owners.get(bindingId) === undefined) this.owners.set(bindingId, owner);
  }

  private async readBinding(bindingId: string, strict = false): Promise<Versioned<BindingValue> | null> {
    const b = await this.bindings.read(registerKey.binding(bindingId), strict);
    if (b) this.remember(bindingId, b.value.owner);
    return b;
  }

  async createBinding(row: BindingRow, maxPerOwner: number): Promise<boolean> {
    return storeCall(async () => {
      // The per-owner bound is a register too, so racing opens cannot overshoot it.
      const admitted = await this.ownerCounts.update(registerKey.owner(row.owner), async (cur) => {
        const n = cur?.value.bindings ?? 0;
        return n >= maxPerOwner ? { result: false } : { result: true, next: { bindings: n + 1 } };
      });
      if (!admitted) return false;
      const value: BindingValue = {
        owner: row.owner,
        environment: row.environment,
        harness: row.harness,
        codec: row.codec,
        epoch: row.epoch,
        leaseGeneration: row.leaseGeneration,
        entries: row.entries,
        head: null,
        runs: [],
      };
      if (!(await this.bindings.create(registerKey.binding(row.bindingId), value))) {
        throw new Error('state store invariant broken: binding id already exists');
      }
      this.remember(row.bindingId, row.owner);
      return true;
    });
  }

  async getBinding(bindingId: string): Promise<BindingRow | null> {
    return storeCall(async () => {
      const b = await this.readBinding(bindingId);
      return b ? bindingRow(bindingId, b.value) : null;
    });
  }

  /** From the cache of bindings this process has seen; unknown here → null (callers refuse). */
  ownerOf(bindingId: string): string | null {
    return this.owners.get(bindingId) ?? null;
  }

  async startEpoch(bindingId: string): Promise<BindingRow | null> {
    return storeCall(() =>
      this.bindings.update(registerKey.binding(bindingId), async (cur) => {
        if (!cur) return { result: null };
        const next: BindingValue = { ...cur.value, epoch: cur.value.epoch + 1, entries: 0, head: null };
        return { result: bindingRow(bindingId, next), next };
      }),
    );
  }

  async grantLease(bindingId: string, credentialHash: string, keepSessions: number): Promise<BindingRow | null> {
    return storeCall(async () => {
      const granted = await this.bindings.update(registerKey.binding(bindingId), async (cur) => {
        if (!cur) return { result: null };
        const next: BindingValue = { ...cur.value, leaseGeneration: cur.value.leaseGeneration + 1 };
        return { result: bindingRow(bindingId, next), next };
      });
      if (!granted) return null;
      // The generation is ours alone (the register handed it out), so these inserts cannot collide.
      const session = { bindingId, epoch: granted.epoch, leaseGeneration: granted.leaseGeneration };
      await this.sessions.insertOne({ _id: docId.session(credentialHash), ...session });
      this.knownSessions.set(credentialHash, { credentialHash, ...session });
      await this.sessions.insertOne({
        _id: docId.leaseSession(bindingId, granted.leaseGeneration),
        ...session,
        credentialHash,
      });
      await this.forgetSession(bindingId, granted.leaseGeneration - keepSessions);
      return granted;
    });
  }

  /** Sessions older than the newest `keepSessions` no longer authenticate at all. */
  private async forgetSession(bindingId: string, generation: number): Promise<void> {
    if (generation < 1) return;
    const g = await this.sessions.findOne({ _id: docId.leaseSession(bindingId, generation) });
    if (!g?.credentialHash) return;
    this.knownSessions.delete(g.credentialHash);
    await this.sessions.deleteOne({ _id: docId.session(g.credentialHash) });
    await this.sessions.deleteOne({ _id: g._id });
  }

  /**
   * A session row never changes while it exists, so a known one is answered from memory. (One
   * forgotten by another process stays known here: it is then refused as a stale lease rather
   * than as unauthenticated — refused either way, since only superseded sessions are forgotten.)
   */
  async findSession(credentialHash: string): Promise<SessionRow | null> {
    const known = this.knownSessions.get(credentialHash);
    if (known) return known;
    return storeCall(async () => {
      const d = await this.sessions.findOne({ _id: docId.session(credentialHash) });
      if (!d) return null;
      const row = sessionRow(d, credentialHash);
      this.knownSessions.set(credentialHash, row);
      return row;
    });
  }

  async findPendingByKey(bindingId: string, epoch: number, idempotencyKey: string): Promise<PendingRow | null> {
    return storeCall(() => this.claimed(bindingId, epoch, idempotencyKey));
  }

  /** The state that won the key's claim; a claim is final, so a known one is not read again. */
  private async claimed(bindingId: string, epoch: number, key: string): Promise<PendingRow | null> {
    const id = docId.pendingKey(bindingId, epoch, key);
    let stateId = this.knownClaims.get(id);
    if (stateId === undefined) {
      const claim = await this.keys.findOne({ _id: id });
      if (!claim) return null;
      stateId = claim.stateId;
      this.knownClaims.set(id, stateId);
    }
    const d = await this.pending.findOne({ _id: stateId });
    if (!d) throw new Error('state store invariant broken: claimed key without its state');
    return pendingRow(d);
  }

  async putPending(row: PendingRow, leaseGeneration: number, maxEntries: number): Promise<PutPendingResult> {
    return storeCall(async () => {
      const key = registerKey.binding(row.bindingId);
      const stale = (v: BindingValue | undefined) =>
        !v || v.epoch !== row.epoch || v.leaseGeneration !== leaseGeneration;
      // Announce the write before reserving (with the reads, so it costs no round trip): a
      // duplicate the bound refuses while this one holds the last entry but has not claimed the
      // key yet waits for the claim instead of refusing.
      const intentId = docId.writeIntent(row.bindingId, row.epoch, row.idempotencyKey, row.stateId);
      let intentDropped = false;
      const dropIntent = async () => {
        if (intentDropped) return;
        intentDropped = true;
        // A left-over intent only delays a refusal of this key (bounded): never fail a write for it.
        await this.keys.deleteOne({ _id: intentId }).catch(() => undefined);
      };
      try {
        const [b, before] = await Promise.all([
          this.readBinding(row.bindingId),
          this.claimed(row.bindingId, row.epoch, row.idempotencyKey),
          this.keys.insertOne({ _id: intentId, stateId: row.stateId }),
        ]);
        if (stale(b?.value)) return { kind: 'stale_scope' };
        if (before) return { kind: 'existing', row: before };

        // Reserve one entry of the epoch's budget under the register's compare-and-set, while the
        // state is written; the state stays unreferenced until its claim below succeeds.
        const [reservation, stored] = await Promise.allSettled([
          this.bindings.update(key, async (cur) => {
            if (stale(cur?.value)) return { result: 'stale_scope' as const };
            if (cur!.value.entries >= maxEntries) return { result: 'entry_limit' as const };
            return { result: 'reserved' as const, next: { ...cur!.value, entries: cur!.value.entries + 1 } };
          }),
          this.pending.insertOne(pendingDoc(row)),
        ]);
        if (reservation.status === 'rejected' || reservation.value !== 'reserved' || stored.status === 'rejected') {
          if (stored.status === 'fulfilled') await this.pending.deleteOne({ _id: row.stateId });
          if (reservation.status === 'rejected') throw reservation.reason;
          if (stored.status === 'rejected') throw stored.reason; // the reserved entry stays used: conservative
          if (reservation.value === 'entry_limit') {
            // A duplicate may hold the last entry and be about to claim the key: it is answered with
            // that claim, not refused (a duplicate stores nothing, so the bound is not its answer).
            await dropIntent();
            const raced = await this.awaitRacingClaim(row);
            if (raced) return { kind: 'existing', row: raced };
          }
          return { kind: reservation.value as 'stale_scope' | 'entry_limit' };
        }

        // The claim makes this state the key's answer; a claim never points at a missing state.
        try {
          await this.keys.insertOne({
            _id: docId.pendingKey(row.bindingId, row.epoch, row.idempotencyKey),
            stateId: row.stateId,
          });
          this.knownClaims.set(docId.pendingKey(row.bindingId, row.epoch, row.idempotencyKey), row.stateId);
          // The claim answers for the key now. Dropping the intent is part of the call, not a
          // swallowed clean-up: if the link fails here the write landed and its answer is lost,
          // which a retry absorbs (an intent left beside a claim delays nothing: the claim is read first).
          intentDropped = true;
          await this.keys.deleteOne({ _id: intentId });
          return { kind: 'inserted', row };
        } catch (e) {
          if (!isDuplicateKey(e)) throw e;
        }
        // A concurrent duplicate claimed the key first: drop ours, give the entry back, answer with theirs.
        await this.pending.deleteOne({ _id: row.stateId });
        await this.releaseEntry(key, row.epoch);
        const winner = await this.claimed(row.bindingId, row.epoch, row.idempotencyKey);
        if (!winner) throw new Error('state store invariant broken: lost a claim nobody holds');
        return { kind: 'existing', row: winner };
      } finally {
        // Awaited: a call's traffic to the store ends when it answers (a later call on a cut or
        // closed link never carries this one's clean-up).
        await dropIntent();
      }
    });
  }

  /**
   * After the entry bound refused `row`: the key's claim, waited for while another write of the
   * key is still in flight (its intent stands), up to RACE_WAIT_MS — an intent a crashed writer
   * left behind delays a refusal, never turns it into an answer.
   */
  private async awaitRacingClaim(row: PendingRow): Promise<PendingRow | null> {
    const range = docId.writeIntentRange(row.bindingId, row.epoch, row.idempotencyKey);
    const deadline = Date.now() + RACE_WAIT_MS;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      const claim = await this.claimed(row.bindingId, row.epoch, row.idempotencyKey);
      if (claim) return claim;
      const inFlight = await this.keys.findOne({ _id: range });
      if (!inFlight || Date.now() >= deadline) return null;
      await new Promise((r) => setTimeout(r, pause));
    }
  }

  /** Give back an entry reserved for a write that turned out to be a duplicate. */
  private async releaseEntry(key: string, epoch: number): Promise<void> {
    await this.bindings.update(key, async (cur) => {
      if (!cur || cur.value.epoch !== epoch || cur.value.entries === 0) return { result: undefined };
      return { result: undefined, next: { ...cur.value, entries: cur.value.entries - 1 } };
    });
  }

  async loadHead(bindingId: string, epoch: number): Promise<{ head: HeadRow; state: PendingRow } | null> {
    return storeCall(async () => {
      const b = await this.readBinding(bindingId, true);
      const h = b?.value.head;
      if (!h || h.epoch !== epoch) return null;
      const p = await this.pending.findOne({ _id: h.stateId });
      if (!p) throw new Error('state store invariant broken: head without its state');
      return { head: headRow(bindingId, h), state: pendingRow(p) };
    });
  }

  async getRun(bindingId: string, runId: string): Promise<RunRow | null> {
    return storeCall(async () => {
      const b = await this.readBinding(bindingId);
      if (!b) return null;
      const latest = await this.latestRun(bindingId, b.value, runId);
      return latest ? runRow(bindingId, latest) : null;
    });
  }

  /** A run's latest change: the newest in the register's outbox, else the newest archived. */
  private async latestRun(bindingId: string, v: BindingValue, runId: string): Promise<RunEntryDoc | null> {
    const inOutbox = v.runs.filter((r) => r.runId === runId).at(-1);
    if (inOutbox) return inOutbox;
    const found = await lastOfSequence<ArchivedRunDoc>(null, (n) =>
      this.runs.findOne({ _id: docId.run(bindingId, runId, n) }),
    );
    return found?.doc ?? null;
  }

  async transact<R>(
    key: { bindingId: string; stateId: string | null; runId: string },
    decide: (snapshot: CommitSnapshot) => CommitPlan<R>,
  ): Promise<R> {
    return storeCall(() =>
      this.bindings.update(registerKey.binding(key.bindingId), async (cur) => {
        if (!cur) throw new Error('state store invariant broken: transaction on an unknown binding');
        const v = cur.value;
        const [p, run] = await Promise.all([
          key.stateId === null ? null : this.pending.findOne({ _id: key.stateId }),
          this.latestRun(key.bindingId, v, key.runId),
        ]);
        const plan = decide({
          binding: bindingRow(key.bindingId, v),
          head: v.head && v.head.epoch === v.epoch ? headRow(key.bindingId, v.head) : null,
          // Only pending state of the binding's current epoch is offered, as in the SQLite backend.
          pending: p && p.bindingId === key.bindingId && p.epoch === v.epoch ? pendingRow(p) : null,
          run: run ? runRow(key.bindingId, run) : null,
        });
        if (!plan.head && !plan.run) return { result: plan.result };
        let runs = v.runs;
        if (plan.run) {
          if (runs.length >= OUTBOX) {
            await this.archive(key.bindingId, runs);
            runs = [];
          }
          runs = [...runs, runEntry(plan.run, (run?.n ?? 0) + 1)];
        }
        const next: BindingValue = { ...v, head: plan.head ? headDoc(plan.head) : v.head, runs };
        return { result: plan.result, next };
      }),
    );
  }

  /** Write outbox entries to the archive (idempotent: ids are deterministic, content identical). */
  private async archive(bindingId: string, entries: readonly RunEntryDoc[]): Promise<void> {
    try {
      await this.runs.insertMany(
        entries.map((r) => ({ _id: docId.run(bindingId, r.runId, r.n), bindingId, ...r })),
        { ordered: false },
      );
    } catch (e) {
      // Another writer archived (some of) the same entries first: same ids, same content.
      if (!isDuplicateKey(e)) throw e;
    }
  }

  close(): void {
    // The MongoClient belongs to whoever opened the backend (the module target closes it).
  }
}
