/**
 * R03 — idempotent duplicate state writes and explicit ambiguous-crash behaviour.
 *
 * Retries are how workers survive lost responses, so every retry must converge: the same
 * idempotency key and bytes give the same pending ref (also concurrently), different bytes
 * under a used key are refused and never overwrite, a commit whose response was lost gives
 * back the same head with the revision moved once. A run marked uncertain is fenced and keeps
 * the previous head until it is explicitly reconciled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_REGISTRY } from '../contract/errors.js';
import type { DurableStateHead, PendingStateRef } from '../contract/state.js';
import { UNCERTAIN_REASONS } from '../contract/state.js';
import { asContractError, expectRejection } from '../fixtures/assertions/contract-error.js';
import { fcParams } from '../fixtures/properties/fc-params.js';
import { runScheduled } from '../fixtures/properties/scheduled-calls.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { CODEC, hex, lease, openThread, payload, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { writeWithinRate } from '../fixtures/scenario/write-within-rate.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

const bytesArb = fc.uint8Array({ minLength: 0, maxLength: 512 });
/** Two payloads that differ. */
const differentBytesArb = fc
  .tuple(bytesArb, bytesArb)
  .filter(([a, b]) => a.length !== b.length || a.some((x, i) => x !== b[i]));

/**
 * Two keys a normalising implementation would take for one: letter case flipped, Unicode
 * composed vs decomposed, a letter in full width, a trailing space.
 */
const keyPairArb = fc
  .tuple(
    fc.stringMatching(/^[a-z]{2,10}-[a-z0-9]{1,6}$/),
    fc.constantFrom('case', 'unicode-form', 'width', 'trailing-space', 'lone-surrogate', 'invisible'),
  )
  .map(([base, kind]) => {
    switch (kind) {
      case 'case':
        return { kind, a: base, b: base.toUpperCase() };
      case 'unicode-form':
        return { kind, a: `${base}-caf\u00e9`, b: `${base}-cafe\u0301` };
      case 'width':
        // The first letter in full width (U+FF41…): NFKC folds it back to ASCII.
        return { kind, a: base, b: `${String.fromCodePoint(0xff41 + base.charCodeAt(0) - 0x61)}${base.slice(1)}` };
      case 'lone-surrogate':
        // Not well-formed UTF-16: a store that encodes both to UTF-8 gets U+FFFD for each.
        return { kind, a: `${base}-\ud800`, b: `${base}-\ud801` };
      case 'invisible':
        // A zero-width space inside: a store that strips invisible characters makes them one key.
        return { kind, a: base, b: `${base.slice(0, 1)}\u200b${base.slice(1)}` };
      default:
        return { kind, a: base, b: `${base} ` };
    }
  });

function summary(h: DurableStateHead | null) {
  return h && { revision: h.revision, stateId: h.state.stateId, runId: h.runId, bytes: hex(h.payload.bytes) };
}

async function commitOne(th: ThreadSession, key: string, text: string, expected: number): Promise<DurableStateHead> {
  const ref = await th.store.write_native_state(th.scope, CODEC, payload(text), key);
  return th.store.commit_head(th.scope, ref, expected, `run-${key}`);
}

