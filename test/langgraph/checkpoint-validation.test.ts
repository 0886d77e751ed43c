/**
 * LangGraph's own checkpointer validation suite (@langchain/langgraph-checkpoint-validation)
 * against ContractCheckpointSaver: put, putWrites, getTuple, list (filters, before, limit),
 * deleteThread and delta-channel history — on the SQLite backend and on the MongoDB backend
 * (FerretDB here; SMTC_MONGODB_URL for a mongod). Without a MongoDB-wire server the MongoDB run
 * reports not run (a failure with SMTC_REQUIRE_ALL=1).
 */
import { validate } from '@langchain/langgraph-checkpoint-validation';
import { it } from 'vitest';
import { notRun, unsupportedByTarget } from '../../fixtures/scenario/need.js';
import { acquireMongoServer, findFerretdbBinary, type MongoServerHandle } from '../../fixtures/services/ferretdb.js';
import type { ContractCheckpointSaver } from '../../reference-impl/runs/worker/langgraph/contract-checkpoint-saver.js';
import { mongoSaver, type SaverContext, sqliteSaver } from './saver-test-context.js';

/**
 * The one case of the suite MongoDBSaver does not meet — the suite itself skips it for
 * MongoDBSaver, MemorySaver and SqliteSaver ("TODO: doesn't store channel deltas"). The
 * contract requires MongoDBSaver's semantics (full channel_values in every checkpoint), so it
 * is reported not run with that reason rather than met by diverging from MongoDBSaver.
 */
const MONGODB_SEMANTICS_SKIPS: Readonly<Record<string, string>> = {
  'should only store channel_values that have changed (based on newVersions)':
    'MongoDBSaver stores full channel_values (the suite skips this case for MongoDBSaver, MemorySaver, SqliteSaver)',
};
(globalThis as unknown as { it: typeof it }).it = new Proxy(it, {
  apply(target, self, args: Parameters<typeof it>) {
    const reason = typeof args[0] === 'string' ? MONGODB_SEMANTICS_SKIPS[args[0]] : undefined;
    if (reason) return target(args[0] as string, (ctx) => unsupportedByTarget(ctx, reason));
    return Reflect.apply(target, self, args);
  },
});

const live = new Map<ContractCheckpointSaver, SaverContext>();
const destroy = async (saver: ContractCheckpointSaver) => {
  await live.get(saver)?.dispose();
  live.delete(saver);
};

validate({
  checkpointerName: 'ContractCheckpointSaver over SQLite',
  createCheckpointer() {
    const c = sqliteSaver();
    live.set(c.saver, c);
    return c.saver;
  },
  destroyCheckpointer: destroy,
});

if (process.env.SMTC_MONGODB_URL || findFerretdbBinary()) {
  let server: MongoServerHandle | undefined;
  validate({
    checkpointerName: 'ContractCheckpointSaver over MongoDB',
    beforeAllTimeout: 180_000,
    async beforeAll() {
      server = await acquireMongoServer();
      if (!server.available) throw new Error(`MongoDB-wire server did not start: ${server.reason}`);
    },
    async afterAll() {
      if (server?.available) await server.stop();
    },
    async createCheckpointer() {
      if (!server?.available) throw new Error('no MongoDB-wire server');
      const c = await mongoSaver(server.url);
      live.set(c.saver, c);
      return c.saver;
    },
    destroyCheckpointer: destroy,
  });
} else {
  it('LangGraph validation suite over the MongoDB backend', (ctx) => {
    notRun(ctx, 'no MongoDB-wire server: set SMTC_MONGODB_URL or build FerretDB (npx smtc doctor --all --provision)');
  });
}
