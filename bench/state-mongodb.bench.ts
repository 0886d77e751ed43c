/**
 * Thread-state commit cost on the MongoDB backend, side by side in one process run:
 *  1. the commit protocol (load head + write pending + commit head, through the module
 *     target's facade) on MongoDB against one raw MongoDB upsert of the same payload, with the
 *     backend's write concern;
 *  2. the same protocol on the embedded SQLite backend (and its raw upsert), for the ratio
 *     MongoDB / SQLite;
 *  3. the cycle on a thread with 10 and with HISTORY prior commits (should stay ~1x: every
 *     lookup is by _id, old register versions are compacted);
 *  4. LangGraph's MongoDBSaver (what agent runtimes on MongoDB use today) on the same server and
 *     payload: `put` of one checkpoint, and its equivalent of our cycle — `getTuple` (load the
 *     latest) + `putWrites` (the step's pending write) + `put` (the next checkpoint). The saver
 *     has no compare-and-set, no idempotency keys and no scope checks: the ratio is the price
 *     of those guarantees.
 * Best of ROUNDS interleaved rounds. The server is whatever fixtures/services/ferretdb.ts finds:
 * SMTC_MONGODB_URL, else FerretDB on its SQLite handler — which is not production mongod
 * (one process, SQLite underneath, every operation a Go round trip); read its figures as the
 * protocol's round-trip count made visible, not as MongoDB's speed.
 *
 *   node --import tsx bench/state-mongodb.bench.ts
 */
import { emptyCheckpoint, uuid6 } from '@langchain/langgraph-checkpoint';
import { MongoDBSaver } from '@langchain/langgraph-checkpoint-mongodb';
import { Binary, type MongoClient } from 'mongodb';
import { openThread } from '../fixtures/scenario/thread-session.js';
import { detectServerProfile } from '../reference-impl/state/mongodb-server-profile.js';
import { bytes, PAYLOAD_BYTES, protocol, rawSqliteUpsert, threadWithHistory } from './commit-cycle.js';
import { withMongoBench } from './mongo-bench-targets.js';

const OPS = Number(process.env.BENCH_OPS ?? 200);
const ROUNDS = 3;
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1000);

/** µs per raw MongoDB upsert of the payload under a fresh key, with the backend's write concern. */
async function rawMongoUpsert(client: MongoClient, round: number): Promise<number> {
  const db = client.db(`smtc_bench_raw_${process.pid}_${round}`);
  const col = db.collection<{ _id: string; v: Binary }>('kv', {
    writeConcern: (await detectServerProfile(db)).writeConcern,
  });
  const v = new Binary(Buffer.from(bytes));
  const started = performance.now();
  for (let i = 0; i < OPS; i++) await col.replaceOne({ _id: `key-${i}` }, { v }, { upsert: true });
  const us = ((performance.now() - started) * 1000) / OPS;
  await db.dropDatabase();
  return us;
}

/** µs per MongoDBSaver `put`, and per getTuple + putWrites + put cycle, on one thread each. */
async function langGraphSaver(client: MongoClient, round: number): Promise<{ put: number; cycle: number }> {
  const dbName = `smtc_bench_langgraph_${process.pid}_${round}`;
  // The saver is typed against its own mongodb 6 driver; the calls it makes exist unchanged in 7.
  const saver = new MongoDBSaver({ client: client as never, dbName });
  await saver.setup();
  // The same bytes, as a LangGraph channel value (its serializer writes JSON).
  const state = Buffer.from(bytes).toString('base64');
  const checkpoint = (i: number) => ({ ...emptyCheckpoint(), id: uuid6(i), channel_values: { state } });
  const metadata = (i: number) => ({ source: 'loop' as const, step: i, parents: {} });

  let config: Parameters<MongoDBSaver['put']>[0] = { configurable: { thread_id: 'put-only', checkpoint_ns: '' } };
  let started = performance.now();
  for (let i = 0; i < OPS; i++) config = await saver.put(config, checkpoint(i), metadata(i));
  const put = ((performance.now() - started) * 1000) / OPS;

  let head = await saver.put({ configurable: { thread_id: 'cycle', checkpoint_ns: '' } }, checkpoint(-1), metadata(-1));
  started = performance.now();
  for (let i = 0; i < OPS; i++) {
    const latest = await saver.getTuple({ configurable: { thread_id: 'cycle', checkpoint_ns: '' } });
    await saver.putWrites(latest?.config ?? head, [['state', state]], `task-${i}`);
    head = await saver.put(latest?.config ?? head, checkpoint(i), metadata(i));
  }
  const cycle = ((performance.now() - started) * 1000) / OPS;
  await client.db(dbName).dropDatabase();
  return { put, cycle };
}

