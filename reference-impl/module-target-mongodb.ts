/**
 * The bundled reference with thread state on MongoDB (the production backend), as a module
 * target. Memory, runs and telemetry stay on the embedded SQLite file; only the
 * ThreadStateStore, bindings, epochs and leases move. Each `create` uses a fresh database on
 * the server named by SMTC_MONGODB_URL, dropped again in `destroy`.
 *
 *   SMTC_MONGODB_URL=mongodb://127.0.0.1:27017/?directConnection=true \
 *     npx smtc certify --target reference-impl/module-target-mongodb.ts --only R02,R03,R04
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { Target, TargetModule } from '../contract/target.js';
import { createReferenceTarget, type ReferenceTarget } from './reference-target.js';
import { MongoStateBackend } from './state/mongodb-state-backend.js';

export const MONGODB_URL_VARIABLE = 'SMTC_MONGODB_URL';

interface Opened {
  readonly client: MongoClient;
  readonly database: string;
}
const opened = new WeakMap<Target, Opened>();

const mongodbModule: TargetModule = {
  name: 'smtc-reference (state on MongoDB)',
  async create(env) {
    const url = process.env[MONGODB_URL_VARIABLE]?.trim();
    if (!url) {
      throw new Error(
        `${MONGODB_URL_VARIABLE} is not set: the "state on MongoDB" reference target needs the URL of a ` +
          'MongoDB-wire server (e.g. mongodb://127.0.0.1:27017/?directConnection=true — `docker compose up mongo`, ' +
          'or FerretDB: npx smtc doctor --all --provision)',
      );
    }
    // Bounded waits: an unreachable server fails the operation (as `unavailable`) instead of hanging.
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: 10_000,
      connectTimeoutMS: 10_000,
      socketTimeoutMS: 60_000,
      maxPoolSize: 16,
    });
    const database = `smtc_state_${randomBytes(6).toString('hex')}`;
    try {
      await client.connect();
      const backend = await MongoStateBackend.open(client.db(database));
      const target = await createReferenceTarget(env, {
        stateBackend: backend,
        name: `smtc-reference (state on MongoDB: ${backend.profile.summary}; memory and runs on SQLite)`,
      });
      opened.set(target, { client, database });
      return target;
    } catch (e) {
      await client.close().catch(() => undefined);
      throw e;
    }
  },
  async destroy(t) {
    const o = opened.get(t);
    try {
      await (t as ReferenceTarget).close();
    } finally {
      if (o) {
        await o.client
          .db(o.database)
          .dropDatabase()
          .catch(() => undefined); // the server may be gone (fault tests); the database is throwaway
        await o.client.close();
      }
    }
  },
};
export default mongodbModule;
