/**
 * R02.22, a payload is its view's bytes. `OpaqueStatePayload.bytes` is a `Uint8Array`, and in
 * Node a `Uint8Array` is often a view into a larger buffer: every small `Buffer` lives in a shared
 * pool, and `subarray` shares its parent's memory. A store that copies `bytes.buffer` (the whole
 * pool) instead of the view, or keeps the caller's array and so sees it change after the write,
 * commits bytes its caller never wrote. Each case writes a view, commits it, loads it: the pending
 * ref's size and hash, the committed head and the loaded head all carry exactly the view's bytes —
 * also when the caller overwrites its buffer right after the write resolved.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../fixtures/models/thread-state-model.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { hex, openThread } from '../fixtures/scenario/thread-session.js';
import { writeWithinRate } from '../fixtures/scenario/write-within-rate.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

/** A larger buffer of one filler byte, with `n` distinct bytes at `offset`: the view. */
function viewInto(size: number, offset: number, n: number, seed: number): Uint8Array {
  const outer = new Uint8Array(size).fill(0xee);
  const view = outer.subarray(offset, offset + n);
  for (let i = 0; i < n; i++) view[i] = (i * 31 + seed) % 251;
  return view;
}

const CASES: ReadonlyArray<readonly [string, () => Uint8Array]> = [
  ['a subarray at an offset of a larger buffer', () => viewInto(4096, 1000, 300, 7)],
  ['a small Buffer (Node pools it in a shared 8 KiB buffer)', () => Buffer.from('a checkpoint in a pooled Buffer')],
  [
    'a Buffer over part of an ArrayBuffer',
    () => {
      const v = viewInto(2048, 512, 64, 11);
      return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    },
  ],
  ['a view at the end of its buffer', () => viewInto(512, 412, 100, 13)],
];

describe('R02 a payload is exactly its view’s bytes', () => {
  it('R02.22 a payload given as a view into a larger buffer (a subarray at an offset, a pooled Buffer, a Buffer over part of an ArrayBuffer) is written, committed and loaded as exactly the view’s bytes — size and hash of the pending ref, bytes of the committed and loaded head — even when the caller overwrites its buffer once the write resolved', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const seen: string[] = [];
    for (const [what, make] of CASES) {
      const view = make();
      const want = hex(view);
      const wantHash = sha256Hex(view);
      const th = await openThread(t());
      const ref = await writeWithinRate(t(), th, `view-${seen.length}`, view);
      // The caller reuses its memory: what was written must not change with it.
      view.fill(0);
      const committed = await th.store.commit_head(th.scope, ref, 0, `run-view-${seen.length}`);
      const loaded = await th.store.load_head(th.scope);
      expect(
        {
          size: ref.size,
          contentHash: ref.contentHash,
          committed: hex(committed.payload.bytes),
          loaded: loaded && hex(loaded.payload.bytes),
        },
        what,
      ).toEqual({ size: want.length / 2, contentHash: wantHash, committed: want, loaded: want });
      seen.push(`${what}: ${want.length / 2} bytes at offset ${view.byteOffset} of ${view.buffer.byteLength}`);
    }
    await ctx.annotate(seen.join('; '));
  });
});
