/**
 * A compare-and-set register over a MongoDB-wire server without transactions and without
 * atomic conditional updates.
 *
 * Why not `findOneAndUpdate({ _id, revision: expected })`: FerretDB v1 executes an update as
 * "query, modify in Go, write back by _id" in separate steps, so two concurrent conditional
 * updates of one document both match and both "win" (measured: ~99% of 200 racing pairs).
 * The one write it does make atomic — as mongod does — is inserting a document whose `_id` is
 * already taken. So a register is a chain of immutable versions `key#1`, `key#2`, …: reading
 * finds the last one, and swapping from version v inserts `key#(v+1)`; exactly one concurrent
 * writer's insert succeeds, the others get a duplicate-key error and retry on a fresh read.
 *
 * The last version this process saw is cached per key (bounded), as a starting point only:
 * a read still confirms it by the miss just above it, and a write is checked by its insert,
 * so another process's writes cost extra lookups, never a wrong answer. Versions older than
 * KEEP are emptied to tombstones in batches: storage per register stays small while the
 * sequence stays contiguous, which the search depends on.
 */
import type { Collection, CollectionOptions, Db, ReadConcernLevel } from 'mongodb';
import { ContractError } from '../../contract/errors.js';
import { BoundedCache } from './bounded-cache.js';
import { lastOfSequence } from './mongodb-contiguous-search.js';
import { COLLECTIONS } from './mongodb-documents.js';
import { isDuplicateKey } from './mongodb-failure.js';

interface VersionDoc<T> {
  _id: string;
  v: number;
  value?: T;
  /** A tombstone: the version existed; its value was dropped once it was long superseded. */
  tomb?: true;
}

export interface Versioned<T> {
  readonly v: number;
  readonly value: T;
}

/** What one attempt of `update` decided: write `next` (compare-and-set), or nothing. */
export interface UpdateStep<T, R> {
  readonly result: R;
  readonly next?: T;
}

/** Versions kept with their value behind the latest; older ones become tombstones. */
const KEEP = 64;
const COMPACT_EVERY = 64;
const COMPACT_CONCURRENCY = 8;
/** Attempts of an update under contention before reporting `unavailable` (retryable). */
const MAX_ATTEMPTS = 200;
/** Registers whose last seen version is remembered. */
const MAX_CACHED = 10_000;

export class VersionChain<T extends object> {
  private readonly versions: Collection<VersionDoc<T>>;
  private readonly seen = new BoundedCache<string, Versioned<T>>(MAX_CACHED);

  /** Registers of every kind share one collection; keys carry a kind prefix so they never meet. */
  constructor(
    db: Db,
    options: CollectionOptions,
    /** Read concern for reads that must see every acknowledged write (head reads). */
    private readonly strictRead: ReadConcernLevel | null,
  ) {
    this.versions = db.collection<VersionDoc<T>>(COLLECTIONS.versions, options);
  }

  private id(key: string, v: number): string {
    return `${key}#${v}`;
  }

  /** The latest version, or null if the register was never created. */
  async read(key: string, strict = false): Promise<Versioned<T> | null> {
    const opts = strict && this.strictRead ? { readConcern: { level: this.strictRead } } : {};
    const known = this.seen.get(key);
    const found = await lastOfSequence<VersionDoc<T>>(
      known ? { n: known.v, doc: { _id: this.id(key, known.v), v: known.v, value: known.value } } : null,
      (n) => this.versions.findOne({ _id: this.id(key, n) }, opts),
      (d) => d.value !== undefined,
    );
    if (!found) return null;
    const latest = { v: found.n, value: found.doc.value! };
    this.remember(key, latest);
    return latest;
  }

  /** Create version 1; false if the register already exists. */
  async create(key: string, value: T): Promise<boolean> {
    return this.append(key, 1, value);
  }

  /**
   * Decide on the register's value and compare-and-set the decision, retried until it was
   * decided on the latest version: a write is checked by its insert, a decision that writes
   * nothing by the miss just above the version it read. `decide` may read other (immutable)
   * documents and may throw to abort with nothing written.
   */
  async update<R>(key: string, decide: (current: Versioned<T> | null) => Promise<UpdateStep<T, R>>): Promise<R> {
    let current = this.seen.get(key) ?? (await this.read(key));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const v = (current?.v ?? 0) + 1;
      let step: UpdateStep<T, R>;
      try {
        step = await decide(current);
      } catch (e) {
        // A refusal counts only if it was decided on the latest version.
        if (await this.isLatest(key, v)) throw e;
        current = await this.read(key);
        continue;
      }
      if (step.next === undefined) {
        if (await this.isLatest(key, v)) return step.result;
      } else if (await this.append(key, v, step.next)) {
        return step.result;
      } else {
        // Lost a race to another writer: back off a little (jittered) so racing writers spread out.
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(20, 2 ** Math.min(attempt, 5))));
      }
      current = await this.read(key);
    }
    throw new ContractError('unavailable', 'the state store is contended');
  }

  /**
   * Whether version `next` does not exist yet, i.e. `next − 1` is the latest. (No projection:
   * FerretDB v1 stops pushing the `_id` lookup down when one is given, and scans the collection.)
   */
  private async isLatest(key: string, next: number): Promise<boolean> {
    return (await this.versions.findOne({ _id: this.id(key, next) })) === null;
  }

  private async append(key: string, v: number, value: T): Promise<boolean> {
    try {
      await this.versions.insertOne({ _id: this.id(key, v), v, value });
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
    this.remember(key, { v, value });
    if (v % COMPACT_EVERY === 0 && v > KEEP) await this.compact(key, v - KEEP);
    return true;
  }

  private remember(key: string, latest: Versioned<T>): void {
    const had = this.seen.get(key);
    if (!had || had.v < latest.v) this.seen.set(key, latest);
  }

  /**
   * Empty versions (upTo − COMPACT_EVERY, upTo] to tombstones, one command each, a few at a
   * time. (Not one multi-statement bulk write: FerretDB v1 holds a backend connection per
   * statement until the whole command ends, so a batch larger than its pool deadlocks.)
   */
  private async compact(key: string, upTo: number): Promise<void> {
    const from = Math.max(1, upTo - COMPACT_EVERY + 1);
    for (let v = from; v <= upTo; v += COMPACT_CONCURRENCY) {
      const writes = [];
      for (let w = v; w < Math.min(upTo + 1, v + COMPACT_CONCURRENCY); w++) {
        writes.push(this.versions.replaceOne({ _id: this.id(key, w) }, { v: w, tomb: true }));
      }
      await Promise.all(writes);
    }
  }
}
