/**
 * R04 — zero cross-binding, epoch, adapter, or lease-generation state access.
 *
 * A worker reaches exactly the binding, epoch, codec and lease generation its lease grants:
 * any other scope is rejected with the field's own code and leaks nothing; a zombie with an
 * old lease is fenced; after clear, old-epoch state can never become the head; size, entry
 * and write-rate bounds hold — and are the binding's, so a new lease, worker or run gets no fresh
 * budget; garbage never changes what is stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../contract/errors.js';
import type { DurableStateHead, PendingStateRef, StateScope, ThreadStateStore } from '../contract/state.js';
import type { Target } from '../contract/target.js';
import {
  BAD_BINDINGS_CALLS,
  type BadBindingsCall,
  badBindingsCallArb,
  invokeBadBindingsCall,
} from '../fixtures/arbitraries/bad-bindings-call.js';
import { badCallArb, invokeBadCall } from '../fixtures/arbitraries/bad-thread-state-call.js';
import { FIELD_ERROR, type FieldMutation, mutateScope } from '../fixtures/arbitraries/scope-mutation.js';
import { expectRejection } from '../fixtures/assertions/contract-error.js';
import { spellingVariants } from '../fixtures/memory/spelling-variants.js';
import { commandArbs, otherBindings, threadStateSetup } from '../fixtures/models/thread-state-commands.js';
import { commandsParams, fcParams } from '../fixtures/properties/fc-params.js';
import { codecVersionVariants } from '../fixtures/scenario/codec-versions.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { runSteps, within } from '../fixtures/scenario/process-faults.js';
import {
  CODEC,
  hex,
  lease,
  OTHER_CODEC,
  openThread,
  payload,
  SPEC,
  type ThreadSession,
} from '../fixtures/scenario/thread-session.js';
import { writeWithinRate } from '../fixtures/scenario/write-within-rate.js';
import { type UsedTarget, useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

function summary(h: DurableStateHead | null) {
  return h && { revision: h.revision, epoch: h.epoch, stateId: h.state.stateId, bytes: hex(h.payload.bytes) };
}

async function commitOne(th: ThreadSession, key: string, text: string, expected = 0): Promise<DurableStateHead> {
  const ref = await th.store.write_native_state(th.scope, CODEC, payload(text), key);
  return th.store.commit_head(th.scope, ref, expected, `run-${key}`);
}

/** Each scoped operation with otherwise valid arguments (fresh key/run, a real pending ref). */
function everyOperation(
  store: ThreadStateStore,
  scope: StateScope,
  ref: PendingStateRef,
  revision: number,
  tag: string,
): [string, () => Promise<unknown>][] {
  return [
    ['load_head', () => store.load_head(scope)],
    ['write_native_state', () => store.write_native_state(scope, CODEC, payload(`w-${tag}`), `key-${tag}`)],
    ['commit_head', () => store.commit_head(scope, ref, revision, `run-${tag}`)],
    ['mark_uncertain', () => store.mark_uncertain(scope, `run-u-${tag}`, 'worker_lost_after_output')],
    ['run_status', () => store.run_status(scope, `run-${tag}`)],
    ['reconcile', () => store.reconcile(scope, `run-${tag}`, { action: 'keep_previous' })],
  ];
}

