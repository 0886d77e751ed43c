/**
 * What the MongoDB benchmarks share: a MongoDB-wire server (fixtures/services/ferretdb.ts),
 * a client on it, and the reference module target on its MongoDB backend and on SQLite, with
 * rate and entry bounds lifted — started, handed to the benchmark, and torn down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { Target, TargetModule } from '../contract/target.js';
import { acquireMongoServer } from '../fixtures/services/ferretdb.js';
import { DEFAULT_TARGET, loadTargetModule, REPO_ROOT } from '../fixtures/targets/load-target.js';

const NO_BOUNDS = { stateLimits: { maxWritesPerSecond: 1_000_000_000, maxPendingEntries: 1_000_000 } };

export interface MongoBench {
  /** How the server was found or started. */
  readonly how: string;
  readonly client: MongoClient;
  /** A temp dir removed afterwards. */
  readonly dir: string;
  readonly mongo: Target;
  readonly sqlite: Target;
}

/** Runs `fn` with the targets; prints "<name>: not run — reason" without a server. */
export async function withMongoBench(name: string, fn: (b: MongoBench) => Promise<void>): Promise<void> {
  const server = await acquireMongoServer();
  if (!server.available) {
    console.log(`${name}: not run — ${server.reason}`);
    return;
  }
  process.env.SMTC_MONGODB_URL = server.url;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-bench-mongodb-'));
  const client = new MongoClient(server.url);
  const made: { mod: TargetModule; target: Target }[] = [];
  const create = async (mod: TargetModule, prefix: string) => {
    const target = await mod.create({ tempDir: mkdtempSync(path.join(dir, prefix)), options: NO_BOUNDS });
    made.push({ mod, target });
    return target;
  };
  try {
    await client.connect();
    const mongo = await create(
      await loadTargetModule(path.join(REPO_ROOT, 'reference-impl/module-target-mongodb.ts')),
      'mongo-',
    );
    const sqlite = await create(await loadTargetModule(DEFAULT_TARGET), 'sqlite-');
    await fn({ how: server.how, client, dir, mongo, sqlite });
  } finally {
    for (const { mod, target } of made) await mod.destroy?.(target);
    await client.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
