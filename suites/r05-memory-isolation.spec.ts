/**
 * R05 — user/agent/organization memory isolation and default policies.
 *
 * Namespaces come from the authenticated credential and agent only: no principal ever sees,
 * changes or learns anything about another's records (through results, errors, counts, scores
 * or ordering), a Principal object dressed up as someone else acts as its credential's owner,
 * and scope claims for another subject or organization are refused. Agent scope is read-only
 * unless shared learning is enabled; organization scope is written by application/admin only.
 * Ranking is per namespace: other tenants' data never moves a tenant's scores. Results are
 * bounded and carry provenance.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryBroker, MemoryKind, MemoryQuery, MemoryRecord, MemoryScope } from '../contract/memory.js';
import type { Principal } from '../contract/principals.js';
import type { Target } from '../contract/target.js';
import { asContractError, expectRejection } from '../fixtures/assertions/contract-error.js';
import { PROBE_HOSTS, PROBE_TOOLS } from '../fixtures/memory/authority-probes.js';
import {
  describeOp,
  finalReads,
  type MemoryOp,
  memoryOpsArb,
  OBSERVER,
  runOps,
} from '../fixtures/memory/isolation-ops.js';
import { AGENT, freshKey, note, ORG, USER, uniqueWord } from '../fixtures/memory/memory-proposal.js';
import { spellingVariants } from '../fixtures/memory/spelling-variants.js';
import { fcParams } from '../fixtures/properties/fc-params.js';
import { forgedHandle, labelsOtherThan, MISMATCH_REFUSALS, unlessRefused } from '../fixtures/scenario/forged-handle.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { withFreshTarget } from '../fixtures/targets/fresh-target.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();
const shared = useTarget({ options: { sharedLearning: true } });

/**
 * How many matching records the other tenants write in the ranking test: 5000, unless the target
 * is so slow that they would take longer than the budget (then as many as fit, at least 1000;
 * the count used is in the test's annotation).
 */
const OTHER_TENANT_RECORDS = Number(process.env.SMTC_R05_OTHER_RECORDS ?? '5000');
const OTHER_TENANT_BUDGET_MS = 30_000;
const OTHER_TENANT_MIN = Math.min(1000, OTHER_TENANT_RECORDS);
/** Other-tenant writes in flight at once. */
const OTHER_TENANT_WRITERS = 8;

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

function written(o: Awaited<ReturnType<ReturnType<Target['memory']>['put']>>): MemoryRecord {
  if (o.status !== 'written') throw new Error(`expected a written outcome, got ${JSON.stringify(o)}`);
  return o.record;
}

function ranking(results: readonly MemoryRecord[]): Array<[string, number | undefined]> {
  return results.map((r) => [r.key, r.score]);
}

