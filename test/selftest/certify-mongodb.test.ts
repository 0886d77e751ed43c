/**
 * The reference with thread state on MongoDB is certified on the thread-state requirements,
 * through `smtc certify` as a user runs it, against a real MongoDB-wire server (FerretDB
 * here; see fixtures/services/ferretdb.ts). Property budgets run at a quarter: every scenario
 * runs, each on fewer generated cases, because every operation is now a network round trip
 * (full budgets: `--runs-scale 1`, a few minutes on FerretDB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notRun } from '../../fixtures/scenario/need.js';
import { acquireMongoServer, type MongoServerHandle } from '../../fixtures/services/ferretdb.js';
import { runCertify } from './run-certify.js';

let server: MongoServerHandle;
beforeAll(async () => {
  server = await acquireMongoServer();
}, 180_000);
afterAll(async () => {
  if (server?.available) await server.stop();
}, 60_000);

describe('self-test: the reference with thread state on MongoDB', () => {
  it('is certified on R02, R03 and R04', async (ctx) => {
    if (!server.available) return notRun(ctx, server.reason);
    const previous = process.env.SMTC_MONGODB_URL;
    process.env.SMTC_MONGODB_URL = server.url; // runCertify hands this process's env to the CLI
    let run: Awaited<ReturnType<typeof runCertify>>;
    try {
      run = await runCertify(
        ['--target', 'reference-impl/module-target-mongodb.ts', '--only', 'R02,R03,R04', '--runs-scale', '0.25'],
        900_000,
      );
    } finally {
      if (previous === undefined) delete process.env.SMTC_MONGODB_URL;
      else process.env.SMTC_MONGODB_URL = previous;
    }
    expect(run.verdict, run.output).not.toBeNull();
    for (const id of ['R02', 'R03', 'R04']) {
      const r = run.verdict!.requirements.find((x) => x.id === id)!;
      // Scenarios that freeze, kill or cut off worker processes need the served reference
      // (processFaults, networkFaults); this in-process target, like the in-process SQLite one,
      // declares neither and runs all others.
      const onlyProcessFaultsMissing =
        r.verdict === 'not_run' &&
        r.reasons.length > 0 &&
        r.reasons.every((x) => /"(processFaults|networkFaults)"|Toxiproxy not available/.test(x));
      expect(
        {
          id,
          verdict: onlyProcessFaultsMissing ? 'certified' : r.verdict,
          reasons: onlyProcessFaultsMissing ? [] : r.reasons,
        },
        run.output,
      ).toEqual({
        id,
        verdict: 'certified',
        reasons: [],
      });
      expect(r.clauses.filter((c) => c.state === 'passed').length).toBeGreaterThan(5);
    }
    expect(run.output).toMatch(/state on MongoDB/);
  }, 900_000);
});