await withMongoBench('state on MongoDB', async ({ how, client, dir, mongo, sqlite }) => {
  const profile = await detectServerProfile(client.db('admin'));
  console.log(
    `state on MongoDB: ${PAYLOAD_BYTES}-byte payload, ${OPS} ops per case, best of ${ROUNDS} interleaved rounds (Node ${process.version})`,
  );
  console.log(`  server: ${profile.summary} via ${how}`);

  const short = await threadWithHistory(mongo, 10);
  const long = await threadWithHistory(mongo, HISTORY);
  await protocol(short, 'warmup', 50);
  await protocol(await openThread(sqlite), 'warmup', 50);
  let rawMongo = Number.POSITIVE_INFINITY;
  let rawSqlite = Number.POSITIVE_INFINITY;
  let onMongo = Number.POSITIVE_INFINITY;
  let onSqlite = Number.POSITIVE_INFINITY;
  let at10 = Number.POSITIVE_INFINITY;
  let atLong = Number.POSITIVE_INFINITY;
  let lgPut = Number.POSITIVE_INFINITY;
  let lgCycle = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const lg = await langGraphSaver(client, round);
    lgPut = Math.min(lgPut, lg.put);
    lgCycle = Math.min(lgCycle, lg.cycle);
    rawMongo = Math.min(rawMongo, await rawMongoUpsert(client, round));
    rawSqlite = Math.min(rawSqlite, rawSqliteUpsert(dir, round, OPS));
    onMongo = Math.min(onMongo, await protocol(await openThread(mongo), `fresh-${round}`, OPS));
    onSqlite = Math.min(onSqlite, await protocol(await openThread(sqlite), `fresh-${round}`, OPS));
    at10 = Math.min(at10, await protocol(short, `short-${round}`, OPS));
    atLong = Math.min(atLong, await protocol(long, `long-${round}`, OPS));
  }
  const rows: [string, string][] = [
    ['raw MongoDB upsert', `${rawMongo.toFixed(1)} µs/op`],
    ['commit protocol on MongoDB (load + write + commit)', `${onMongo.toFixed(1)} µs/cycle`],
    ['  ratio protocol / raw MongoDB upsert', `${(onMongo / rawMongo).toFixed(1)}x`],
    ['raw SQLite upsert', `${rawSqlite.toFixed(1)} µs/op`],
    ['commit protocol on SQLite', `${onSqlite.toFixed(1)} µs/cycle`],
    ['  ratio protocol / raw SQLite upsert', `${(onSqlite / rawSqlite).toFixed(1)}x`],
    ['  ratio MongoDB protocol / SQLite protocol', `${(onMongo / onSqlite).toFixed(1)}x`],
    ['MongoDB cycle, 10 prior commits', `${at10.toFixed(1)} µs/cycle`],
    [`MongoDB cycle, ${HISTORY.toLocaleString('en-US')} prior commits`, `${atLong.toFixed(1)} µs/cycle`],
    ['  ratio long / short history', `${(atLong / at10).toFixed(2)}x`],
    ['LangGraph MongoDBSaver put', `${lgPut.toFixed(1)} µs/op`],
    ['  ratio our cycle / MongoDBSaver put', `${(onMongo / lgPut).toFixed(1)}x`],
    ['LangGraph MongoDBSaver getTuple + putWrites + put', `${lgCycle.toFixed(1)} µs/cycle`],
    ['  ratio our cycle / MongoDBSaver cycle', `${(onMongo / lgCycle).toFixed(2)}x`],
  ];
  for (const [k, v] of rows) console.log(`  ${k.padEnd(52)} ${v}`);
});
