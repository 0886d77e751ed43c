/**
 * What the MongoDB backend is talking to, detected once at open and recorded (the target's
 * name and the tests show it), because the guarantees differ:
 *  - mongod replica set: writes `w: majority, j: true`; reads `majority`; the head read
 *    `linearizable` (a deposed primary cannot serve an older head after a newer commit);
 *  - mongod standalone: writes `j: true` (majority is the one node); reads `local`;
 *  - FerretDB: single node, no transactions, read concerns accepted but meaningless, and
 *    conditional updates not atomic. Writes still ask for `majority` (accepted, the one node),
 *    reads use the default. Atomicity comes from `_id` uniqueness alone on every server.
 */
import type { Db, ReadConcernLevel, WriteConcernSettings } from 'mongodb';

export interface MongoServerProfile {
  readonly server: 'mongod' | 'ferretdb';
  readonly version: string;
  /** Replica set name, or null for a single node. */
  readonly replicaSet: string | null;
  readonly writeConcern: WriteConcernSettings;
  /** Read concern of ordinary reads; null = the server's default. */
  readonly readConcern: ReadConcernLevel | null;
  /** Read concern of head reads (load_head); null = the server's default. */
  readonly headReadConcern: ReadConcernLevel | null;
  /** One line for target names and reports. */
  readonly summary: string;
}

export async function detectServerProfile(db: Db): Promise<MongoServerProfile> {
  const admin = db.admin();
  const build = (await admin.command({ buildInfo: 1 })) as { version?: unknown; ferretdbVersion?: unknown };
  const hello = (await admin.command({ hello: 1 })) as { setName?: unknown };
  const replicaSet = typeof hello.setName === 'string' ? hello.setName : null;
  if (typeof build.ferretdbVersion === 'string') {
    return {
      server: 'ferretdb',
      version: build.ferretdbVersion,
      replicaSet: null,
      writeConcern: { w: 'majority', journal: true },
      readConcern: null,
      headReadConcern: null,
      summary: `FerretDB ${build.ferretdbVersion} (single node; atomic _id inserts only)`,
    };
  }
  const version = typeof build.version === 'string' ? build.version : 'unknown';
  if (replicaSet) {
    return {
      server: 'mongod',
      version,
      replicaSet,
      writeConcern: { w: 'majority', journal: true },
      readConcern: 'majority',
      headReadConcern: 'linearizable',
      summary: `mongod ${version} replica set ${replicaSet} (majority writes, linearizable head reads)`,
    };
  }
  return {
    server: 'mongod',
    version,
    replicaSet: null,
    writeConcern: { w: 1, journal: true },
    readConcern: null,
    headReadConcern: null,
    summary: `mongod ${version} standalone (journaled writes; no replication)`,
  };
}