describe('R04 zero cross-scope access', () => {
  it('R04.1 model: every operation with any scope field changed is rejected with that field’s code and changes nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    const other = await otherBindings(target);
    const a = commandArbs;
    const cmds = fc.commands(
      [
        a.mutatedScope,
        a.mutatedScope,
        a.mutatedScope,
        a.mutatedScope,
        a.load,
        a.write,
        a.commit,
        a.clear,
        a.acquire,
        a.acquire,
        a.markUncertain,
      ],
      commandsParams({ maxCommands: 40, size: 'medium' }),
    );
    await fc.assert(
      fc.asyncProperty(cmds, (c) => fc.asyncModelRun(threadStateSetup(target, other), c)),
      fcParams(120),
    );
  });

  it('R04.2 each scope field changed alone is rejected on every operation with its own code, leaking nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const head = await commitOne(th, 'base', 'committed');
    const ref = await th.store.write_native_state(th.scope, CODEC, payload('pending'), 'pending');
    const sibling = await t().bindings.open(th.owner, SPEC);
    const foreign = await t().bindings.open(t().principals.carol, SPEC);
    const other = { siblingBindingId: sibling.bindingId, foreignBindingId: foreign.bindingId };
    const single: FieldMutation[] = [
      { field: 'bindingId', to: 'sibling' },
      { field: 'bindingId', to: 'foreign' },
      { field: 'bindingId', to: 'unknown' },
      { field: 'environment', to: 'other' },
      { field: 'harness', to: 'other' },
      { field: 'epoch', to: 'newer' },
      { field: 'epoch', to: 'far' },
      { field: 'codec', to: 'registered' },
      { field: 'codec', to: 'next-version' },
      { field: 'leaseGeneration', to: 'older' },
      { field: 'leaseGeneration', to: 'newer' },
    ];
    let n = 0;
    const seen: string[] = [];
    for (const m of single) {
      const mutated = mutateScope(th.scope, [m], other);
      for (const [op, call] of everyOperation(th.store, mutated.scope, ref, head.revision, `m${n++}`)) {
        const e = await expectRejection(call(), [FIELD_ERROR[m.field]], [...mutated.secrets, th.bindingId]).catch(
          (err: Error) => {
            throw new Error(`${op} with ${m.field}:${m.to}: ${err.message}`);
          },
        );
        seen.push(`${op}/${m.field}:${e.category}`);
      }
    }
    expect(seen.length).toBe(single.length * 6);
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(head));
  });

  it('R04.32 the binding and codec are exact (“Reads and writes require exact binding, epoch, adapter codec…”): the binding’s own codec in another letter case, Unicode form or width, with whitespace around it, or as another version of it (a minor, pre-release or build suffix, a codec cut short), and its binding id in another Unicode form or width or with whitespace around it (not letter case: UUIDs are case-insensitive, RFC 9562), are refused on every operation, reading and writing nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const head = await commitOne(th, 'base', 'committed');
    const ref = await th.store.write_native_state(th.scope, CODEC, payload('pending'), 'pending');
    // The sentence names the binding and the codec; another environment or harness is R04.1–R04.2.
    const fields = ['codec', 'bindingId'] as const;
    let n = 0;
    const seen: string[] = [];
    for (const field of fields) {
      const own = th.scope[field];
      // A target may refuse a value outside its alphabet as bad input; it may never accept it.
      const codes: ErrorCode[] = [FIELD_ERROR[field], 'invalid_argument'];
      if (field === 'codec') codes.push('unknown_codec');
      // A binding id may be a UUID, which RFC 9562 reads case-insensitively: the same binding.
      const sameIdentity = (v: string) => v === own || (field === 'bindingId' && v.toLowerCase() === own.toLowerCase());
      const variants = [
        ...spellingVariants(own),
        `${own}\u200b`,
        // A codec of the same line, version range or prefix is another codec.
        ...(field === 'codec' ? codecVersionVariants(own) : []),
      ].filter((v) => !sameIdentity(v));
      expect(variants.length, `${field} ${own} has look-alike variants`).toBeGreaterThanOrEqual(3);
      for (const variant of variants) {
        const scope: StateScope = { ...th.scope, [field]: variant };
        for (const [op, call] of everyOperation(th.store, scope, ref, head.revision, `v${n++}`)) {
          // A variant inside the binding's own value (the codec cut short) may appear in a message naming that value.
          await expectRejection(call(), codes, own.includes(variant) ? [] : [variant]).catch((err: Error) => {
            throw new Error(
              `${op} with ${field} ${JSON.stringify(variant)} (binding’s ${JSON.stringify(own)}): ${err.message}`,
            );
          });
          seen.push(`${op}/${field}`);
        }
      }
    }
    expect(new Set(seen).size).toBe(fields.length * 6);
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(head));
    // The pending write is still the binding's and commits as the next head.
    const next = await th.store.commit_head(th.scope, ref, head.revision, 'run-after-variants');
    expect(next.revision).toBe(head.revision + 1);
  });

  it('R04.3 a lease reaches no other binding — the owner’s own or another tenant’s — and no one else reaches it', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    const a = await openThread(target);
    const b = await openThread(target); // alice's second thread
    const c = await openThread(target, target.principals.carol);
    const headB = await commitOne(b, 'b', 'bob-secret-state');
    const headC = await commitOne(c, 'c', 'carol-secret-state');
    for (const victim of [b, c]) {
      const refs = await victim.store.write_native_state(victim.scope, CODEC, payload('victim pending'), 'vp');
      for (const [op, call] of everyOperation(a.store, victim.scope, refs, 1, `x-${victim.bindingId.slice(-4)}`)) {
        await expectRejection(call(), ['scope_violation'], [victim.bindingId]).catch((err: Error) => {
          throw new Error(`${op} across bindings: ${err.message}`);
        });
      }
      // Editing the session object does not help: the credential decides what it grants.
      const forged = target.threadState({ credential: a.session.credential, scope: victim.scope });
      await expectRejection(forged.load_head(victim.scope), ['scope_violation']);
      // Nor does presenting a ref of the other binding under one's own scope.
      const own = await a.store.write_native_state(a.scope, CODEC, payload('a'), `own-${victim.bindingId.slice(-4)}`);
      await expectRejection(a.store.commit_head(a.scope, refs, 0, 'run-steal'), ['pending_not_found']);
      await a.store.commit_head(
        a.scope,
        own,
        (await a.store.load_head(a.scope))?.revision ?? 0,
        `run-own-${victim.bindingId.slice(-4)}`,
      );
    }
    expect(summary(await b.store.load_head(b.scope))).toEqual(summary(headB));
    expect(summary(await c.store.load_head(c.scope))).toEqual(summary(headC));
    // Other principals can't see, clear or lease the binding.
    for (const intruder of [target.principals.bob, target.principals.carol, target.principals.adminA]) {
      const deny: ErrorCode[] = ['not_found', 'forbidden'];
      await expectRejection(target.bindings.get(intruder, b.bindingId), deny, [b.bindingId]);
      await expectRejection(target.bindings.clear(intruder, b.bindingId), deny, [b.bindingId]);
      await expectRejection(target.bindings.acquireLease(intruder, b.bindingId), deny, [b.bindingId]);
    }
    const anonymous = { ...target.principals.alice, credential: target.principals.anonymousCredential };
    await expectRejection(target.bindings.acquireLease(anonymous, b.bindingId), ['unauthenticated']);
    const info = await target.bindings.get(b.owner, b.bindingId);
    expect({ epoch: info.epoch, leaseGeneration: info.leaseGeneration }).toEqual({
      epoch: b.scope.epoch,
      leaseGeneration: b.scope.leaseGeneration,
    });
  });

  it('R04.4 a zombie worker with an old lease is fenced on every operation and changes nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    const zombie = await openThread(target);
    const head = await commitOne(zombie, 'z0', 'before the new lease');
    const inFlight = await zombie.store.write_native_state(zombie.scope, CODEC, payload('in flight'), 'z1');
    await zombie.store.mark_uncertain(zombie.scope, 'run-z-uncertain', 'worker_lost_after_output');
    const fresh = await lease(target, zombie.owner, zombie.bindingId);
    expect(fresh.scope.leaseGeneration).toBeGreaterThan(zombie.scope.leaseGeneration);
    const ops = [
      ...everyOperation(zombie.store, zombie.scope, inFlight, head.revision, 'zombie'),
      [
        'reconcile uncertain',
        () => zombie.store.reconcile(zombie.scope, 'run-z-uncertain', { action: 'keep_previous' }),
      ],
      ['write same key', () => zombie.store.write_native_state(zombie.scope, CODEC, payload('in flight'), 'z1')],
    ] as [string, () => Promise<unknown>][];
    for (const [op, call] of ops) {
      await expectRejection(call(), ['stale_lease']).catch((err: Error) => {
        throw new Error(`zombie ${op}: ${err.message}`);
      });
    }
    // Nothing the zombie tried is visible to the current lease.
    expect(summary(await fresh.store.load_head(fresh.scope))).toEqual(summary(head));
    expect(await fresh.store.run_status(fresh.scope, 'run-zombie')).toBeNull();
    expect(await fresh.store.run_status(fresh.scope, 'run-u-zombie')).toBeNull();
    expect((await fresh.store.run_status(fresh.scope, 'run-z-uncertain'))?.state).toBe('uncertain_durability');
    // A third lease fences the second as well.
    const third = await lease(target, zombie.owner, zombie.bindingId);
    await expectRejection(fresh.store.load_head(fresh.scope), ['stale_lease']);
    expect(summary(await third.store.load_head(third.scope))).toEqual(summary(head));
  });

  it('R04.5 after clear, old-epoch state can never become the head', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 }), async (epochs, extra) => {
        const th = await openThread(target);
        const old: { ref: PendingStateRef; th: ThreadSession }[] = [];
        let cur = th;
        for (let e = 0; e < epochs; e++) {
          const ref = await cur.store.write_native_state(cur.scope, CODEC, payload(`epoch-${e}`), 'same-key');
          await cur.store.commit_head(cur.scope, ref, 0, `run-e${e}`);
          old.push({ ref, th: cur });
          for (let i = 0; i < extra; i++) {
            old.push({ ref: await cur.store.write_native_state(cur.scope, CODEC, payload(`p${i}`), `p${i}`), th: cur });
          }
          await target.bindings.clear(th.owner, th.bindingId);
          cur = await lease(target, th.owner, th.bindingId);
        }
        expect(await cur.store.load_head(cur.scope)).toBeNull();
        await cur.store.mark_uncertain(cur.scope, 'run-reconcile', 'commit_failed_after_output');
        for (const { ref, th: then } of old) {
          await expectRejection(cur.store.commit_head(cur.scope, ref, 0, 'run-revive'), ['pending_not_found']);
          await expectRejection(
            cur.store.reconcile(cur.scope, 'run-reconcile', {
              action: 'commit_pending',
              pending: ref,
              expectedDurableRevision: 0,
            }),
            ['pending_not_found'],
          );
          // The lease of the old epoch is fenced too.
          await expectRejection(then.store.commit_head(then.scope, ref, 1, 'run-old'), [
            'epoch_mismatch',
            'stale_lease',
          ]);
          await expectRejection(then.store.load_head(then.scope), ['epoch_mismatch', 'stale_lease']);
        }
        expect(await cur.store.load_head(cur.scope)).toBeNull();
        // Keys are per epoch: the same key in the new epoch is new state, committable at revision 1.
        const again = await cur.store.write_native_state(cur.scope, CODEC, payload('epoch-0'), 'same-key');
        expect(again.epoch).toBe(cur.scope.epoch);
        expect(old.some((o) => o.ref.stateId === again.stateId)).toBe(false);
        const head = await cur.store.commit_head(cur.scope, again, 0, 'run-new');
        expect({ epoch: head.epoch, revision: head.revision }).toEqual({ epoch: cur.scope.epoch, revision: 1 });
      }),
      fcParams(25),
    );
  });

  it('R04.6 codecs: unknown codec, a codec other than the binding’s, or a payload of another codec are rejected', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const head = await commitOne(th, 'c0', 'scripted state');
    await expectRejection(th.store.write_native_state(th.scope, 'nope/v0', payload('x', 'nope/v0'), 'u1'), [
      'unknown_codec',
    ]);
    await expectRejection(th.store.write_native_state(th.scope, CODEC, payload('x', 'nope/v0'), 'u2'), [
      'unknown_codec',
      'codec_mismatch',
    ]);
    await expectRejection(th.store.write_native_state(th.scope, CODEC, payload('x', OTHER_CODEC), 'u3'), [
      'codec_mismatch',
    ]);
    let other: ThreadSession;
    try {
      other = await openThread(t(), th.owner, { ...SPEC, codec: OTHER_CODEC });
    } catch {
      return unsupportedByTarget(ctx, `the target has no second codec (${OTHER_CODEC}) to test codec mismatch with`);
    }
    await expectRejection(th.store.write_native_state(th.scope, OTHER_CODEC, payload('x', OTHER_CODEC), 'u4'), [
      'codec_mismatch',
    ]);
    const foreignCodecRef = await other.store.write_native_state(
      other.scope,
      OTHER_CODEC,
      payload('y', OTHER_CODEC),
      'o1',
    );
    await expectRejection(th.store.commit_head(th.scope, foreignCodecRef, 1, 'run-o'), ['pending_not_found']);
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(head));
  });

  it('R04.7 an unknown or forged session credential is unauthenticated on every operation', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    const th = await openThread(target);
    const ref = await th.store.write_native_state(th.scope, CODEC, payload('p'), 'k');
    const forgeries = [
      { scope: th.scope, credential: `${th.session.credential}x` },
      { scope: th.scope, credential: th.session.credential.slice(0, -1) },
      { scope: th.scope, credential: th.session.credential.slice(0, 1) },
      { scope: th.scope, credential: target.principals.anonymousCredential },
      { scope: th.scope, credential: th.owner.credential },
    ].filter((f) => f.credential !== '' && f.credential !== th.session.credential);
    for (const forged of forgeries) {
      for (const [op, call] of everyOperation(target.threadState(forged), th.scope, ref, 0, 'forged')) {
        await expectRejection(call(), ['unauthenticated'], [forged.credential]).catch((err: Error) => {
          throw new Error(`${op} with a forged credential: ${err.message}`);
        });
      }
    }
    expect(await th.store.load_head(th.scope)).toBeNull();
  });

  it('R04.8 bad input: garbage through every operation is a contract error and never changes stored state', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    const th = await openThread(target);
    const head = await commitOne(th, 'stable', 'the durable state');
    const pending = await th.store.write_native_state(th.scope, CODEC, payload('pending bytes'), 'pending');
    await th.store.mark_uncertain(th.scope, 'run-uncertain', 'write_failed_after_output');
    const carol = await openThread(target, target.principals.carol);
    const foreignRef = await carol.store.write_native_state(carol.scope, CODEC, payload('foreign'), 'foreign');
    let n = 0;
    const bctx = {
      target,
      session: th.session,
      store: th.store,
      scope: th.scope,
      pending,
      foreignRef,
      revision: head.revision,
      uncertainRunId: 'run-uncertain',
      fresh: () => String(n++),
    };
    await fc.assert(
      fc.asyncProperty(badCallArb, async (call) => {
        const e = await expectRejection(invokeBadCall(call, bctx));
        expect(e.category).not.toBe('internal');
        expect(summary(await th.store.load_head(th.scope))).toEqual(summary(head));
        // What was stored is unchanged: the same write returns the same ref, the run is still uncertain.
        expect(await th.store.write_native_state(th.scope, CODEC, payload('pending bytes'), 'pending')).toEqual(
          pending,
        );
        expect((await th.store.run_status(th.scope, 'run-uncertain'))?.state).toBe('uncertain_durability');
      }),
      fcParams(400),
    );
  });

  it('R04.14 bad input on the bindings surface: garbage to open, get, clear or acquireLease is a contract error and opens, clears or leases nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    const th = await openThread(target);
    const head = await commitOne(th, 'stable', 'the durable state');
    const before = await target.bindings.get(th.owner, th.bindingId);
    const check = async (call: BadBindingsCall) => {
      const e = await expectRejection(invokeBadBindingsCall(call, target, th.owner), call.codes).catch((err: Error) => {
        throw new Error(`${call.op} with ${call.desc}: ${err.message}`);
      });
      expect(e.category).not.toBe('internal');
      // Nothing moved: same epoch and lease generation, and the current lease still works.
      expect(await target.bindings.get(th.owner, th.bindingId)).toEqual(before);
      expect(summary(await th.store.load_head(th.scope))).toEqual(summary(head));
    };
    for (const call of BAD_BINDINGS_CALLS) await check(call);
    await fc.assert(fc.asyncProperty(badBindingsCallArb, check), fcParams(200));
  });
});

