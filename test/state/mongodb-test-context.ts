/**
 * Reference thread-state services over the MongoDB backend on a real MongoDB-wire server, for
 * unit tests. Each `client()` is a separate MongoClient (own connections, own backend with its
 * own in-process caches) on the same database, sharing one authenticator and clock — like two
 * control-plane instances in front of one store.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Db, MongoClient } from 'mongodb';
import type { TargetOptions } from '../../contract/target.js';
import { Authenticator } from '../../reference-impl/identity/authenticator.js';
import { AdjustableClock } from '../../reference-impl/platform/clock.js';
import { openSqlite } from '../../reference-impl/platform/sqlite.js';
import type { ReferenceContext } from '../../reference-impl/reference-context.js';
import { MongoStateBackend } from '../../reference-impl/state/mongodb-state-backend.js';
import { createStateService, type StateService } from '../../reference-impl/state/state-service.js';

export interface MongoStateClient {
  readonly mongo: MongoClient;
  readonly db: Db;
  readonly backend: MongoStateBackend;
  readonly service: StateService;
}

export interface MongoStateTestContext {
  readonly database: string;
  readonly ctx: ReferenceContext;
  /** A new client (connection pool, backend and service) on the shared database. */
  client(): Promise<MongoStateClient>;
  dispose(): Promise<void>;
}

export async function mongoStateTestContext(url: string, options: TargetOptions = {}): Promise<MongoStateTestContext> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-mongo-state-test-'));
  // The context's SQLite file is unused by the state service when a backend is given; the
  // ReferenceContext type requires one.
  const sqlite = openSqlite(path.join(dir, 'unused.sqlite'));
  const ctx: ReferenceContext = {
    db: sqlite,
    clock: new AdjustableClock(),
    auth: new Authenticator(),
    env: { tempDir: dir, options },
    options,
  };
  const database = `smtc_test_${randomBytes(6).toString('hex')}`;
  const clients: MongoClient[] = [];
  return {
    database,
    ctx,
    async client() {
      const mongo = new MongoClient(url, { serverSelectionTimeoutMS: 5_000, socketTimeoutMS: 30_000 });
      clients.push(mongo);
      await mongo.connect();
      const db = mongo.db(database);
      const backend = await MongoStateBackend.open(db);
      return { mongo, db, backend, service: createStateService(ctx, backend) };
    },
    async dispose() {
      const [first] = clients;
      await first
        ?.db(database)
        .dropDatabase()
        .catch(() => undefined);
      await Promise.allSettled(clients.map((c) => c.close()));
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