describe('R03 idempotency and ambiguous crashes', () => {
  it('R03.1 the same key and bytes return the identical pending ref, however often retried', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(bytesArb, fc.integer({ min: 1, max: 5 }), async (bytes, retries) => {
        const th = await openThread(t());
        const first = await th.store.write_native_state(th.scope, CODEC, payload(bytes), 'key');
        for (let i = 0; i < retries; i++) {
          // A fresh copy each time: equality is by content, not by buffer identity.
          expect(await th.store.write_native_state(th.scope, CODEC, payload(Uint8Array.from(bytes)), 'key')).toEqual(
            first,
          );
        }
        const head = await th.store.commit_head(th.scope, first, 0, 'run-1');
        expect(await th.store.write_native_state(th.scope, CODEC, payload(bytes), 'key')).toEqual(head.state);
        expect(hex(head.payload.bytes)).toBe(hex(bytes));
      }),
      fcParams(40),
    );
  });

  it('R03.2 concurrent duplicates of one write all get the same ref', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), bytesArb, fc.integer({ min: 2, max: 6 }), async (s, bytes, n) => {
        const th = await openThread(t());
        const results = await runScheduled(
          s,
          Array.from({ length: n }, () => () => th.store.write_native_state(th.scope, CODEC, payload(bytes), 'dup')),
        );
        const refs = results.map((r) => {
          if (r.status === 'rejected') throw r.reason;
          return r.value;
        });
        for (const r of refs) expect(r).toEqual(refs[0]);
        expect(await th.store.write_native_state(th.scope, CODEC, payload(bytes), 'dup')).toEqual(refs[0]);
      }),
      fcParams(50),
    );
  });

  it('R03.17 duplicates started in the same tick, each a few awaits apart, all get the same ref and none is refused', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    // R03.2 orders when calls start; here nothing does: every duplicate starts in the same tick
    // after its own number of yields, so in process they interleave at single awaits inside the
    // write — a duplicate can pass the key lookup while another is between its lookup and its
    // insert. One new key per thread, far below every bound: a refusal is never the answer.
    const yieldsArb = fc.array(fc.nat({ max: 6 }), { minLength: 2, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(bytesArb, yieldsArb, async (bytes, yields) => {
        const th = await openThread(t());
        const settled = await Promise.allSettled(
          yields.map(async (n) => {
            for (let i = 0; i < n; i++) await Promise.resolve();
            return th.store.write_native_state(th.scope, CODEC, payload(bytes), 'same-tick');
          }),
        );
        const refs = settled.map((r, i) => {
          if (r.status === 'rejected') {
            throw new Error(
              `duplicate #${i} (after ${yields[i]} yields) was refused: ${(r.reason as { code?: string } | null)?.code ?? String(r.reason)}`,
            );
          }
          return r.value;
        });
        for (const r of refs) expect(r).toEqual(refs[0]);
        expect(refs[0]?.idempotencyKey).toBe('same-tick');
        expect(refs[0]?.size).toBe(bytes.byteLength);
        // The one stored state is the one every duplicate was given.
        expect(await th.store.write_native_state(th.scope, CODEC, payload(bytes), 'same-tick')).toEqual(refs[0]);
        const head = await th.store.commit_head(th.scope, refs[0]!, 0, 'run-same-tick');
        expect(head.state).toEqual(refs[0]);
        expect(hex(head.payload.bytes)).toBe(hex(bytes));
      }),
      fcParams(50),
    );
  });

  it('R03.3 the same key with different bytes is refused and never overwrites', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(differentBytesArb, fc.boolean(), async ([a, b], commitFirst) => {
        const th = await openThread(t());
        const ref = await th.store.write_native_state(th.scope, CODEC, payload(a), 'reused');
        if (commitFirst) await th.store.commit_head(th.scope, ref, 0, 'run-a');
        await expectRejection(
          th.store.write_native_state(th.scope, CODEC, payload(b), 'reused'),
          ['idempotency_key_reuse'],
          ['reused'],
        );
        // The original is intact: same ref on retry, and committing it yields the original bytes.
        expect(await th.store.write_native_state(th.scope, CODEC, payload(a), 'reused')).toEqual(ref);
        const head = commitFirst
          ? await th.store.load_head(th.scope)
          : await th.store.commit_head(th.scope, ref, 0, 'run-a');
        expect(hex(head!.payload.bytes)).toBe(hex(a));
        expect(head!.state).toEqual(ref);
      }),
      fcParams(40),
    );
  });

  it('R03.19 idempotency keys are exact strings: keys that differ only in letter case, Unicode form, width, a trailing space, an invisible character or a lone surrogate are different keys (or a key form the target refuses as bad input), never each other’s duplicate or reuse', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(keyPairArb, differentBytesArb, async ({ kind, a, b }, [bytesA, bytesB]) => {
        // Over JSON a lone surrogate travels as an escape whose decoding RFC 8259 §8.2 calls
        // unpredictable (Go's decoder makes it U+FFFD): judged on targets reached in process only.
        fc.pre(!(kind === 'lone-surrogate' && 'baseUrl' in t()));
        const th = await openThread(t());
        let first: PendingStateRef | undefined;
        let second: PendingStateRef;
        try {
          first = await th.store.write_native_state(th.scope, CODEC, payload(bytesA), a);
          second = await th.store.write_native_state(th.scope, CODEC, payload(bytesB), b);
        } catch (e) {
          // Only a key outside the target's key alphabet may be refused (`a` only when it is not
          // well-formed), and only as bad input:
          // any code of the invalid_input category (the contract names no single one for it).
          if (kind === 'case') throw e;
          if (first === undefined && kind !== 'lone-surrogate') throw e;
          const code = (e as { code?: string }).code;
          expect(
            code && Object.hasOwn(ERROR_REGISTRY, code)
              ? ERROR_REGISTRY[code as keyof typeof ERROR_REGISTRY].category
              : code,
            `key ${JSON.stringify(b)} (${kind} of ${JSON.stringify(a)}) refused as ${String(code)}`,
          ).toBe('invalid_input');
          return;
        }
        expect(second.stateId, `${kind}: ${JSON.stringify(b)} answered as ${JSON.stringify(a)}`).not.toBe(
          first.stateId,
        );
        expect(second.idempotencyKey).toBe(b);
        // Each key keeps its own write: retries return each one's ref, commits its bytes.
        expect(await th.store.write_native_state(th.scope, CODEC, payload(bytesA), a)).toEqual(first);
        expect(await th.store.write_native_state(th.scope, CODEC, payload(bytesB), b)).toEqual(second);
        const head = await th.store.commit_head(th.scope, second, 0, 'run-second');
        expect(hex(head.payload.bytes)).toBe(hex(bytesB));
      }),
      fcParams(40),
    );
  });

  it('R03.4 concurrent writes of one key with different bytes: one content wins, the others are refused', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const contents = ['alpha', 'beta', 'gamma'];
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.nat({ max: 2 }), { minLength: 2, maxLength: 6 }),
        async (s, picks) => {
          const th = await openThread(t());
          const results = await runScheduled(
            s,
            picks.map((p) => () => th.store.write_native_state(th.scope, CODEC, payload(contents[p]!), 'contested')),
          );
          const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ ref: r.value, pick: picks[i]! }] : []));
          expect(won.length).toBeGreaterThan(0);
          const winner = won[0]!;
          for (const w of won) {
            expect(w.pick).toBe(winner.pick);
            expect(w.ref).toEqual(winner.ref);
          }
          for (const [i, r] of results.entries()) {
            if (r.status === 'rejected') {
              expect(picks[i]).not.toBe(winner.pick);
              await expectRejection(Promise.reject(r.reason), ['idempotency_key_reuse']);
            } else {
              expect(picks[i]).toBe(winner.pick);
            }
          }
          const head = await th.store.commit_head(th.scope, winner.ref, 0, 'run-w');
          expect(new TextDecoder().decode(head.payload.bytes)).toBe(contents[winner.pick]);
        },
      ),
      fcParams(50),
    );
  });

  it('R03.5 a commit whose response was lost, retried, returns the same head with the revision moved once', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        async (before, retries, restart) => {
          const th = await openThread(t());
          for (let i = 0; i < before; i++) await commitOne(th, `h${i}`, `history-${i}`, i);
          const ref = await th.store.write_native_state(th.scope, CODEC, payload('the one commit'), 'lost');
          const first = await th.store.commit_head(th.scope, ref, before, 'run-lost');
          // The worker never saw `first`; it retries — possibly after restarting on a new lease.
          const w = restart ? await lease(t(), th.owner, th.bindingId) : th;
          for (let i = 0; i < retries; i++) {
            expect(summary(await w.store.commit_head(w.scope, ref, before, 'run-lost'))).toEqual(summary(first));
          }
          const head = await w.store.load_head(w.scope);
          expect(summary(head)).toEqual(summary(first));
          expect(head!.revision).toBe(before + 1);
        },
      ),
      fcParams(40),
    );
  });

  it('R03.6 concurrent duplicate commits converge on one head, revision moved once', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), fc.nat({ max: 2 }), async (s, n, before) => {
        const th = await openThread(t());
        for (let i = 0; i < before; i++) await commitOne(th, `h${i}`, `history-${i}`, i);
        const ref = await th.store.write_native_state(th.scope, CODEC, payload('duplicated commit'), 'dup-commit');
        const results = await runScheduled(
          s,
          Array.from({ length: n }, () => () => th.store.commit_head(th.scope, ref, before, 'run-dup')),
        );
        const heads = results.map((r) => {
          if (r.status === 'rejected') throw r.reason;
          return summary(r.value);
        });
        for (const h of heads) expect(h).toEqual(heads[0]);
        expect(heads[0]!.revision).toBe(before + 1);
        expect(summary(await th.store.load_head(th.scope))).toEqual(heads[0]);
      }),
      fcParams(50),
    );
  });

  it('R03.7 a retry that is not the same commit (other run, other pending or other expected revision) is a conflict, not a success', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const ref = await th.store.write_native_state(th.scope, CODEC, payload('committed'), 'c');
    const head = await th.store.commit_head(th.scope, ref, 0, 'run-1');
    await expectRejection(th.store.commit_head(th.scope, ref, 0, 'run-2'), ['revision_conflict']);
    const other = await th.store.write_native_state(th.scope, CODEC, payload('other'), 'o');
    await expectRejection(th.store.commit_head(th.scope, other, 0, 'run-1'), ['revision_conflict']);
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(head));
    // The head's own pending and run with an expected revision it was never committed from: a
    // request nobody made, so not a retry — however far behind (or ahead) the revision is.
    let last = head;
    // Writes wait out a declared write-rate bound: a rate refusal must not decide this clause.
    for (let i = 2; i <= 4; i++) {
      const next = await writeWithinRate(t(), th, `chain-${i}`, `chain-${i}`);
      last = await th.store.commit_head(th.scope, next, last.revision, 'run-chain');
    }
    const pending = await writeWithinRate(t(), th, 'chain-4', 'chain-4');
    expect(pending.stateId, 'the same key and bytes name the committed pending again').toBe(last.state.stateId);
    for (const expected of [0, 1, last.revision - 2, last.revision + 1, last.revision + 5]) {
      await expectRejection(th.store.commit_head(th.scope, pending, expected, 'run-chain'), [
        'revision_conflict',
      ]).catch((err: Error) => {
        throw new Error(
          `re-committing the head's pending as its run with expected revision ${expected} (the head is at ${last.revision}): ${err.message}`,
        );
      });
    }
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(last));
  });

  it('R03.8 mark_uncertain fences the run and keeps the previous head', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const kept = await commitOne(th, 'kept', 'durable before the crash', 0);
    const ref = await th.store.write_native_state(th.scope, CODEC, payload('written after output'), 'after');
    await th.store.mark_uncertain(th.scope, 'run-crashed', 'commit_failed_after_output');
    const status = await th.store.run_status(th.scope, 'run-crashed');
    expect(status).toEqual({
      runId: 'run-crashed',
      state: 'uncertain_durability',
      reason: 'commit_failed_after_output',
      retainedRevision: kept.revision,
    });
    // Fenced: even a correct compare-and-set from that run is refused, from any lease.
    await expectRejection(th.store.commit_head(th.scope, ref, kept.revision, 'run-crashed'), ['fenced']);
    const next = await lease(t(), th.owner, th.bindingId);
    await expectRejection(next.store.commit_head(next.scope, ref, kept.revision, 'run-crashed'), ['fenced']);
    expect(summary(await next.store.load_head(next.scope))).toEqual(summary(kept));
    // Other runs are not affected.
    const other = await next.store.commit_head(next.scope, ref, kept.revision, 'run-other');
    expect(other.revision).toBe(kept.revision + 1);
    expect((await next.store.run_status(next.scope, 'run-crashed'))?.state).toBe('uncertain_durability');
  });

  it('R03.9 mark_uncertain takes only registered reason codes, never free text', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    // Free text carries a marker so the leak check can't match the registry's own wording.
    const freeText = fc.string({ maxLength: 60 }).map((s) => `free-text:${s}`);
    const nearMiss = fc.constantFrom(
      '',
      ...UNCERTAIN_REASONS.map((r) => r.toUpperCase()),
      ...UNCERTAIN_REASONS.map((r) => `${r} `),
      'commit_failed',
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(freeText, nearMiss), async (reason) => {
        const secrets = reason.startsWith('free-text:') ? [reason] : [];
        await expectRejection(
          th.store.mark_uncertain(th.scope, 'run-free-text', reason),
          ['invalid_argument'],
          secrets,
        );
      }),
      fcParams(50),
    );
    expect(await th.store.run_status(th.scope, 'run-free-text')).toBeNull();
    for (const reason of UNCERTAIN_REASONS) {
      await th.store.mark_uncertain(th.scope, `run-${reason}`, reason);
      expect((await th.store.run_status(th.scope, `run-${reason}`))?.reason).toBe(reason);
    }
  });

  it('R03.10 reconcile keep_previous resolves the run, keeps the head, and the run stays fenced', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const kept = await commitOne(th, 'kept', 'previous', 0);
    const ref = await th.store.write_native_state(th.scope, CODEC, payload('ambiguous'), 'amb');
    await th.store.mark_uncertain(th.scope, 'run-amb', 'worker_lost_after_output');
    const record = await th.store.reconcile(th.scope, 'run-amb', { action: 'keep_previous' });
    expect({ runId: record.runId, state: record.state }).toEqual({ runId: 'run-amb', state: 'reconciled' });
    expect(await th.store.run_status(th.scope, 'run-amb')).toEqual(record);
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(kept));
    await expectRejection(th.store.commit_head(th.scope, ref, kept.revision, 'run-amb'), ['fenced']);
    // A reconcile retried after a lost response gets the same answer.
    expect(await th.store.reconcile(th.scope, 'run-amb', { action: 'keep_previous' })).toEqual(record);
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(kept));
  });

  it('R03.11 reconcile commit_pending commits the chosen pending under the compare-and-set', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const kept = await commitOne(th, 'kept', 'previous', 0);
    const ref = await th.store.write_native_state(th.scope, CODEC, payload('the ambiguous checkpoint'), 'amb');
    await th.store.mark_uncertain(th.scope, 'run-amb', 'commit_failed_after_output');
    // Stale expected revision: refused, run still uncertain, head kept.
    await expectRejection(
      th.store.reconcile(th.scope, 'run-amb', { action: 'commit_pending', pending: ref, expectedDurableRevision: 0 }),
      ['revision_conflict'],
    );
    expect((await th.store.run_status(th.scope, 'run-amb'))?.state).toBe('uncertain_durability');
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(kept));
    const record = await th.store.reconcile(th.scope, 'run-amb', {
      action: 'commit_pending',
      pending: ref,
      expectedDurableRevision: kept.revision,
    });
    expect(record.state).toBe('reconciled');
    const head = await th.store.load_head(th.scope);
    expect({
      revision: head!.revision,
      state: head!.state,
      bytes: new TextDecoder().decode(head!.payload.bytes),
    }).toEqual({
      revision: kept.revision + 1,
      state: ref,
      bytes: 'the ambiguous checkpoint',
    });
    // Retried reconcile: same record, no second commit.
    expect(
      await th.store.reconcile(th.scope, 'run-amb', {
        action: 'commit_pending',
        pending: ref,
        expectedDurableRevision: kept.revision,
      }),
    ).toEqual(record);
    expect((await th.store.load_head(th.scope))!.revision).toBe(kept.revision + 1);
    await expectRejection(th.store.commit_head(th.scope, ref, kept.revision + 1, 'run-amb'), ['fenced']);
  });

  it.for(['completed', 'interrupted', 'failed'] as const)(
    'R03.12 only an uncertain run can be reconciled: a run recorded %s (and a run never seen) is refused by keep_previous and by commit_pending, and its record and the head stay as they were',
    async (runState, ctx) => {
      needCapability(ctx, t(), 'threadState');
      const th = await openThread(t());
      const ref = await th.store.write_native_state(th.scope, CODEC, payload(runState), runState);
      const head = await th.store.commit_head(th.scope, ref, 0, `run-${runState}`, {
        runState,
        interrupt: runState === 'interrupted' ? { interruptId: 'ask-1', value: 'go on?' } : null,
      });
      const record = await th.store.run_status(th.scope, head.runId);
      expect(record?.state, `the run is recorded ${runState}`).toBe(runState);
      const other = await th.store.write_native_state(th.scope, CODEC, payload('another pending'), 'other');
      for (const runId of ['run-never-seen', head.runId]) {
        for (const resolution of [
          { action: 'keep_previous' as const },
          { action: 'commit_pending' as const, pending: other, expectedDurableRevision: head.revision },
        ]) {
          await expectRejection(th.store.reconcile(th.scope, runId, resolution));
        }
      }
      expect(await th.store.run_status(th.scope, head.runId), `the record of the ${runState} run`).toEqual(record);
      expect(summary(await th.store.load_head(th.scope))).toEqual(summary(head));
      expect((await th.store.load_head(th.scope))?.interrupt ?? null).toEqual(head.interrupt);
    },
  );

  it('R03.14 a reconciled run stays fenced: marking it again is refused and changes nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.constantFrom(...UNCERTAIN_REASONS), async (commitPending, again) => {
        const th = await openThread(t());
        const kept = await commitOne(th, 'kept', 'previous', 0);
        const ref = await th.store.write_native_state(th.scope, CODEC, payload('ambiguous'), 'amb');
        await th.store.mark_uncertain(th.scope, 'run-amb', 'commit_failed_after_output');
        const resolution = commitPending
          ? { action: 'commit_pending' as const, pending: ref, expectedDurableRevision: kept.revision }
          : { action: 'keep_previous' as const };
        const record = await th.store.reconcile(th.scope, 'run-amb', resolution);
        const head = summary(await th.store.load_head(th.scope));
        // From its own lease, then a new one: the run is already resolved, there is nothing to re-open.
        await expectRejection(th.store.mark_uncertain(th.scope, 'run-amb', again), ['fenced']);
        expect(await th.store.run_status(th.scope, 'run-amb')).toEqual(record);
        const next = await lease(t(), th.owner, th.bindingId);
        await expectRejection(next.store.mark_uncertain(next.scope, 'run-amb', again), ['fenced']);
        expect(await next.store.run_status(next.scope, 'run-amb')).toEqual(record);
        // A second reconcile (were the run re-opened, it could commit again) only repeats the first.
        const other = await next.store.write_native_state(next.scope, CODEC, payload('a second try'), 'second');
        const current = (await next.store.load_head(next.scope))!.revision;
        await next.store
          .reconcile(next.scope, 'run-amb', {
            action: 'commit_pending',
            pending: other,
            expectedDurableRevision: current,
          })
          .catch(() => undefined);
        expect(await next.store.run_status(next.scope, 'run-amb')).toEqual(record);
        expect(summary(await next.store.load_head(next.scope))).toEqual(head);
      }),
      fcParams(10),
    );
  });

  it('R03.15 marking a run uncertain twice keeps the first report: its reason and retained revision', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...UNCERTAIN_REASONS),
        fc.constantFrom(...UNCERTAIN_REASONS),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 2 }),
        fc.boolean(),
        async (first, second, before, between, restart) => {
          const th = await openThread(t());
          for (let i = 0; i < before; i++) await commitOne(th, `h${i}`, `history-${i}`, i);
          await th.store.mark_uncertain(th.scope, 'run-twice', first);
          const report = await th.store.run_status(th.scope, 'run-twice');
          expect(report).toEqual({
            runId: 'run-twice',
            state: 'uncertain_durability',
            reason: first,
            retainedRevision: before,
          });
          // Other runs move the head on; then the same run is reported again (another reason).
          for (let i = 0; i < between; i++) await commitOne(th, `b${i}`, `between-${i}`, before + i);
          const w = restart ? await lease(t(), th.owner, th.bindingId) : th;
          await w.store.mark_uncertain(w.scope, 'run-twice', second);
          expect(await w.store.run_status(w.scope, 'run-twice')).toEqual(report);
          expect((await w.store.load_head(w.scope))!.revision).toBe(before + between);
        },
      ),
      fcParams(15),
    );
  });

  it('R03.16 reconcile commit_pending of a commit that had landed (its answer lost) resolves the run without a second move', async (ctx) => {
    needCapability(ctx, t(), 'threadState', 'failpoints');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 }), fc.boolean(), async (before, restart) => {
        const th = await openThread(t());
        for (let i = 0; i < before; i++) await commitOne(th, `h${i}`, `history-${i}`, i);
        const ref = await th.store.write_native_state(th.scope, CODEC, payload('landed, answer lost'), 'lost');
        // The commit lands, its answer is lost: the worker cannot tell whether it is durable.
        await t().faults!.setFailpoint('state.commit.after', '1*return("unavailable")');
        try {
          await expectRejection(th.store.commit_head(th.scope, ref, before, 'run-lost'), ['unavailable']);
        } finally {
          await t().faults!.clearFailpoints();
        }
        const landed = summary(await th.store.load_head(th.scope));
        expect(landed?.revision).toBe(before + 1);
        const w = restart ? await lease(t(), th.owner, th.bindingId) : th;
        await w.store.mark_uncertain(w.scope, 'run-lost', 'commit_failed_after_output');
        expect((await w.store.run_status(w.scope, 'run-lost'))?.state).toBe('uncertain_durability');
        // The run is fenced: even the byte-identical retry of the commit that landed is refused, not
        // answered with the head as a success (the reconciliation must be explicit).
        await expectRejection(w.store.commit_head(w.scope, ref, before, 'run-lost'), ['fenced']);
        expect((await w.store.run_status(w.scope, 'run-lost'))?.state).toBe('uncertain_durability');
        expect(summary(await w.store.load_head(w.scope))).toEqual(landed);
        // Reconciled as the commit the run made (same pending, same expected revision): the same commit.
        const resolution = { action: 'commit_pending' as const, pending: ref, expectedDurableRevision: before };
        const record = await w.store.reconcile(w.scope, 'run-lost', resolution);
        expect({ runId: record.runId, state: record.state }).toEqual({ runId: 'run-lost', state: 'reconciled' });
        expect(await w.store.run_status(w.scope, 'run-lost')).toEqual(record);
        expect(summary(await w.store.load_head(w.scope))).toEqual(landed);
        expect(await w.store.reconcile(w.scope, 'run-lost', resolution)).toEqual(record);
        expect(summary(await w.store.load_head(w.scope))).toEqual(landed);
        // Reconciled, the run is resolved: the retry may stay fenced or be answered as the commit
        // that landed — either way the head does not move.
        const again = await w.store.commit_head(w.scope, ref, before, 'run-lost').then(
          (h) => summary(h),
          (e: unknown) => {
            expect(asContractError(e).code).toBe('fenced');
            return landed;
          },
        );
        expect(again).toEqual(landed);
        expect(summary(await w.store.load_head(w.scope))).toEqual(landed);
      }),
      fcParams(8),
    );
  });

  it('R03.13 retrying every protocol step after lost responses converges: one pending, one revision', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 2 }),
        fc.array(
          fc.record({
            writes: fc.integer({ min: 1, max: 3 }),
            commits: fc.integer({ min: 1, max: 3 }),
            restart: fc.boolean(),
          }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        bytesArb,
        async (before, steps, bytes) => {
          const th = await openThread(t());
          for (let i = 0; i < before; i++) await commitOne(th, `h${i}`, `history-${i}`, i);
          // One logical step of the protocol (write, then commit), each call repeated as if its
          // response had been lost, with the worker possibly restarting in between.
          let w = th;
          let expected = before;
          for (const [n, step] of steps.entries()) {
            const refs: PendingStateRef[] = [];
            for (let i = 0; i < step.writes; i++) {
              refs.push(await w.store.write_native_state(w.scope, CODEC, payload(bytes), `step-${n}`));
              if (step.restart) w = await lease(t(), th.owner, th.bindingId);
            }
            for (const r of refs) expect(r).toEqual(refs[0]);
            const heads: (DurableStateHead | null)[] = [];
            for (let i = 0; i < step.commits; i++) {
              heads.push(await w.store.commit_head(w.scope, refs[0]!, expected, `run-step-${n}`));
              if (step.restart) w = await lease(t(), th.owner, th.bindingId);
            }
            for (const h of heads) expect(summary(h)).toEqual(summary(heads[0]!));
            expected += 1;
            expect(heads[0]!.revision).toBe(expected);
          }
          expect((await w.store.load_head(w.scope))!.revision).toBe(before + steps.length);
        },
      ),
      fcParams(40),
    );
  });
});