/** The target's declared bounds, or "not run" when it declares none or they are too large to exercise. */
function boundsOf(ctx: Parameters<typeof unsupportedByTarget>[0], used: UsedTarget) {
  const limits = used().stateLimits;
  if (!limits) return unsupportedByTarget(ctx, `target "${used().name}" does not declare stateLimits`);
  return limits;
}

/** `n` fresh idempotency keys. */
function keys(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}`);
}

/**
 * New writes under `th`, in concurrent waves (so a target behind a network hop can still be
 * driven past its bound): how many were accepted, and the keys refused as `rate_limited` (any
 * other answer fails).
 */
async function burst(
  th: ThreadSession,
  writeKeys: readonly string[],
): Promise<{ accepted: number; limited: string[] }> {
  const WAVE = 16;
  let accepted = 0;
  const limited: string[] = [];
  for (let i = 0; i < writeKeys.length; i += WAVE) {
    const wave = writeKeys.slice(i, i + WAVE);
    const results = await Promise.allSettled(
      wave.map((k) => th.store.write_native_state(th.scope, CODEC, payload(`burst-${k}`), k)),
    );
    for (const [j, r] of results.entries()) {
      if (r.status === 'fulfilled') accepted++;
      else {
        await expectRejection(Promise.reject(r.reason), ['rate_limited']);
        limited.push(wave[j]!);
      }
    }
  }
  return { accepted, limited };
}

describe('R04 bounds', () => {
  const small = useTarget({ options: { stateLimits: { maxPayloadBytes: 2048, maxPendingEntries: 12 } } });
  // A bound low enough that its whole burst (2 × rate + 5 writes) goes out in one concurrent wave:
  // with 20/s the burst took several waves, and a slow backend (FerretDB under load) finished each
  // wave only as fast as the bucket refilled, so the bound was never reached and R04.11 was not run.
  const slow = useTarget({ options: { stateLimits: { maxWritesPerSecond: 5, maxPendingEntries: 200 } } });

  it('R04.9 the payload size bound: exactly the bound is accepted, one byte more is payload_too_large and stores nothing', async (ctx) => {
    needCapability(ctx, small(), 'threadState');
    const { maxPayloadBytes: max } = boundsOf(ctx, small);
    if (max > 64 * 1024 * 1024) return unsupportedByTarget(ctx, 'payload bound above 64 MiB is too large to exercise');
    const th = await openThread(small());
    const fits = await th.store.write_native_state(th.scope, CODEC, payload(new Uint8Array(max).fill(7)), 'fits');
    expect(fits.size).toBe(max);
    await expectRejection(
      th.store.write_native_state(th.scope, CODEC, payload(new Uint8Array(max + 1).fill(8)), 'too-big'),
      ['payload_too_large'],
    );
    // Nothing was stored under the rejected key: it is free for other content.
    const after = await th.store.write_native_state(th.scope, CODEC, payload('small'), 'too-big');
    expect(after.size).toBe(5);
    expect(await th.store.load_head(th.scope)).toBeNull();
  });

  it('R04.10 the entry-count bound: entry_limit past the bound, duplicates still answered, a new epoch starts afresh', async (ctx) => {
    needCapability(ctx, small(), 'threadState');
    const { maxPendingEntries: max } = boundsOf(ctx, small);
    if (max > 5000) return unsupportedByTarget(ctx, 'entry bound above 5000 is too large to exercise');
    const target = small();
    const th = await openThread(target);
    const refs: PendingStateRef[] = [];
    for (let i = 0; i < max; i++) refs.push(await writeWithinRate(target, th, `e${i}`, `entry-${i}`));
    await expectRejection(th.store.write_native_state(th.scope, CODEC, payload('one too many'), 'over'), [
      'entry_limit',
    ]);
    expect(await th.store.write_native_state(th.scope, CODEC, payload('entry-0'), 'e0')).toEqual(refs[0]);
    const head = await th.store.commit_head(th.scope, refs[max - 1]!, 0, 'run-last');
    expect(head.state).toEqual(refs[max - 1]);
    await target.bindings.clear(th.owner, th.bindingId);
    const next = await lease(target, th.owner, th.bindingId);
    const fresh = await writeWithinRate(target, next, 'over', 'new epoch');
    expect(fresh.epoch).toBe(next.scope.epoch);
  });

  it('R04.11 the write-rate bound: a burst past it is rate_limited, and a limited write stores nothing', async (ctx) => {
    needCapability(ctx, slow(), 'threadState');
    const { maxWritesPerSecond: rate, maxPendingEntries } = boundsOf(ctx, slow);
    const attempts = 2 * rate + 5;
    if (rate > 2000) return unsupportedByTarget(ctx, 'write-rate bound above 2000/s is too large to exercise');
    if (maxPendingEntries < attempts + 1 + 3 * (3 * rate + 1)) {
      return unsupportedByTarget(ctx, 'entry bound is below what the rate test needs');
    }
    const th = await openThread(slow());
    const started = performance.now();
    const { accepted, limited } = await burst(th, keys('b', attempts));
    const elapsedS = (performance.now() - started) / 1000;
    // The bound (contract/state.ts StateLimits): at most rate × (1 + s) writes in s seconds.
    const allowed = Math.floor(rate * (1 + elapsedS)) + 1;
    expect(accepted).toBeLessThanOrEqual(allowed);
    if (limited.length === 0 && attempts <= allowed) {
      return unsupportedByTarget(
        ctx,
        `the kit could not drive writes past the declared bound (${attempts} writes took ${elapsedS.toFixed(2)} s at ${rate}/s)`,
      );
    }
    expect(limited.length).toBeGreaterThan(0);
    // After the bucket refills, the limited key is free: the rejected write left nothing behind.
    await new Promise((r) => setTimeout(r, Math.ceil(2000 / rate) + 20));
    const ref = await th.store.write_native_state(th.scope, CODEC, payload('different content'), limited[0]!);
    expect(ref.idempotencyKey).toBe(limited[0]);

    // No budget banked while idle (bug bash 4, state 04): after idle periods of several lengths a
    // burst of three seconds' budget gets at most rate × (1 + ⌈E⌉) writes over its window of E
    // seconds — what a token bucket (capacity = rate), a sliding window or a fixed per-second window
    // may admit, so no per-second limiter is failed; one that banks idle time admits its backlog.
    // E is measured on the target's clock when it exposes one (idling is then advancing it), else
    // on the kit's, which encloses the target's window.
    const clock = slow().clock;
    const now = async () => (clock ? await clock.now() : performance.now());
    const idle = (ms: number) => (clock ? clock.advance(ms) : new Promise<void>((r) => setTimeout(r, ms)));
    const idles = clock ? [2_000, 10_000, 60_000] : [1_500, 3_000];
    for (const [i, idleMs] of idles.entries()) {
      await idle(idleMs);
      const t0 = await now();
      const { accepted: got } = await burst(th, keys(`i${i}-`, 3 * rate + 1));
      const elapsedMs = (await now()) - t0 + (clock ? 0 : 1);
      const allowed = rate * (1 + Math.ceil(elapsedMs / 1000));
      expect(
        got,
        `after ${idleMs / 1000} s idle: ${got} writes accepted in ${elapsedMs} ms at ${rate}/s (at most ${allowed} over that window)`,
      ).toBeLessThanOrEqual(allowed);
    }

    // Refused writes earn nothing (bug bash 11, state-03): writes retried faster than the refill
    // for two seconds on a fresh binding — most of them refused — still get at most
    // rate × (1 + ⌈E⌉) accepted over their window. A bucket that credits the time since its last
    // admitted write on every refused attempt admits many times that.
    const pressed = await openThread(slow());
    const p0 = await now();
    const wall0 = performance.now();
    // More writes per step than a step refills (a twentieth of a second), at any declared rate.
    const perStep = Math.min(200, Math.max(clock ? 10 : 4, Math.ceil(rate / 10)));
    let pressedGot = 0;
    for (let step = 0; step < 200; step++) {
      if (clock ? step >= 40 : (await now()) - p0 >= 2_000) break;
      const { accepted: got } = await burst(pressed, keys(`p${step}-`, perStep));
      pressedGot += got;
      if (clock) await clock.advance(50);
    }
    // The longer of the target's clock and the kit's: a limiter on either has refilled no more.
    const pressedMs = Math.max((await now()) - p0, performance.now() - wall0) + 1;
    const pressedAllowed = rate * (1 + Math.ceil(pressedMs / 1000));
    expect(
      pressedGot,
      `writes retried faster than the refill: ${pressedGot} accepted in ${pressedMs} ms at ${rate}/s (at most ${pressedAllowed} over that window)`,
    ).toBeLessThanOrEqual(pressedAllowed);
  });

  it('R04.17 the write-rate bound is the binding’s: a new lease, a new worker’s store or a run on the binding gets no fresh budget', async (ctx) => {
    needCapability(ctx, slow(), 'threadState');
    const target = slow();
    const { maxWritesPerSecond: rate, maxPendingEntries } = boundsOf(ctx, slow);
    const first = 2 * rate + 5;
    const then = rate + 5;
    if (rate > 2000) return unsupportedByTarget(ctx, 'write-rate bound above 2000/s is too large to exercise');
    if (maxPendingEntries < first + 3 * then) {
      return unsupportedByTarget(ctx, 'entry bound is below what the rate test needs');
    }
    // What happens between spending the budget and the next burst, each on a binding of its own:
    // new leases (each a new worker session with a store of its own), or a run on the binding
    // (the control plane takes its own lease and writes) and then a new lease.
    const changes: (readonly ('lease' | 'run')[])[] = [['lease'], ['lease', 'lease', 'lease']];
    if (target.capabilities.runs && target.runs) changes.push(['run', 'lease']);
    for (const change of changes) {
      const what = change.join(' → ');
      const th = await openThread(target);
      const started = performance.now();
      const spent = await burst(th, keys('a', first));
      let accepted = spent.accepted;
      if (spent.limited.length === 0) {
        const elapsedS = (performance.now() - started) / 1000;
        expect(accepted).toBeLessThanOrEqual(Math.floor(rate * (1 + elapsedS)) + 1);
        return unsupportedByTarget(
          ctx,
          `the kit could not drive writes past the declared bound (${first} writes took ${elapsedS.toFixed(2)} s at ${rate}/s)`,
        );
      }
      const limitedAfter: { th: ThreadSession; key: string }[] = [];
      for (const [i, step] of change.entries()) {
        if (step === 'run') {
          // Whatever the run's outcome (its own write may be refused): it is not counted, so the
          // bound below only grows more lenient for it.
          await within(45_000, 'a run on the binding', runSteps(target, th.owner, th.bindingId, []));
          continue;
        }
        const next = await lease(target, th.owner, th.bindingId);
        const r = await burst(next, keys(`l${i}-`, then));
        accepted += r.accepted;
        limitedAfter.push(...r.limited.map((key) => ({ th: next, key })));
      }
      // The declared bound over the whole window, lease changes and refill included: at most
      // rate × (1 + s) writes of the binding in s seconds, whichever lease wrote them.
      const elapsedS = (performance.now() - started) / 1000;
      const allowed = Math.floor(rate * (1 + elapsedS)) + 1;
      expect(
        accepted,
        `${what}: ${accepted} writes of one binding accepted in ${elapsedS.toFixed(2)} s at ${rate}/s (the bound allows ${allowed}) — a new lease got a fresh budget`,
      ).toBeLessThanOrEqual(allowed);
      // A write refused after the change stored nothing: once refilled, its key takes other content.
      const refused = limitedAfter.at(-1);
      if (refused) {
        await new Promise((r) => setTimeout(r, Math.ceil(2000 / rate) + 20));
        const ref = await refused.th.store.write_native_state(
          refused.th.scope,
          CODEC,
          payload('content after refill'),
          refused.key,
        );
        expect({ key: ref.idempotencyKey, size: ref.size }).toEqual({ key: refused.key, size: 20 });
      }
    }
  });

  it('R04.18 the entry-count and size bounds are the binding’s: a new lease finds the entry bound still reached and the payload bound unchanged', async (ctx) => {
    needCapability(ctx, small(), 'threadState');
    const { maxPendingEntries: max, maxPayloadBytes } = boundsOf(ctx, small);
    if (max > 5000) return unsupportedByTarget(ctx, 'entry bound above 5000 is too large to exercise');
    if (maxPayloadBytes > 64 * 1024 * 1024) {
      return unsupportedByTarget(ctx, 'payload bound above 64 MiB is too large to exercise');
    }
    const target = small();
    const tooBig = (th: ThreadSession, key: string) =>
      th.store.write_native_state(th.scope, CODEC, payload(new Uint8Array(maxPayloadBytes + 1).fill(8)), key);
    for (const changes of [1, 3]) {
      const th = await openThread(target);
      await expectRejection(tooBig(th, 'too-big'), ['payload_too_large']);
      const refs: PendingStateRef[] = [];
      for (let i = 0; i < max - 1; i++) refs.push(await writeWithinRate(target, th, `e${i}`, `entry-${i}`));
      let cur = th;
      for (let i = 0; i < changes; i++) {
        cur = await lease(target, th.owner, th.bindingId);
        if (i === 0) {
          // The payload bound is the same under the new lease (one entry left, so no other bound applies).
          await expectRejection(tooBig(cur, 'too-big-new-lease'), ['payload_too_large']).catch((err: Error) => {
            throw new Error(`after a new lease, one byte over the payload bound: ${err.message}`);
          });
          const fits = cur.store.write_native_state(cur.scope, CODEC, payload(new Uint8Array(maxPayloadBytes)), 'last');
          expect((await fits).size).toBe(maxPayloadBytes);
        }
        // The bound is reached: a new key is refused under the new lease, a duplicate still answered.
        await expectRejection(cur.store.write_native_state(cur.scope, CODEC, payload(`over-${i}`), `over-${i}`), [
          'entry_limit',
        ]).catch((err: Error) => {
          throw new Error(`after ${i + 1} new lease(s), a write past the entry bound reached before: ${err.message}`);
        });
        expect(await cur.store.write_native_state(cur.scope, CODEC, payload('entry-0'), 'e0')).toEqual(refs[0]);
      }
    }
  });
});
