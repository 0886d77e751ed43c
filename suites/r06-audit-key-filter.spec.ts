/**
 * R06.22, an audit read by key is that key's trail. `Audit.memory(reader, { key })` names one
 * key, and keys are exact strings (R05's key clauses): a filter built as SQL `LIKE` or `GLOB`, a
 * regular expression, a prefix match or a case-insensitive comparison hands one key's reader the
 * trail of its neighbours too. Keys that differ from a neighbour only where such a filter is loose —
 * `_`, `%`, `*`, `?` or `.` against any character, a prefix of a longer key, letter case — are
 * each written once; each key's audit read holds its own put and nothing else. A key the target's
 * alphabet refuses is read back too: its trail still names no other key.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryWriteOutcome } from '../contract/memory.js';
import { asContractError } from '../fixtures/assertions/contract-error.js';
import { freshKey, note, USER } from '../fixtures/memory/memory-proposal.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

/** Key suffixes, each a neighbour of another under some loose filter. */
const SUFFIXES = [
  'x_y',
  'xzy',
  'X_Y',
  'x_Y', // `_` one character; letter case
  'p.q',
  'pzq', // `.` one character in a regular expression
  'k',
  'k2',
  'k/child',
  'K', // a prefix; case
  'a%b',
  'ab',
  'a-long-b', // `%` any run (where the alphabet allows `%`)
  'g*h',
  'gzzh',
  'm?',
  'm', // GLOB `*` and `?`
] as const;

describe('R06 the audit trail of one key', () => {
  it('R06.22 an audit read filtered by key returns exactly that key’s entries: keys that differ from their neighbours only where a LIKE, GLOB, regular-expression, prefix or case-insensitive filter is loose (`_`, `%`, `*`, `?`, `.`, a longer key, letter case) each get their own put and no neighbour’s entry', async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const m = t().memory(p.alice, p.agents[0]);
    const base = freshKey('audit-key');
    const outcomes = new Map<string, MemoryWriteOutcome['status'] | 'refused'>();
    for (const s of SUFFIXES) {
      const key = `${base}/${s}`;
      const o = await m.put(USER, note(key, `User note filed under ${s}.`), null).catch((e: unknown) => {
        asContractError(e);
        return null;
      });
      outcomes.set(key, o?.status ?? 'refused');
    }
    const wrong: string[] = [];
    for (const [key, status] of outcomes) {
      const entries = await t().audit.memory(p.adminA, { key });
      const others = [...new Set(entries.map((e) => e.key).filter((k) => k !== key))];
      if (others.length > 0) wrong.push(`${key}: also ${others.join(', ')}`);
      if (status === 'written' && !entries.some((e) => e.key === key && e.operation === 'put'))
        wrong.push(`${key}: its own put is missing`);
    }
    const written = [...outcomes.values()].filter((s) => s === 'written').length;
    await ctx.annotate(
      `${written} of ${outcomes.size} keys written (the rest refused by the target's key rules); each read back`,
    );
    expect(wrong).toEqual([]);
  });
});
