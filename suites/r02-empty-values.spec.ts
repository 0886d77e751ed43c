/**
 * R02.23, values that look like absence are values. An interrupt's value is opaque and
 * harness-defined, a payload is opaque bytes: `''`, `'0'`, `'null'`, `'false'`, `' '`, `'[]'` and a
 * zero-byte payload are what a truthiness test (`value ? … : null`), a parse-then-store or a
 * "skip empty" shortcut drops or rewrites. Each is committed and loaded back exactly — the head
 * says `interrupted` and carries that interrupt — or refused with a typed error that commits
 * nothing; never a head that says interrupted without its interrupt, or other bytes.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { asContractError } from '../fixtures/assertions/contract-error.js';
import { sha256Hex } from '../fixtures/models/thread-state-model.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { hex, openThread } from '../fixtures/scenario/thread-session.js';
import { writeWithinRate } from '../fixtures/scenario/write-within-rate.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

const LOOKS_ABSENT = ['', '0', 'null', 'false', ' ', '[]', '{}', 'undefined'];

/** The outcome of a call: its value, or the typed refusal's code (anything else fails the clause). */
async function settled<T>(p: Promise<T>): Promise<{ ok: T } | { refused: string }> {
  try {
    return { ok: await p };
  } catch (e) {
    return { refused: asContractError(e).code };
  }
}

describe('R02 values that look like absence', () => {
  it('R02.23 an interrupt value or payload that looks like absence (an empty string, "0", "null", "false", a space, "[]", "{}", "undefined", zero bytes) is committed and loaded exactly — the head interrupted with that interrupt — or refused with a typed error that commits nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const wrong: string[] = [];
    const seen: string[] = [];
    for (const [i, value] of LOOKS_ABSENT.entries()) {
      const th = await openThread(t());
      const ref = await writeWithinRate(t(), th, `absent-${i}`, new TextEncoder().encode(`checkpoint ${i}`));
      const interrupt = { interruptId: `interrupt-${i}`, value };
      const c = await settled(
        th.store.commit_head(th.scope, ref, 0, `run-absent-${i}`, { runState: 'interrupted', interrupt }),
      );
      const loaded = await th.store.load_head(th.scope);
      if ('refused' in c) {
        seen.push(`${JSON.stringify(value)}: refused (${c.refused})`);
        if (loaded !== null) wrong.push(`interrupt ${JSON.stringify(value)}: refused, yet a head was committed`);
        continue;
      }
      seen.push(`${JSON.stringify(value)}: committed`);
      for (const [what, head] of [
        ['committed', c.ok],
        ['loaded', loaded],
      ] as const) {
        // Rebuilt in one key order: a target may return the interrupt's fields in another.
        const got = head && {
          runState: head.runState,
          interrupt: head.interrupt && { interruptId: head.interrupt.interruptId, value: head.interrupt.value },
        };
        if (!isDeepStrictEqual(got, { runState: 'interrupted', interrupt }))
          wrong.push(`interrupt ${JSON.stringify(value)}, ${what} head: ${JSON.stringify(got)}`);
      }
    }
    // A zero-byte payload: written, committed and loaded as zero bytes, or refused where it is written.
    const th = await openThread(t());
    const w = await settled(writeWithinRate(t(), th, 'absent-bytes', new Uint8Array(0)));
    if ('refused' in w) seen.push(`zero-byte payload: refused (${w.refused})`);
    else {
      seen.push('zero-byte payload: written');
      const c = await settled(th.store.commit_head(th.scope, w.ok, 0, 'run-absent-bytes'));
      const loaded = await th.store.load_head(th.scope);
      const got = {
        size: w.ok.size,
        contentHash: w.ok.contentHash,
        committed: 'ok' in c ? hex(c.ok.payload.bytes) : `refused (${c.refused})`,
        loaded: loaded && hex(loaded.payload.bytes),
      };
      const want = { size: 0, contentHash: sha256Hex(new Uint8Array(0)), committed: '', loaded: '' };
      if ('refused' in c) {
        if (loaded !== null) wrong.push('zero-byte payload: commit refused, yet a head was committed');
      } else if (!isDeepStrictEqual(got, want))
        wrong.push(`zero-byte payload: ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
    }
    await ctx.annotate(seen.join('; '));
    expect(wrong.join('\n')).toBe('');
  });
});
