/**
 * R06 — memory revisions under real concurrency, checked as a history.
 *
 * Several clients run read-modify-write rounds on a few memory keys at the same time, with
 * nothing ordering them: get the record, put new content expecting the revision they read, and
 * on a conflict read again. Every get and put is recorded, and a linearizability checker
 * (porcupine) checks the history against the contract's model of a key's revisions: a put
 * with an expected revision is a compare-and-set (null = create), a conflict names the live
 * revision, revisions only grow, and a get returns the last accepted put.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { MemoryRecord } from '../contract/memory.js';
import { expectLinearizable, needHistoryChecker } from '../fixtures/history/check-history.js';
import { runRounds } from '../fixtures/history/concurrent-clients.js';
import { HistoryRecorder } from '../fixtures/history/history.js';
import { freshKey, note, USER } from '../fixtures/memory/memory-proposal.js';
import { fcParams } from '../fixtures/properties/fc-params.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

const CLIENTS = 4;
const ROUNDS = 3;

const seen = (r: MemoryRecord | null) => ({
  status: 'ok' as const,
  version: r?.revision ?? 0,
  value: r?.content ?? '',
});

describe('R06 concurrent clients: the history of memory revisions is linearizable', () => {
  it('R06.20 read-modify-write rounds on a few keys from concurrent clients behave as one compare-and-set per key', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const bin = await needHistoryChecker(ctx);
    const { principals: p } = t();
    const m = t().memory(p.alice, p.agents[0]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 1 }), { minLength: CLIENTS * ROUNDS, maxLength: CLIENTS * ROUNDS }),
        async (keyOf) => {
          const keys = [freshKey('hist'), freshKey('hist')];
          const rec = new HistoryRecorder('memory-revision');
          await runRounds(CLIENTS, ROUNDS, async (c, round) => {
            const key = keys[keyOf[round * CLIENTS + c]!]!;
            for (let attempt = 0; attempt < 2; attempt++) {
              const got = await rec.record(c, { key, op: 'get' }, () => m.get(USER, key), seen);
              if (!got.ok) return;
              const expected = got.value?.revision ?? null;
              const content = `c${c} r${round} a${attempt}`;
              const put = await rec.record(
                c,
                { key, op: 'put', expected: expected ?? 0, value: content },
                () => m.put(USER, note(key, content), expected),
                (o) =>
                  o.status === 'written'
                    ? { status: 'ok', version: o.record.revision }
                    : o.status === 'conflict'
                      ? { status: 'refused', code: 'conflict', version: o.currentRevision }
                      : { status: 'refused', code: o.status },
              );
              if (!put.ok || put.value.status !== 'conflict') return;
            }
          });
          await expectLinearizable(bin, 'R06.20-memory-revisions', rec.history);
        },
      ),
      fcParams(4, { endOnFailure: true, includeErrorInReport: true }),
    );
  });
});
