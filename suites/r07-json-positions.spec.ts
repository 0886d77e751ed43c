/**
 * R07 — a JSON record is text in every position.
 *
 * A JSON memory record holds text in its member names as well as in its values, and an agent
 * that reads the record back reads both. An instruction the target keeps out as a note is kept
 * out as a member name, a nested member name, an array element, or split between a name and its
 * value; a secret is kept out as a member name. And a value is a secret by the name it is under
 * in whatever naming convention the name is written: `dbPassword`, `DbPassword`, `db_password`,
 * `DB_PASSWORD`, `db-password`, `db.password`. Both clauses ask for consistency with the
 * target's own verdict on the plain form (the attack as a note, a plain word under `password`).
 */
import { describe, expect, it } from 'vitest';
import type { MemoryBroker, MemoryProposal, MemoryWriteOutcome } from '../contract/memory.js';
import { asContractError } from '../fixtures/assertions/contract-error.js';
import { injectionCorpusV1 } from '../fixtures/corpora/injection-corpus.v1.js';
import { secretTokenShapes } from '../fixtures/corpora/secret-token-shapes.js';
import { freshKey, note, USER, uniqueLetters } from '../fixtures/memory/memory-proposal.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

type Outcome = MemoryWriteOutcome | { readonly status: `refused (${string})` };

const blocked = (o: Outcome): boolean =>
  o.status === 'rejected' || o.status === 'pending_approval' || o.status.startsWith('refused');

const json = (key: string, value: unknown): MemoryProposal => ({
  key,
  kind: 'semantic',
  content: JSON.stringify(value),
  contentType: 'application/json',
});

/** Put, refusals as outcomes, a held write rejected again so nothing waits on it. */
async function putKept(m: MemoryBroker, p: MemoryProposal): Promise<Outcome> {
  const o: Outcome = await m
    .put(USER, p, null)
    .catch((e: unknown) => ({ status: `refused (${asContractError(e).code})` }) as const);
  if (o.status === 'pending_approval') {
    const { principals } = t();
    await t()
      .approvals.decide(principals.approverA, o.approvalId, 'reject')
      .catch(() => undefined);
  }
  return o;
}

/** Does any of what the target stored, returned or finds for `probe` hold one of `parts`? */
async function shows(m: MemoryBroker, key: string, o: Outcome, probe: string, parts: readonly string[]) {
  const stored = await m.get(USER, key).catch(() => null);
  const found = await m.search(USER, { text: probe }, 10).catch(() => []);
  const seen = [
    o.status === 'written' || o.status === 'consolidated' ? o.record.content : '',
    stored?.content ?? '',
    ...found.filter((r) => r.key === key).map((r) => r.content),
  ];
  return seen.some((c) => parts.some((part) => c.includes(part)));
}

