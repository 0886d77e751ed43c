/**
 * One Deep Agents conversation (fixtures/langgraph/deep-agent-scenario.ts: a subagent, two
 * parallel tool calls, an interrupt and its resume — every checkpoint and pending write
 * LangGraph makes on the way) per thread, side by side in one run, on:
 *  1. LangGraph's MemorySaver — the graph's own cost (scripted model, tools, Pregel loop);
 *  2. LangGraph's MongoDBSaver, directly on the server;
 *  3. ContractCheckpointSaver over the reference's MongoDB backend, same server;
 *  4. ContractCheckpointSaver over the reference's SQLite backend (WAL, synchronous=FULL),
 *  5. LangGraph's SqliteSaver on a file (its own pragmas: WAL, synchronous left at its default).
 * Storage cost = conversation time minus MemorySaver's. Where the adapter's time goes is
 * measured too: ThreadStateStore calls per conversation, time inside them, and bytes written
 * (each commit writes the thread's whole log). Best of ROUNDS interleaved rounds.
 * The server is what fixtures/services/ferretdb.ts finds (SMTC_MONGODB_URL, else FerretDB over
 * PostgreSQL), which is not production mongod: read ratios, not absolute speed.
 *
 *   node --import tsx bench/langgraph-saver.bench.ts
 */
import path from 'node:path';
import { MemorySaver } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { MongoDBSaver } from '@langchain/langgraph-checkpoint-mongodb';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type { ThreadStateStore } from '../contract/state.js';
import { runDeepAgentScenario } from '../fixtures/langgraph/deep-agent-scenario.js';
import { ContractCheckpointSaver } from '../reference-impl/runs/worker/langgraph/contract-checkpoint-saver.js';
import { ownerThreadSessions, type ThreadSessions } from '../reference-impl/runs/worker/langgraph/thread-sessions.js';
import { withMongoBench } from './mongo-bench-targets.js';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 8);
const ROUNDS = 3;

interface StoreUse {
  calls: Record<string, number>;
  ms: Record<string, number>;
  bytes: number;
}

const newUse = (): StoreUse => ({ calls: {}, ms: {}, bytes: 0 });

/** The sessions with every store call timed and every written payload counted. */
function metered(inner: ThreadSessions, use: StoreUse): ThreadSessions {
  const wrap = (s: ThreadStateStore): ThreadStateStore => {
    const timed =
      <A extends unknown[], R>(name: string, f: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        const t = performance.now();
        try {
          return await f(...a);
        } finally {
          use.calls[name] = (use.calls[name] ?? 0) + 1;
          use.ms[name] = (use.ms[name] ?? 0) + performance.now() - t;
        }
      };
    return {
      load_head: timed('load_head', (scope) => s.load_head(scope)),
      write_native_state: timed('write_native_state', (scope, codec, payload, key) => {
        use.bytes += payload.bytes.byteLength;
        return s.write_native_state(scope, codec, payload, key);
      }),
      commit_head: timed('commit_head', (...a: Parameters<ThreadStateStore['commit_head']>) => s.commit_head(...a)),
      mark_uncertain: (...a) => s.mark_uncertain(...a),
      run_status: (...a) => s.run_status(...a),
      reconcile: (...a) => s.reconcile(...a),
    };
  };
  return {
    open: async (thread, create) => {
      const h = await inner.open(thread, create);
      return h && { ...h, store: wrap(h.store) };
    },
    threads: () => inner.threads(),
    clear: (thread) => inner.clear(thread),
  };
}

/** ms per conversation, each on a new thread. */
async function conversations(saver: BaseCheckpointSaver, tag: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < CONVERSATIONS; i++) await runDeepAgentScenario(saver, `${tag}-${i}`);
  return (performance.now() - started) / CONVERSATIONS;
}

