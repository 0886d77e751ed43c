/**
 * Differential test: the same Deep Agents graph (deepagents 1.14.1: a subagent, parallel tool
 * calls, a human-in-the-loop interrupt and its resume), with the same scripted model and tools,
 * run once on LangGraph's MongoDBSaver and once on ContractCheckpointSaver, must leave the same
 * observable thread: the interrupts, the final messages, how often each tool ran, every
 * snapshot getStateHistory shows (values, next, tasks, interrupts, metadata, parent chain), and
 * every checkpoint tuple list() returns (all namespaces, with pending writes). Ids and times are
 * normalised (deep-agent-scenario.ts), structure is compared exactly. MongoDBSaver and the
 * adapter's MongoDB backend share one FerretDB server; without one this reports not run.
 */
import { randomBytes } from 'node:crypto';
import type { BaseCheckpointSaver, CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { MongoDBSaver } from '@langchain/langgraph-checkpoint-mongodb';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { comparableThread, runDeepAgentScenario } from '../../fixtures/langgraph/deep-agent-scenario.js';
import { DropsPendingWritesOnResume } from '../../fixtures/mutants/langgraph/drops-pending-writes-on-resume.js';
import { notRun } from '../../fixtures/scenario/need.js';
import { acquireMongoServer, type MongoServerHandle } from '../../fixtures/services/ferretdb.js';
import { ownerThreadSessions } from '../../reference-impl/runs/worker/langgraph/thread-sessions.js';
import { mongoSaver, SAVER_SPEC, type SaverContext, sqliteSaver } from './saver-test-context.js';

const THREAD = 'deep-agent-thread';
let server: MongoServerHandle;
let reference: unknown;

async function tuples(saver: BaseCheckpointSaver): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const t of saver.list({ configurable: { thread_id: THREAD } })) out.push(t);
  return out;
}

async function observed(saver: BaseCheckpointSaver) {
  const run = await runDeepAgentScenario(saver, THREAD);
  return { run, view: comparableThread(run, await tuples(saver)) };
}

beforeAll(async () => {
  server = await acquireMongoServer();
  if (!server.available) return;
  const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 5_000 });
  await client.connect();
  const dbName = `lg_mongodbsaver_${randomBytes(6).toString('hex')}`;
  try {
    // The saver is typed against its own mongodb driver; the calls it makes exist unchanged in 7.
    const saver = new MongoDBSaver({ client: client as never, dbName });
    await saver.setup();
    reference = (await observed(saver)).view;
  } finally {
    await client.db(dbName).dropDatabase();
    await client.close();
  }
}, 180_000);
afterAll(async () => {
  if (server?.available) await server.stop();
}, 60_000);

function needReference(ctx: TestContext): void {
  if (!server.available) notRun(ctx, server.reason);
}

async function withSaver<T>(c: SaverContext, fn: (c: SaverContext) => Promise<T>): Promise<T> {
  try {
    return await fn(c);
  } finally {
    await c.dispose();
  }
}

describe('Deep Agents on MongoDBSaver vs on the contract adapter', () => {
  it('MongoDBSaver itself: interrupt, resume with the answer, each completed tool ran once', (ctx) => {
    needReference(ctx);
    const { thread: r, writes } = reference as {
      thread: {
        interrupts: unknown[];
        toolRuns: unknown;
        final: string[];
        history: unknown[];
        tuples: { config: { configurable: { checkpoint_ns: string } } }[];
      };
      writes: unknown[][];
    };
    // Not a vacuous comparison: a root history, a subagent namespace, stored pending writes.
    expect(r.history.length).toBeGreaterThanOrEqual(8);
    expect(r.tuples.some((t) => t.config.configurable.checkpoint_ns.startsWith('tools:'))).toBe(true);
    expect(writes.some((w) => w.length > 0)).toBe(true);
    expect(r.interrupts).toEqual([{ question: 'may I look up x?' }]);
    // lookup runs again on resume (LangGraph re-executes the interrupted task); note ran once.
    expect(r.toolRuns).toEqual({ lookup: 2, note: 1 });
    expect(r.final.at(-1)).toBe('ai:done');
  });

  it('the adapter over the MongoDB backend yields the same thread', async (ctx) => {
    needReference(ctx);
    if (!server.available) return;
    const view = await withSaver(await mongoSaver(server.url), async (c) => (await observed(c.saver)).view);
    expect(view).toEqual(reference);
  });

  it('the adapter over the SQLite backend yields the same thread', async (ctx) => {
    needReference(ctx);
    const view = await withSaver(sqliteSaver(), async (c) => (await observed(c.saver)).view);
    expect(view).toEqual(reference);
  });

  it('mutant: an adapter that drops pending writes on resume is caught (tool work replayed, history differs)', async (ctx) => {
    needReference(ctx);
    await withSaver(sqliteSaver(), async (c) => {
      const mutant = new DropsPendingWritesOnResume(
        ownerThreadSessions(c.service, c.ctx.auth.principals.alice, SAVER_SPEC),
      );
      const { run, view } = await observed(mutant);
      expect(run.toolRuns.note).toBe(2);
      expect(view).not.toEqual(reference);
    });
  });
});