describe('R05 memory isolation and default policies', () => {
  it('R05.1 a user record is invisible to every other principal and agent: get, search, put and delete by key guessing', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const [alpha, beta] = p.agents;
    const key = freshKey('private');
    const word = uniqueWord();
    const mine = written(
      await t()
        .memory(p.alice, alpha)
        .put(USER, note(key, `alice keeps ${word} here`), null),
    );
    for (const other of [p.bob, p.carol, p.adminA, p.adminB, p.approverA]) {
      const m = t().memory(other, alpha);
      expect(await m.get(USER, key)).toBeNull();
      expect(await m.search(USER, { text: word }, 10)).toEqual([]);
      // Guessing the key to delete or create it touches only the guesser's own namespace.
      expect(await m.delete(USER, key, mine.revision)).toEqual({ status: 'conflict', currentRevision: 0 });
      const theirs = written(await m.put(USER, note(key, `${other.id} own note`), null));
      expect(theirs.revision).toBeGreaterThanOrEqual(1);
      expect(theirs.provenance.writer).toBe(other.id);
    }
    // The agent is part of the namespace too.
    expect(await t().memory(p.alice, beta).get(USER, key)).toBeNull();
    expect(await t().memory(p.alice, beta).search(USER, { text: word }, 10)).toEqual([]);
    const still = await t().memory(p.alice, alpha).get(USER, key);
    expect(still?.content).toBe(`alice keeps ${word} here`);
    expect(still?.revision).toBe(mine.revision);
  });

  it('R05.2 property: no sequence of operations by others changes anything alice observes, and vice versa (results, errors, counts, scores, order)', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    // Three targets for the whole property: everyone's operations, alice's alone, the others'
    // alone. Every run replays the same operations on the matching targets, so their histories
    // stay identical and any difference a run observes comes from that run.
    await withFreshTarget(undefined, (mixed) =>
      withFreshTarget(undefined, (aliceAlone) =>
        withFreshTarget(undefined, async (othersAlone) => {
          let run = 0;
          await fc.assert(
            fc.asyncProperty(memoryOpsArb(28), async (ops) => {
              run += 1;
              const tag = `run${run}`;
              const all = [...ops, ...finalReads()];
              const mine = all.flatMap((o, i) => (o.actor === OBSERVER ? [i] : []));
              const theirs = all.flatMap((o, i) => (o.actor !== OBSERVER ? [i] : []));
              const seen = await runOps(mixed, all, tag);
              const alone = await runOps(
                aliceAlone,
                mine.map((i) => all[i]!),
                tag,
              );
              const others = await runOps(
                othersAlone,
                theirs.map((i) => all[i]!),
                tag,
              );
              const check = (indices: number[], solo: string[], who: string) => {
                indices.forEach((i, j) => {
                  if (seen[i] !== solo[j]) {
                    throw new Error(
                      `${who} observed a difference at operation ${i} (${describeOp(all[i]!)}):\n` +
                        `  with the others' operations: ${seen[i]}\n  without them:               ${solo[j]}`,
                    );
                  }
                });
              };
              check(mine, alone, 'alice');
              check(theirs, others, 'the others');
            }),
            fcParams(25),
          );
        }),
      ),
    );
  });

  it('R05.11 property: alice and the others operating at the same time, calls interleaved inside the target, observe exactly what each observes alone', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    // R05.2 with the two sides in flight together: alice's operations in one chain, the others'
    // in another, both started in the same tick and each operation after its own few yields, so
    // inside an implementation a call of one tenant runs between the awaits of another's. What
    // a call acts as must come from its own credential, never from whoever called last.
    const plan = fc.record({ ops: memoryOpsArb(20), yields: fc.array(fc.nat({ max: 4 }), { maxLength: 160 }) });
    await withFreshTarget(undefined, (mixed) =>
      withFreshTarget(undefined, (aliceAlone) =>
        withFreshTarget(undefined, async (othersAlone) => {
          let run = 0;
          await fc.assert(
            fc.asyncProperty(plan, async ({ ops, yields }) => {
              run += 1;
              const tag = `together${run}`;
              const all = [...ops, ...finalReads()];
              const mine = all.filter((o) => o.actor === OBSERVER);
              const theirs = all.filter((o) => o.actor !== OBSERVER);
              const pause = (i: number) => yields[i % Math.max(1, yields.length)] ?? 0;
              const [seenMine, seenTheirs] = await Promise.all([
                runOps(mixed, mine, tag, pause),
                runOps(mixed, theirs, tag, (i) => pause(i + 1)),
              ]);
              const alone = await runOps(aliceAlone, mine, tag);
              const others = await runOps(othersAlone, theirs, tag);
              const check = (ops: readonly MemoryOp[], seen: string[], solo: string[], who: string) => {
                ops.forEach((op, i) => {
                  if (seen[i] !== solo[i]) {
                    throw new Error(
                      `${who} observed a difference at their operation ${i} (${describeOp(op)}):\n` +
                        `  with the others' operations in flight: ${seen[i]}\n  alone:                                ${solo[i]}`,
                    );
                  }
                });
              };
              check(mine, seenMine, alone, 'alice');
              check(theirs, seenTheirs, others, 'the others');
            }),
            fcParams(10),
          );
        }),
      ),
    );
  });

  it('R05.3 a Principal object dressed up as someone else acts as its credential’s owner (or is refused)', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const agent = p.agents[0];
    const key = freshKey('forged');
    written(await t().memory(p.bob, agent).put(USER, note(key, 'bob private note'), null));
    written(await t().memory(p.alice, agent).put(USER, note(key, 'alice private note'), null));
    const disguises: Principal[] = [
      { ...p.bob, credential: p.alice.credential },
      { ...p.carol, credential: p.alice.credential },
      { ...p.adminA, credential: p.alice.credential },
    ];
    // Refusing a handle whose labels are not its credential's owner is as good (R05.12).
    for (const forged of disguises) {
      const m = t().memory(forged, agent);
      const got = await unlessRefused(m.get(USER, key), MISMATCH_REFUSALS, ['bob private note']);
      if (got) expect(got.value?.content).toBe('alice private note');
      // Forged admin roles grant nothing: organization scope stays read-only for alice.
      await expectRejection(m.put(ORG, note(freshKey('forged-org'), 'org note'), null), [
        'read_only_scope',
        ...MISMATCH_REFUSALS,
      ]);
      const w = await unlessRefused(m.put(USER, note(freshKey('forged-w'), 'written while dressed up'), null));
      if (w) expect(written(w.value).provenance.writer).toBe(p.alice.id);
    }
    const bobs = await unlessRefused(
      t()
        .memory({ ...p.alice, credential: p.bob.credential }, agent)
        .get(USER, key),
      MISMATCH_REFUSALS,
      ['alice private note'],
    );
    if (bobs) expect(bobs.value?.content).toBe('bob private note');
    await expectRejection(
      t()
        .memory({ ...p.alice, credential: p.anonymousCredential }, agent)
        .get(USER, key),
      ['unauthenticated'],
    );
  });

  it('R05.12 a handle with another identity’s labels (another organization’s user or admin, the internal service, approver, admin) reaches only its credential’s namespaces, or is refused; with no valid credential — none, or one a character off a real one — it is unauthenticated', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const agent = p.agents[0];
    const key = freshKey('handle');
    const word = uniqueWord();
    const content = {
      aliceUser: `alice keeps ${word} private`,
      carolUser: `carol keeps ${word} private`,
      orgA: `org a ${word} policy`,
      orgB: `org b ${word} policy`,
    };
    written(await t().memory(p.alice, agent).put(USER, note(key, content.aliceUser), null));
    written(await t().memory(p.carol, agent).put(USER, note(key, content.carolUser), null));
    written(await t().memory(p.adminA, agent).put(ORG, note(key, content.orgA), null));
    written(await t().memory(p.adminB, agent).put(ORG, note(key, content.orgB), null));
    const foreign = [content.carolUser, content.orgB, p.carol.subject, p.carol.organization];
    const readsOwn = async (who: string, m: MemoryBroker, scope: MemoryScope, own: string) => {
      const got = await unlessRefused(m.get(scope, key), MISMATCH_REFUSALS, foreign);
      if (got) expect(got.value?.content, `${who}: get in ${scope.kind} scope`).toBe(own);
      const found = await unlessRefused(m.search(scope, { text: word }, 10), MISMATCH_REFUSALS, foreign);
      if (found)
        expect(
          found.value.map((r) => r.content),
          `${who}: search in ${scope.kind} scope`,
        ).toEqual([own]);
    };
    /** Who reads `k` in `scope`, each by its own handle. */
    const readersOf = async (scope: MemoryScope, k: string, readers: readonly Principal[]) => {
      const out: string[] = [];
      for (const r of readers) if (await t().memory(r, agent).get(scope, k)) out.push(r.id);
      return out;
    };
    // Alice's credential under every other identity's labels: alice's namespaces, or a refusal.
    for (const [who, labels] of labelsOtherThan(p, p.alice)) {
      const forged = forgedHandle(labels, p.alice.credential);
      const m = t().memory(forged, agent);
      await readsOwn(who, m, USER, content.aliceUser);
      await readsOwn(who, m, ORG, content.orgA);
      const k = freshKey('handle-w');
      const w = await unlessRefused(m.put(USER, note(k, `written under ${who}'s labels`), null), MISMATCH_REFUSALS);
      if (w)
        expect(written(w.value).provenance.writer, `${who}: the writer is the credential's owner`).toBe(p.alice.id);
      expect(await readersOf(USER, k, [p.alice, p.carol, labels]), `${who}: who reads the write`).toEqual(
        w ? [p.alice.id] : [],
      );
      // Alice may not write organization memory, whatever role the labels name.
      await expectRejection(m.put(ORG, note(k, `org note under ${who}'s labels`), null), [
        'read_only_scope',
        ...MISMATCH_REFUSALS,
      ]);
      expect(await readersOf(ORG, k, [p.alice, p.carol]), `${who}: nobody reads a refused write`).toEqual([]);
    }
    // adminA's credential under another organization's labels writes organization A's memory.
    for (const [who, labels] of [
      ['adminB', p.adminB],
      ['carol', p.carol],
    ] as const) {
      const m = t().memory(forgedHandle(labels, p.adminA.credential), agent);
      await readsOwn(`adminA as ${who}`, m, ORG, content.orgA);
      const k = freshKey('handle-org');
      const w = await unlessRefused(m.put(ORG, note(k, `org policy under ${who}'s labels`), null), MISMATCH_REFUSALS);
      expect(await readersOf(ORG, k, [p.alice, p.carol, p.adminB]), `adminA as ${who}: who reads the write`).toEqual(
        w ? [p.alice.id] : [],
      );
    }
    // A credential that authenticates nobody, under any identity's labels: unauthenticated.
    for (const [who, labels] of labelsOtherThan(p, { ...p.alice, credential: p.anonymousCredential })) {
      const m = t().memory(forgedHandle(labels, p.anonymousCredential), agent);
      const secrets = [content.aliceUser, content.orgA, ...foreign];
      for (const scope of [USER, ORG]) {
        await expectRejection(m.get(scope, key), ['unauthenticated'], secrets);
        await expectRejection(m.search(scope, { text: word }, 10), ['unauthenticated'], secrets);
        await expectRejection(m.put(scope, note(key, `planted under ${who}'s labels`), null), ['unauthenticated']);
        await expectRejection(m.delete(scope, key, 1), ['unauthenticated']);
      }
    }
    // A credential one slip from a real one authenticates nobody: cut short (by one character, to
    // half, to its first character), with a character more, one character changed, in other case
    // (unless it is hex).
    // A comparison over the two values' common length takes a prefix — even one character — for
    // the token (bug bash 11, memory-03).
    for (const real of [p.alice, p.adminB]) {
      const c = real.credential;
      // Hex and UUID credentials may be compared case-insensitively (RFC 9562: "case insensitive on input").
      const swapped = /^[0-9a-f-]+$/i.test(c)
        ? c
        : [...c].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
      const near = new Set([
        c.slice(0, -1),
        c.slice(0, Math.ceil(c.length / 2)),
        c.slice(0, 1),
        `${c}x`,
        `${c.slice(0, -1)}${c.endsWith('a') ? 'b' : 'a'}`,
        swapped,
      ]);
      near.delete(c);
      near.delete('');
      for (const cred of near) {
        const m = t().memory(forgedHandle(real, cred), agent);
        const secrets = [content.aliceUser, content.orgA, ...foreign, c];
        await expectRejection(m.get(USER, key), ['unauthenticated'], secrets);
        await expectRejection(m.get(ORG, key), ['unauthenticated'], secrets);
        await expectRejection(m.put(USER, note(key, 'planted with a near credential'), null), ['unauthenticated']);
      }
    }
    expect((await t().memory(p.alice, agent).get(USER, key))?.content).toBe(content.aliceUser);
    expect((await t().memory(p.carol, agent).get(USER, key))?.content).toBe(content.carolUser);
    expect((await t().memory(p.bob, agent).get(ORG, key))?.content).toBe(content.orgA);
    expect((await t().memory(p.carol, agent).get(ORG, key))?.content).toBe(content.orgB);
  });

  it('R05.4 scope claims for another subject or organization are refused; matching claims change nothing', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const agent = p.agents[0];
    const key = freshKey('claims');
    written(await t().memory(p.bob, agent).put(USER, note(key, 'bob note'), null));
    written(await t().memory(p.adminB, agent).put(ORG, note(key, 'org b policy'), null));
    const m = t().memory(p.alice, agent);
    const foreign: MemoryScope[] = [
      { kind: 'user', subject: p.bob.subject },
      { kind: 'user', organization: p.carol.organization },
      { kind: 'organization', organization: p.carol.organization },
      { kind: 'organization', subject: p.adminB.subject, organization: p.adminB.organization },
    ];
    for (const scope of foreign) {
      const secrets = [p.bob.subject, p.carol.organization, 'bob note', 'org b policy'];
      await expectRejection(m.get(scope, key), ['scope_violation'], secrets);
      await expectRejection(m.search(scope, { text: 'note policy' }, 5), ['scope_violation'], secrets);
      await expectRejection(m.put(scope, note(key, 'planted'), null), ['scope_violation'], secrets);
      await expectRejection(m.delete(scope, key, 1), ['scope_violation'], secrets);
    }
    expect((await t().memory(p.bob, agent).get(USER, key))?.content).toBe('bob note');
    expect((await t().memory(p.adminB, agent).get(ORG, key))?.content).toBe('org b policy');
    // A claim that matches the caller is redundant and behaves like no claim.
    const own = written(await m.put({ kind: 'user', subject: p.alice.subject }, note(key, 'alice note'), null));
    expect(own.provenance.writer).toBe(p.alice.id);
    expect((await m.get({ kind: 'user', organization: p.alice.organization }, key))?.content).toBe('alice note');
  });

  it('R05.5 agent scope is read-only by default, for every principal', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    for (const who of [p.alice, p.bob, p.carol, p.adminA, p.adminB, p.approverA]) {
      const m = t().memory(who, p.agents[0]);
      const key = freshKey('agent-default');
      await expectRejection(m.put(AGENT, note(key, 'shared fact'), null), ['read_only_scope', 'forbidden']);
      await expectRejection(m.delete(AGENT, key, 1), ['read_only_scope', 'forbidden']);
      expect(await m.get(AGENT, key)).toBeNull();
      expect(await m.search(AGENT, { text: 'shared fact' }, 5)).toEqual([]);
    }
  });

  it('R05.6 with shared learning enabled, agent scope is shared by the agent’s users and by nobody under another agent', async (ctx) => {
    needCapability(ctx, shared(), 'memory', 'sharedLearning');
    const { principals: p } = shared();
    const [alpha, beta] = p.agents;
    const key = freshKey('agent-shared');
    const word = uniqueWord();
    const w = written(
      await shared()
        .memory(p.alice, alpha)
        .put(AGENT, note(key, `learned ${word} trick`), null),
    );
    expect(w.scope).toBe('agent');
    for (const reader of [p.bob, p.carol, p.adminB]) {
      expect((await shared().memory(reader, alpha).get(AGENT, key))?.content).toBe(`learned ${word} trick`);
      expect((await shared().memory(reader, alpha).search(AGENT, { text: word }, 5)).map((r) => r.key)).toEqual([key]);
      expect(await shared().memory(reader, beta).get(AGENT, key)).toBeNull();
      // Shared learning opens agent scope only; user scopes stay private.
      expect(await shared().memory(reader, alpha).get(USER, key)).toBeNull();
    }
    expect(await shared().memory(p.alice, beta).search(AGENT, { text: word }, 5)).toEqual([]);
  });

  it('R05.7 organization scope: application/admin writes, the organization reads, nobody else sees it', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const [alpha, beta] = p.agents;
    const key = freshKey('org-policy');
    const word = uniqueWord();
    for (const who of [p.alice, p.bob, p.carol, p.approverA]) {
      await expectRejection(
        t()
          .memory(who, alpha)
          .put(ORG, note(key, `not allowed ${word}`), null),
        ['read_only_scope', 'forbidden'],
      );
    }
    const w = written(
      await t()
        .memory(p.adminA, alpha)
        .put(ORG, note(key, `org a policy ${word}`), null),
    );
    for (const who of [p.alice, p.bob, p.approverA, p.adminA]) {
      expect((await t().memory(who, alpha).get(ORG, key))?.content).toBe(`org a policy ${word}`);
      expect((await t().memory(who, alpha).search(ORG, { text: word }, 5)).map((r) => r.key)).toEqual([key]);
      expect(await t().memory(who, beta).get(ORG, key)).toBeNull();
    }
    for (const who of [p.carol, p.adminB]) {
      expect(await t().memory(who, alpha).get(ORG, key)).toBeNull();
      expect(await t().memory(who, alpha).search(ORG, { text: word }, 5)).toEqual([]);
    }
    await expectRejection(t().memory(p.bob, alpha).delete(ORG, key, w.revision), ['read_only_scope', 'forbidden']);
    expect((await t().memory(p.alice, alpha).get(ORG, key))?.revision).toBe(w.revision);
  });

  it(`R05.8 a tenant's results and scores are identical whether other tenants hold none or up to ${OTHER_TENANT_RECORDS} matching records`, async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const agent = p.agents[0];
    const alice = t().memory(p.alice, agent);
    const tag = uniqueWord();
    const facts = [
      `${tag} orchard apples grow near the river`,
      `${tag} river trips every summer`,
      `${tag} apples and pears for the orchard`,
      `${tag} pears are the favourite fruit`,
      `${tag} summer orchard festival with apples`,
      `${tag} the river house has a small orchard`,
    ];
    for (const [i, f] of facts.entries()) written(await alice.put(USER, note(`ranking/${tag}/${i}`, f), null));
    const queries = [`${tag} orchard apples`, `river summer ${tag}`, 'pears orchard'];
    const limits = [3, t().memoryPolicy?.maxSearchLimit ?? 10];
    const snapshot = async () => {
      const out: unknown[] = [];
      for (const q of queries) for (const l of limits) out.push(ranking(await alice.search(USER, { text: q }, l)));
      return out;
    };
    const before = await snapshot();
    expect((before[0] as unknown[]).length).toBe(3);
    // The other tenants: bob (same organization, same agent) and carol (other organization)
    // write records matching every query word, many of them with more matches than alice's.
    const started = performance.now();
    let count = OTHER_TENANT_RECORDS;
    let next = 0;
    // Through the contract's own put, a few in flight at once: the target's write path is what
    // is seeded, without one round trip's latency per record (29 s over HTTP one at a time).
    const writer = async () => {
      for (let i = next++; i < count; i = next++) {
        if (i === 500) {
          const projected = ((performance.now() - started) / i) * count;
          if (projected > OTHER_TENANT_BUDGET_MS) {
            count = Math.max(OTHER_TENANT_MIN, Math.floor((OTHER_TENANT_BUDGET_MS / projected) * count));
          }
        }
        const who = i % 5 === 4 ? p.carol : p.bob;
        const text = `${tag} orchard apples river summer pears orchard apples ${i}`;
        const o = await t()
          .memory(who, agent)
          .put(USER, note(`ranking/${tag}/other/${i}`, text), null);
        if (o.status !== 'written') throw new Error(`other tenant write ${i} was not written: ${o.status}`);
      }
    };
    await Promise.all(Array.from({ length: OTHER_TENANT_WRITERS }, writer));
    written(
      await t()
        .memory(p.adminB, agent)
        .put(ORG, note(`ranking/${tag}/org`, `${tag} orchard apples river`), null),
    );
    const seconds = (performance.now() - started) / 1000;
    ctx.annotate(`ranking: ${count} other-tenant records written in ${seconds.toFixed(1)} s`);
    expect(await snapshot()).toEqual(before);
  });

  it('R05.9 results are bounded by the limit and every result carries the full provenance `get` returns for its key (a consolidated record’s sources too)', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const m = t().memory(p.alice, p.agents[0]);
    const word = uniqueWord();
    for (let i = 0; i < 30; i++) written(await m.put(USER, note(`bounded/${word}/${i}`, `${word} entry ${i}`), null));
    expect(await m.search(USER, { text: word }, 10)).toHaveLength(10);
    const max = t().memoryPolicy?.maxSearchLimit;
    const all = await m.search(USER, { text: word }, max ?? 30);
    expect(all.length).toBe(Math.min(30, max ?? 30));
    for (const r of all) {
      expect(r.scope).toBe('user');
      expect(typeof r.score).toBe('number');
      expect(r.provenance.writer).toBe(p.alice.id);
      expect(r.provenance.agent).toBe(p.agents[0]);
      expect(r.provenance.contentHash).toBe(sha256(r.content));
      expect(['not_required', 'approved']).toContain(r.provenance.approval.state);
      expect(Number.isNaN(Date.parse(r.provenance.createdAt))).toBe(false);
    }
    const scores = all.map((r) => r.score ?? 0);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // A hit carries the record's full provenance, as `get` of its key returns it: after an update
    // and a stale proposal consolidated over it, its sources and source revisions too.
    const merged = `bounded/${word}/0`;
    const r1 = (await m.get(USER, merged))?.revision ?? 0;
    written(await m.put(USER, note(merged, `${word} entry 0 updated`), r1));
    // (Rejecting the stale proposal as a conflict is conforming too: then the hit is a plain update.)
    const c = await m.put(USER, note(merged, `${word} merged late note`, { onConflict: 'consolidate' }), r1);
    await ctx.annotate(`stale proposal: ${c.status}`);
    const live = await m.get(USER, merged);
    const hits = [
      ...(await m.search(USER, { text: live?.content ?? word }, 5)),
      ...(await m.search(USER, { text: word }, max ?? 30)),
    ];
    expect(hits.map((h) => h.key)).toContain(merged);
    for (const { score: _score, ...hit } of hits) {
      expect(hit, `search hit ${hit.key} as get returns it`).toEqual(await m.get(USER, hit.key));
    }
    const bad: unknown[] = [0, -1, -100, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '10', null];
    if (max !== undefined) bad.push(max + 1, max * 1000);
    for (const limit of bad) {
      await expectRejection(m.search(USER, { text: word }, limit as number), ['invalid_argument']);
    }
  });

  it('R05.13 search ranks, then bounds: every answer comes best first (scores never increase), and a search bounded below the number of matches returns the top of the ranking — the first k of the unbounded answer, records tied on score in any order', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const m = t().memory(p.alice, p.agents[0]);
    const [a, b] = [uniqueWord(), uniqueWord()];
    // Matches of clearly different strength for each query: the query word repeated or alone,
    // diluted by other words, one query word or both — no ranking function is assumed, only that
    // the target's own scores order its own answers.
    const contents = [
      `${a} ${a} ${a} ${a}`,
      `${a} ${a} ${a} ${b}`,
      `${a} ${a} notes about the garden`,
      `${a} ${b}`,
      `${a} with many other words about the weather, the garden, the kitchen and the long drive home`,
      `${b} ${b} ${b} alone`,
      `${b} and plenty of other words that say nothing much about anything at all today`,
    ];
    for (const [i, c] of contents.entries()) written(await m.put(USER, note(`ranks/${a}/${i}`, c), null));
    const all = Math.min(contents.length, t().memoryPolicy?.maxSearchLimit ?? contents.length);
    const problems: string[] = [];
    let judged = 0;
    for (const q of [a, b, `${a} ${b}`, `${b} ${a}`]) {
      const full = await m.search(USER, { text: q }, all);
      // Without scores, or with every match scored alike, order alone cannot be judged.
      if (full.some((r) => typeof r.score !== 'number') || new Set(full.map((r) => r.score)).size < 2) continue;
      judged += 1;
      const show = (rs: readonly MemoryRecord[]) => rs.map((r) => `${r.key}@${r.score}`).join(', ');
      const scoreOf = new Map(full.map((r) => [r.key, r.score as number]));
      const descending = (rs: readonly MemoryRecord[]) =>
        rs.every((r, i) => i === 0 || (r.score as number) <= (rs[i - 1]?.score as number));
      if (!descending(full)) problems.push(`"${q}" limit ${all}: not best first [${show(full)}]`);
      for (let k = 1; k < full.length; k++) {
        const top = await m.search(USER, { text: q }, k);
        if (!descending(top)) problems.push(`"${q}" limit ${k}: not best first [${show(top)}]`);
        // The first k of the ranking, up to the order of tied records: the same scores, each on a
        // record the unbounded answer gives that score.
        const want = full.slice(0, k).map((r) => r.score as number);
        const got = top.map((r) => r.score as number);
        const sorted = (xs: number[]) => [...xs].sort((x, y) => y - x);
        const same = (x: number | undefined, y: number | undefined) =>
          x !== undefined && y !== undefined && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x));
        const misplaced = top.filter((r) => !same(scoreOf.get(r.key), r.score));
        const scores = sorted(got);
        if (scores.length !== k || !sorted(want).every((x, i) => same(x, scores[i])) || misplaced.length > 0) {
          problems.push(`"${q}" limit ${k}: [${show(top)}], not the top of [${show(full)}]`);
        }
      }
    }
    if (judged === 0)
      return unsupportedByTarget(
        ctx,
        'not judged: the target returns search hits without scores (or scores every match alike)',
      );
    expect(problems.join('\n')).toBe('');
  });

  it('R05.14 a query’s filters apply before the bound: a search filtered by kind, with stronger matches of another kind ranked above, or a search whose strongest matches were deleted, returns as many records as the bound allows — the first k of its own unbounded answer, never fewer because matches it filters out took the top places', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const m = t().memory(p.alice, p.agents[0]);
    const max = (n: number) => Math.min(n, t().memoryPolicy?.maxSearchLimit ?? n);
    const problems: string[] = [];
    const judged: string[] = [];
    /** Every bound k up to the full answer returns k records of that answer. */
    const boundAfterFilters = async (what: string, q: MemoryQuery, n: number) => {
      const full = await m.search(USER, q, max(n));
      const keys = new Set(full.map((r) => r.key));
      for (let k = 1; k <= full.length; k++) {
        const top = await m.search(USER, q, k);
        if (top.length !== k || top.some((r) => !keys.has(r.key)))
          problems.push(
            `${what} limit ${k}: [${top.map((r) => r.key).join(', ')}], not ${k} of [${full.map((r) => r.key).join(', ')}]`,
          );
      }
      return full.length;
    };
    // Deleted records are filtered out too: the strongest matches are written and deleted, the
    // weaker ones stay, so a bound taken over dead rows returns fewer than it should.
    const d = uniqueWord();
    const dead = [`${d} ${d} ${d} ${d}`, `${d} ${d} ${d} steps`, `${d} ${d} notes about the garden`];
    const live = [
      `${d} with many other words about the weather, the garden and the kitchen`,
      `${d} and plenty of other words that say nothing much about anything at all today`,
      `${d} then a long list of other things to do one after another in the morning`,
    ];
    let deleted = 0;
    for (const [i, content] of dead.entries()) {
      const o = await m.put(USER, note(`deleted/${d}/${i}`, content), null);
      if (o.status !== 'written') continue;
      if ((await m.delete(USER, o.record.key, o.record.revision)).status === 'deleted') deleted++;
    }
    for (const [i, content] of live.entries()) await m.put(USER, note(`live/${d}/${i}`, content), null);
    const liveFound = await boundAfterFilters('after deletes', { text: d }, dead.length + live.length);
    if (deleted > 0 && liveFound > 1) judged.push(`${deleted} deleted matches above ${liveFound} live ones`);
    // The strongest matches are procedural, the weaker ones semantic (and the other way round).
    const a = uniqueWord();
    const notes: ReadonlyArray<readonly [MemoryKind, string]> = [
      ['procedural', `${a} ${a} ${a} ${a}`],
      ['procedural', `${a} ${a} ${a} steps`],
      ['semantic', `${a} ${a} notes about the garden`],
      ['semantic', `${a} with many other words about the weather, the garden and the kitchen`],
      ['semantic', `${a} and plenty of other words that say nothing much about anything at all today`],
      ['procedural', `${a} then a long list of other steps to follow one after another in the morning`],
    ];
    // A kind the target's policy refuses here (say, procedural notes in user memory) is left out.
    const stored = new Set<MemoryKind>();
    for (const [i, [kind, content]] of notes.entries()) {
      const o = await m.put(USER, { ...note(`filtered/${a}/${i}`, content), kind }, null);
      if (o.status === 'written') stored.add(kind);
    }
    if (stored.size === 2) {
      for (const kinds of [['semantic'], ['procedural']] as const)
        await boundAfterFilters(`kinds ${kinds.join()}`, { text: a, kinds }, notes.length);
      judged.push('kind filters');
    }
    expect(problems.join('\n')).toBe('');
    if (judged.length === 0)
      return unsupportedByTarget(
        ctx,
        `not judged: ${deleted} match(es) deleted and ${liveFound} live, and only ${[...stored].join(', ') || 'no'} notes were stored, so no filter drops a match`,
      );
    await ctx.annotate(`judged: ${judged.join('; ')}`);
  });

  it('R05.10 an unknown agent (one named like a property every JavaScript object has included) or an unauthenticated caller gets a typed refusal that reveals nothing, and no tool or destination; another spelling of a registered agent id (case, NFC/NFD/NFKC, full-width, whitespace around it) is refused as unknown or acts as that agent, never as one of its own', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const key = freshKey('agents');
    written(await t().memory(p.alice, p.agents[0]).put(USER, note(key, 'alice agent note'), null));
    const stranger = t().memory(p.alice, 'agent-not-registered');
    await expectRejection(stranger.get(USER, key), ['forbidden']);
    await expectRejection(stranger.search(USER, { text: 'agent note' }, 5), ['forbidden']);
    await expectRejection(stranger.put(USER, note(freshKey('agents'), 'x'), null), ['forbidden']);
    // Names every JavaScript object answers to: a registry looked up with `in` or `obj[name]`
    // rather than as its own keys "knows" them. Unknown, or not an id the target accepts.
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']) {
      const inherited = t().memory(p.alice, name);
      await expectRejection(inherited.put(USER, note(freshKey('agents'), 'x'), null), [
        'forbidden',
        'invalid_argument',
      ]);
      await expectRejection(inherited.get(USER, key), ['forbidden', 'invalid_argument']);
      await expectRejection(inherited.search(USER, { text: 'agent note' }, 5), ['forbidden', 'invalid_argument']);
    }
    const anon = t().memory({ ...p.alice, credential: p.anonymousCredential }, p.agents[0]);
    await expectRejection(anon.get(USER, key), ['unauthenticated'], ['alice agent note']);
    await expectRejection(anon.search(USER, { text: 'agent note' }, 5), ['unauthenticated']);
    await expectRejection(anon.put(USER, note(key, 'overwrite'), 1), ['unauthenticated']);
    await expectRejection(anon.delete(USER, key, 1), ['unauthenticated']);
    expect((await t().memory(p.alice, p.agents[0]).get(USER, key))?.content).toBe('alice agent note');
    // The tool surface authorizes agent and caller too: an unregistered agent's runs are granted
    // no tool and no destination, even ones the registered agents may use, and an
    // unauthenticated caller is refused; the answer is a denial or that typed refusal.
    const probes: Array<['tool' | 'host', string]> = [
      ...PROBE_TOOLS.map((n) => ['tool', n] as ['tool', string]),
      ...PROBE_HOSTS.map((n) => ['host', n] as ['host', string]),
    ];
    const decide = (caller: Principal, agent: string, [kind, name]: ['tool' | 'host', string]) =>
      kind === 'tool' ? t().tools.mayInvoke(caller, agent, name) : t().tools.mayReach(caller, agent, name);
    const registered: string[] = [];
    for (const probe of probes) {
      for (const agent of p.agents) if (await decide(p.alice, agent, probe)) registered.push(`${agent}/${probe[1]}`);
      const label = `${probe[0]} ${probe[1]}`;
      await expect(
        decide(p.alice, 'agent-not-registered', probe).catch((e) => expectRejection(Promise.reject(e), ['forbidden'])),
        `an unregistered agent is granted ${label}`,
      ).resolves.not.toBe(true);
      await expect(
        decide({ ...p.alice, credential: p.anonymousCredential }, p.agents[0], probe).catch((e) =>
          expectRejection(Promise.reject(e), ['unauthenticated']),
        ),
        `an unauthenticated caller is granted ${label}`,
      ).resolves.not.toBe(true);
    }
    ctx.annotate(`tool surface: registered agents may use ${registered.join(', ') || 'none of the probes'}`);
    // "Authorize scope, operation, agent, and caller.": an id that only spells a registered agent
    // otherwise is an unknown agent (forbidden, as above) unless the target treats it as that
    // agent — then it reads the agent's records, the agent reads its writes, and it is granted
    // nothing the agent is not. An empty namespace of its own would be memory for an agent
    // nobody registered.
    const problems: string[] = [];
    const refusedOr = async <T>(label: string, op: () => Promise<T>, asAgent: (v: T) => Promise<boolean>) => {
      let v: T;
      try {
        v = await op();
      } catch (e) {
        // Refused as an unknown agent, or as an id the target does not accept the form of (a
        // full-width or decomposed spelling may fail its id syntax): both reveal nothing.
        const code = asContractError(e).code;
        if (code !== 'forbidden' && code !== 'invalid_argument')
          problems.push(`${label}: refused as ${code}, not as an unknown agent or a malformed id`);
        return false;
      }
      if (!(await asAgent(v))) problems.push(`${label}: ${JSON.stringify(v)?.slice(0, 160)} is not the agent's answer`);
      return true;
    };
    for (const agent of p.agents) {
      const own = t().memory(p.alice, agent);
      const word = uniqueWord();
      const held = written(await own.put(USER, note(freshKey('agent-spelling'), `${word} agent note`), null));
      for (const variant of spellingVariants(agent).filter((v) => !p.agents.includes(v))) {
        const v = t().memory(p.alice, variant);
        const label = (op: string) => `${op} as ${JSON.stringify(variant)} (${agent})`;
        await refusedOr(
          label('get'),
          () => v.get(USER, held.key),
          async (r) => r?.content === held.content,
        );
        await refusedOr(
          label('search'),
          () => v.search(USER, { text: word }, 5),
          async (rs) => rs.length === 1 && rs[0]?.key === held.key,
        );
        const put = freshKey('agent-spelling');
        const wrote = await refusedOr(
          label('put'),
          () => v.put(USER, note(put, 'written by a spelling'), null),
          async (o) => o.status === 'written' && (await own.get(USER, put))?.content === 'written by a spelling',
        );
        if (!wrote && (await own.get(USER, put)) !== null) problems.push(`${label('put')}: refused, yet written`);
        const gone = written(await own.put(USER, note(freshKey('agent-spelling'), 'delete me'), null));
        const deleted = await refusedOr(
          label('delete'),
          () => v.delete(USER, gone.key, gone.revision),
          async (o) => o.status === 'deleted' && (await own.get(USER, gone.key)) === null,
        );
        if (!deleted && (await own.get(USER, gone.key)) === null)
          problems.push(`${label('delete')}: refused, yet deleted`);
        for (const probe of probes) {
          const granted = await decide(p.alice, variant, probe).catch((e) => {
            asContractError(e);
            return false;
          });
          if (granted === true && (await decide(p.alice, agent, probe)) !== true)
            problems.push(`${label(probe[0])}: granted ${probe[1]}, which ${agent} is not`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