describe('R07 JSON records are text in every position', () => {
  it('R07.26 an instruction the target keeps out as a note is kept out anywhere in a JSON record — a member name, a nested member name, an array element, split between a name and its value — and a secret token is kept out as a member name: refused, held, or stored without it', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const p = t().principals;
    const m = t().memory(p.alice, p.agents[0]);
    const perClass = new Set<string>();
    const attacks = injectionCorpusV1().filter((e) => {
      if (e.expect !== 'reject' || !e.obfuscatable || perClass.has(e.class)) return false;
      perClass.add(e.class);
      return true;
    });
    expect(attacks.length, 'the corpus has attacks of several classes').toBeGreaterThanOrEqual(3);
    const placements: [string, (text: string) => unknown][] = [
      ['as a member name', (x) => ({ [x]: true })],
      ['as a nested member name', (x) => ({ settings: { preferences: { [x]: 'yes' } } })],
      ['as an array element', (x) => ({ notes: ['weekly sync', x] })],
      [
        'split between a member name and its value',
        (x) => {
          const words = x.split(' ');
          const half = Math.ceil(words.length / 2);
          return { [words.slice(0, half).join(' ')]: words.slice(half).join(' ') };
        },
      ],
    ];
    const through: string[] = [];
    const notJudged: string[] = [];
    for (const e of attacks) {
      const text = e.proposal.content;
      const base = await putKept(m, { ...e.proposal, key: freshKey('json-positions') });
      if (!blocked(base)) {
        notJudged.push(`${e.id} (as a note: ${base.status}; R07.1 judges that)`);
        continue;
      }
      for (const [where, place] of placements) {
        const key = freshKey('json-positions');
        const o = await putKept(m, json(key, place(text)));
        const words = text.split(' ');
        const parts = [text, words.slice(Math.ceil(words.length / 2)).join(' ')].filter((x) => x.length >= 12);
        if (!blocked(o) && (await shows(m, key, o, words.slice(0, 3).join(' '), parts)))
          through.push(`${e.id} ${where} → ${o.status}`);
      }
    }
    for (const g of secretTokenShapes(13).slice(0, 4)) {
      const key = freshKey('json-positions');
      const o = await putKept(m, json(key, { [g.token]: 'the deploy key' }));
      if (!blocked(o) && (await shows(m, key, o, g.secretParts[0]!, g.secretParts)))
        through.push(`a ${g.provider} secret as a member name → ${o.status}`);
    }
    await ctx.annotate(
      `${attacks.length} attacks × ${placements.length} placements, 4 secrets as names; not judged: ${notJudged.join('; ') || 'none'}`,
    );
    expect(through.join('\n')).toBe('');
  });

  it('R07.27 a value is a secret by the name it is under, in every naming convention: a plain-word value the target keeps out under "password" is kept out under dbPassword, DbPassword, db_password, DB_PASSWORD, db-password, db.password, smtpPassword, clientSecret and client_secret, at the top and nested', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const p = t().principals;
    const m = t().memory(p.alice, p.agents[0]);
    const baseWord = `${uniqueLetters()}${uniqueLetters()}`;
    const baseKey = freshKey('json-names');
    const base = await putKept(m, json(baseKey, { service: 'billing', password: baseWord }));
    if (!blocked(base) && (await shows(m, baseKey, base, baseWord, [baseWord]))) {
      await ctx.annotate(`not judged: a plain word under "password" is stored (${base.status}); R07.4 judges secrets`);
      return;
    }
    const names = [
      'dbPassword',
      'DbPassword',
      'db_password',
      'DB_PASSWORD',
      'db-password',
      'db.password',
      'smtpPassword',
      'clientSecret',
      'client_secret',
    ];
    const leaks: string[] = [];
    for (const name of names) {
      for (const [where, wrap] of [
        ['at the top', (v: Record<string, string>) => v],
        ['nested', (v: Record<string, string>) => ({ config: { database: v } })],
      ] as const) {
        const word = `${uniqueLetters()}${uniqueLetters()}`;
        const key = freshKey('json-names');
        const o = await putKept(m, json(key, wrap({ service: 'billing', [name]: word })));
        if (!blocked(o) && (await shows(m, key, o, word, [word]))) leaks.push(`${name} ${where} → ${o.status}`);
      }
    }
    // The same names as a note's `name: value` lines, judged where a plain word after
    // `password:` is kept out of a note.
    const noteWord = `${uniqueLetters()}${uniqueLetters()}`;
    const noteKey = freshKey('json-names');
    const noteBase = await putKept(m, note(noteKey, `service: billing\npassword: ${noteWord}\n`));
    const notesJudged = blocked(noteBase) || !(await shows(m, noteKey, noteBase, noteWord, [noteWord]));
    for (const name of notesJudged ? names : []) {
      const word = `${uniqueLetters()}${uniqueLetters()}`;
      const key = freshKey('json-names');
      const o = await putKept(m, note(key, `service: billing\n${name}: ${word}\n`));
      if (!blocked(o) && (await shows(m, key, o, word, [word]))) leaks.push(`${name} in a settings note → ${o.status}`);
    }
    await ctx.annotate(
      notesJudged ? 'JSON and settings notes judged' : 'settings notes not judged: "password: <word>" is stored',
    );
    expect(leaks.join('\n')).toBe('');
  });
});
