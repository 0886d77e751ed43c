/**
 * R02.24, a run's text arrives as it was written. The run protocol carries text both ways — the
 * steps to the worker, the events and the interrupt back — and a served target moves it through
 * sockets in chunks. Text decoded chunk by chunk instead of as one stream turns every character
 * a chunk boundary splits into U+FFFD: the interrupt persisted with the head is then not the one
 * the run raised, and the client is shown output the run never made. Only text larger than a
 * socket read, and not ASCII, shows it.
 *
 * One run emits a text of about 100 KB and three of about 26 KB and stops at an interrupt whose
 * value is about 31 KB (at most half the declared payload bound), every one made of 2-, 3- and
 * 4-byte UTF-8 characters; its resume emits one more. The
 * output events, the interrupt event, the durable head's pending interrupt and the resumed run's
 * output must each be exactly the text the steps carried.
 */
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../contract/runs.js';
import { asContractError } from '../fixtures/assertions/contract-error.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { durableHead, outputs, runSteps, runToInterrupt, within } from '../fixtures/scenario/process-faults.js';
import { SPEC } from '../fixtures/scenario/thread-session.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

/** Bound on one run. */
const STEP_MS = 45_000;

/** Characters of 2, 3 and 4 UTF-8 bytes (and a space), so any byte offset inside the text may split one. */
const ALPHABET = ['é', 'ж', 'ק', '€', '中', 'ツ', '𝄞', '😀', 'ñ', ' '];

/** `n` characters of ALPHABET from a per-text offset: texts differ, and none is ASCII at length. */
function multibyte(seed: number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[(i * 7 + seed) % ALPHABET.length];
  return out;
}

/** Where `got` first differs from `want`, without printing kilobytes of either; null when equal. */
function difference(got: string | undefined, want: string): string | null {
  if (got === want) return null;
  if (got === undefined) return 'missing';
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  const replaced = (got.match(/\uFFFD/g) ?? []).length;
  return `${got.length} code units for ${want.length}, first different at ${i} (${JSON.stringify(got.slice(i, i + 4))} for ${JSON.stringify(want.slice(i, i + 4))})${replaced ? `, ${replaced} U+FFFD` : ''}`;
}

describe('R02 a run’s text arrives as it was written', () => {
  it('R02.24 multi-byte text larger than a socket read — emitted texts of about 100 KB and 26 KB and an interrupt value of about 31 KB, of 2-, 3- and 4-byte UTF-8 characters — reaches the client’s output and interrupt events, the durable head’s pending interrupt and the resumed run exactly as the steps carried it', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'threadState');
    const alice = t().principals.alice;
    const { bindingId } = await t().bindings.open(alice, SPEC);
    // One text longer than a 64 KiB socket read (so every read splits it somewhere), three of
    // about 26 KB (longer than a 16 KiB one).
    const texts = [multibyte(1, 38_000), ...[2, 3, 4].map((seed) => multibyte(seed, 10_000))];
    // An interrupt value is "bounded like payloads": at most half the declared payload bound.
    const maxBytes = Math.floor((t().stateLimits?.maxPayloadBytes ?? 64 * 1024) / 2);
    let question = multibyte(11, 12_000);
    while (Buffer.byteLength(question, 'utf8') > maxBytes) question = [...question].slice(0, -100).join('');
    const after = multibyte(13, 10_000);
    const steps: RunStep[] = [
      ...texts.map((text): RunStep => ({ type: 'emit', text })),
      { type: 'interrupt', value: question },
      { type: 'emit', text: after },
    ];
    const { paused, asked } = await runToInterrupt(t(), alice, bindingId, steps, STEP_MS).catch((e: unknown) => {
      // A bound on a run's size is the target's: refused whole, the run is not judged here.
      if (asContractError(e).code === 'payload_too_large') {
        unsupportedByTarget(ctx, 'the target refuses a run of this size as payload_too_large');
      }
      throw e;
    });
    if (paused.events.some((e) => e.type === 'error' && e.code === 'payload_too_large')) {
      unsupportedByTarget(ctx, 'the target fails a run of this size with payload_too_large');
    }
    expect(paused.state, 'the run stops at its interrupt').toBe('interrupted');
    const shown = outputs(paused);
    const problems: string[] = [];
    if (shown.length !== texts.length) problems.push(`${shown.length} output events for ${texts.length} emit steps`);
    texts.forEach((want, i) => {
      const d = difference(shown[i], want);
      if (d) problems.push(`output ${i + 1}: ${d}`);
    });
    const d = difference(asked?.value, question);
    if (d) problems.push(`the interrupt event's value: ${d}`);
    const head = await durableHead(t(), alice, bindingId);
    const h = difference(head?.interrupt?.value, question);
    if (h) problems.push(`the durable head's pending interrupt: ${h}`);
    if (asked) {
      const resumed = await within(
        STEP_MS,
        'the resumed run',
        runSteps(t(), alice, bindingId, [], {
          resume: { interruptId: asked.interruptId, value: multibyte(17, 6_000) },
        }),
      );
      if (resumed.state !== 'completed') problems.push(`the resumed run ended ${resumed.state}`);
      const r = difference(outputs(resumed)[0], after);
      if (r || outputs(resumed).length !== 1)
        problems.push(`the resumed run's output: ${r ?? `${outputs(resumed).length} events`}`);
    }
    expect(problems, 'text that is not what the run carried').toEqual([]);
  });
});
