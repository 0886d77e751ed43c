/**
 * R04 — leases as fencing tokens under real concurrency, checked as a history.
 *
 * Several workers hold leases on one binding. Round after round, one of them takes the binding
 * over (a new lease) while the others keep writing on the lease they hold — all in the same
 * moment, with nothing ordering them — then all of them write again after the takeover, and a failpoint makes some writes land with their answer
 * lost. Every takeover and write is recorded, and a linearizability checker (porcupine) checks
 * the history against the contract's model of leases as fencing tokens: once a takeover to
 * generation g is acknowledged, no operation under a generation below g succeeds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WorkerSession } from '../contract/bindings.js';
import { expectLinearizable, needHistoryChecker } from '../fixtures/history/check-history.js';
import { runClients, runRounds, withFailpoints } from '../fixtures/history/concurrent-clients.js';
import { HistoryRecorder } from '../fixtures/history/history.js';
import { fcParams } from '../fixtures/properties/fc-params.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { CODEC, payload, SPEC } from '../fixtures/scenario/thread-session.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

const CLIENTS = 3;
const ROUNDS = 5;

describe('R04 concurrent workers: the history of leases is one of fencing tokens', () => {
  it('R04.30 takeovers racing writes on older leases, some answers lost: no write under a superseded lease succeeds after the takeover', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const bin = await needHistoryChecker(ctx);
    const target = t();
    const owner = target.principals.alice;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: CLIENTS - 1 }), { minLength: ROUNDS, maxLength: ROUNDS }),
        fc.integer({ min: 0, max: 3 }),
        async (takers, lost) => {
          const { bindingId } = await target.bindings.open(owner, SPEC);
          const rec = new HistoryRecorder('lease-fencing');
          const key = bindingId;
          const acquire = (c: number) =>
            rec.record(
              c,
              { key, op: 'acquire' },
              () => target.bindings.acquireLease(owner, bindingId),
              (s) => ({ status: 'ok', version: s.scope.leaseGeneration }),
            );
          // Every worker starts with a lease of its own (the later ones fence the earlier).
          const held: WorkerSession[] = [];
          for (let c = 0; c < CLIENTS; c++) {
            const r = await acquire(c);
            if (!r.ok) throw r.error;
            held.push(r.value);
          }
          let n = 0;
          await withFailpoints(
            target.capabilities.failpoints ? target.faults : undefined,
            { 'state.write.after': `${lost + 1}*return("unavailable")` },
            () =>
              // Even rounds: a takeover racing the others' writes; odd rounds: everyone writes
              // again, now after the takeover was acknowledged.
              runRounds(CLIENTS, 2 * ROUNDS, async (c, round) => {
                if (round % 2 === 0 && takers[round / 2] === c) {
                  const r = await acquire(c);
                  if (r.ok) held[c] = r.value;
                  return;
                }
                const session = held[c]!;
                const store = target.threadState(session);
                const k = `w${++n}`;
                await rec.record(
                  c,
                  { key, op: 'write', generation: session.scope.leaseGeneration },
                  () => store.write_native_state(session.scope, CODEC, payload(k), k),
                  () => ({ status: 'ok' }),
                );
              }),
          );
          await expectLinearizable(bin, 'R04.30-lease-fencing', rec.history);
        },
      ),
      fcParams(4, { endOnFailure: true, includeErrorInReport: true }),
    );
  });

  it('R04.31 takeovers racing takeovers, started in the same tick: each acknowledged takeover has a generation of its own, and afterwards only the newest one writes', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const bin = await needHistoryChecker(ctx);
    const target = t();
    const owner = target.principals.alice;
    // Per round, which workers take the binding over together (at least two) and after how many yields.
    const roundArb = fc.record({
      takers: fc.subarray([0, 1, 2], { minLength: 2 }),
      yields: fc.array(fc.nat({ max: 6 }), { minLength: CLIENTS, maxLength: CLIENTS }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(roundArb, { minLength: 2, maxLength: 3 }), async (rounds) => {
        const { bindingId } = await target.bindings.open(owner, SPEC);
        const rec = new HistoryRecorder('lease-fencing');
        const held: (WorkerSession | undefined)[] = [];
        let n = 0;
        for (const round of rounds) {
          const granted: number[] = [];
          // Nothing orders the takeovers: inside the target they interleave between reading the
          // generation and storing the next one.
          await runClients(CLIENTS, async (c) => {
            if (!round.takers.includes(c)) return;
            for (let y = 0; y < round.yields[c]!; y++) await Promise.resolve();
            const r = await rec.record(
              c,
              { key: bindingId, op: 'acquire' },
              () => target.bindings.acquireLease(owner, bindingId),
              (s) => ({ status: 'ok', version: s.scope.leaseGeneration }),
            );
            if (!r.ok) throw r.error;
            held[c] = r.value;
            granted.push(r.value.scope.leaseGeneration);
          });
          // "Acquire a lease: bumps the lease generation": two takeovers are two bumps.
          expect(new Set(granted).size, `takeovers answered generations ${granted.join(', ')}`).toBe(granted.length);
          // Then every worker holding a lease writes: only the newest generation may succeed.
          await runClients(CLIENTS, async (c) => {
            const session = held[c];
            if (!session) return;
            const k = `w${++n}`;
            await rec.record(
              c,
              { key: bindingId, op: 'write', generation: session.scope.leaseGeneration },
              () => target.threadState(session).write_native_state(session.scope, CODEC, payload(k), k),
              () => ({ status: 'ok' }),
            );
          });
        }
        await expectLinearizable(bin, 'R04.31-racing-takeovers', rec.history);
      }),
      fcParams(6, { endOnFailure: true, includeErrorInReport: true }),
    );
  });
});