await withMongoBench('langgraph saver', async ({ how, client, dir, mongo, sqlite }) => {
  const spec = { environment: 'bench', harness: 'deepagents' };
  const useMongo = newUse();
  const useSqlite = newUse();
  const onMongo = new ContractCheckpointSaver(
    metered(ownerThreadSessions(mongo, mongo.principals.alice, spec), useMongo),
  );
  const onSqlite = new ContractCheckpointSaver(
    metered(ownerThreadSessions(sqlite, sqlite.principals.alice, spec), useSqlite),
  );
  const dbName = `smtc_bench_lg_${process.pid}`;
  // The saver is typed against its own mongodb driver; the calls it makes exist unchanged in 7.
  const mongoSaver = new MongoDBSaver({ client: client as never, dbName });
  await mongoSaver.setup();
  const memory = new MemorySaver();
  const sqliteSaver = SqliteSaver.fromConnString(path.join(dir, 'langgraph-sqlite-saver.sqlite'));

  console.log(
    `Deep Agents conversation per thread: ${CONVERSATIONS} per case, best of ${ROUNDS} interleaved rounds (Node ${process.version}), server via ${how}`,
  );
  await conversations(memory, 'warm-memory');
  await conversations(onSqlite, 'warm-sqlite');
  const best = { memory: Infinity, mongoSaver: Infinity, onMongo: Infinity, onSqlite: Infinity, sqliteSaver: Infinity };
  for (let r = 0; r < ROUNDS; r++) {
    best.memory = Math.min(best.memory, await conversations(memory, `memory-${r}`));
    best.mongoSaver = Math.min(best.mongoSaver, await conversations(mongoSaver, `mongosaver-${r}`));
    best.onMongo = Math.min(best.onMongo, await conversations(onMongo, `adapter-mongo-${r}`));
    best.onSqlite = Math.min(best.onSqlite, await conversations(onSqlite, `adapter-sqlite-${r}`));
    best.sqliteSaver = Math.min(best.sqliteSaver, await conversations(sqliteSaver, `sqlitesaver-${r}`));
  }
  // Averages over every conversation run (calls of one conversation can overlap: reads are not serialised).
  const perConv = (u: StoreUse, warm: number) => {
    const n = ROUNDS * CONVERSATIONS + warm;
    const each = Object.keys(u.calls)
      .map((k) => `${k} ${((u.calls[k] ?? 0) / n).toFixed(0)}× ${((u.ms[k] ?? 0) / n).toFixed(0)} ms`)
      .join(', ');
    return `${each}; ${(u.bytes / n / 1024).toFixed(0)} KiB written`;
  };
  const storage = (ms: number) => Math.max(ms - best.memory, 0.001);
  const rows: [string, string][] = [
    ['MemorySaver (graph cost, no storage)', `${best.memory.toFixed(1)} ms/conversation`],
    ['MongoDBSaver', `${best.mongoSaver.toFixed(1)} ms/conversation`],
    ['adapter on the MongoDB backend', `${best.onMongo.toFixed(1)} ms/conversation`],
    ['  ratio adapter / MongoDBSaver (whole conversation)', `${(best.onMongo / best.mongoSaver).toFixed(2)}x`],
    [
      '  ratio of storage time (minus MemorySaver)',
      `${(storage(best.onMongo) / storage(best.mongoSaver)).toFixed(2)}x`,
    ],
    ['  where it goes', perConv(useMongo, 0)],
    ['adapter on the SQLite backend', `${best.onSqlite.toFixed(1)} ms/conversation`],
    ['  ratio adapter on SQLite / MongoDBSaver', `${(best.onSqlite / best.mongoSaver).toFixed(2)}x`],
    ['  where it goes', perConv(useSqlite, CONVERSATIONS)],
    ['SqliteSaver', `${best.sqliteSaver.toFixed(1)} ms/conversation`],
    ['  ratio adapter on SQLite / SqliteSaver', `${(best.onSqlite / best.sqliteSaver).toFixed(2)}x`],
  ];
  for (const [k, v] of rows) console.log(`  ${k.padEnd(52)} ${v}`);
  await client.db(dbName).dropDatabase();
});