describe('R03 duplicates at the entry bound', () => {
  // A bound that the duplicates' own first copy spends: with one entry left, the write that
  // takes it is a new key, and every duplicate of it must still be answered with its ref.
  const atBound = useTarget({ options: { stateLimits: { maxPendingEntries: 4 } } });

  it('R03.32 with one entry left, duplicates of the write that takes it, started in the same tick, all get its ref — the count bound counts stored entries, and a duplicate stores none', async (ctx) => {
    needCapability(ctx, atBound(), 'threadState');
    const target = atBound();
    const limits = target.stateLimits;
    if (!limits) return unsupportedByTarget(ctx, `target "${target.name}" does not declare stateLimits`);
    const max = limits.maxPendingEntries;
    if (max > 256) return unsupportedByTarget(ctx, 'entry bound above 256 is too large to fill for every case here');
    // As R03.17: each duplicate starts in the same tick after its own number of yields.
    const yieldsArb = fc.array(fc.nat({ max: 6 }), { minLength: 2, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(bytesArb, yieldsArb, async (bytes, yields) => {
        const th = await openThread(target);
        for (let i = 0; i < max - 1; i++) await writeWithinRate(target, th, `fill-${i}`, `entry-${i}`);
        const settled = await Promise.allSettled(
          yields.map(async (n) => {
            for (let i = 0; i < n; i++) await Promise.resolve();
            return th.store.write_native_state(th.scope, CODEC, payload(bytes), 'last-entry');
          }),
        );
        const refs: PendingStateRef[] = [];
        for (const [i, r] of settled.entries()) {
          if (r.status === 'fulfilled') {
            refs.push(r.value);
            continue;
          }
          const code = (r.reason as { code?: string } | null)?.code;
          // The write rate is another bound, not this clause's: a rate refusal is retried paced.
          if (code !== 'rate_limited') {
            throw new Error(
              `duplicate #${i} (after ${yields[i]} yields) of the write taking the last of ${max} entries was refused: ${code ?? String(r.reason)}`,
            );
          }
          refs.push(await writeWithinRate(target, th, 'last-entry', bytes));
        }
        for (const r of refs) expect(r).toEqual(refs[0]);
        expect(refs[0]?.idempotencyKey).toBe('last-entry');
        // One entry was taken, not one per duplicate: the bound is now exactly reached.
        await expectRejection(writeWithinRate(target, th, 'over', 'one too many'), ['entry_limit']);
        const head = await th.store.commit_head(th.scope, refs[0]!, 0, 'run-last-entry');
        expect(head.state).toEqual(refs[0]);
        expect(hex(head.payload.bytes)).toBe(hex(bytes));
      }),
      fcParams(20),
    );
  });
});
