/**
 * The last element of an append-only sequence 1, 2, 3 … whose elements are documents found by
 * `_id` only. Elements are written in order and never removed (at most emptied to a tombstone),
 * so "n exists" is monotonic: gallop up from a known lower bound, then bisect. From an exact
 * hint this costs one read (the miss just above it).
 */
import { ContractError } from '../../contract/errors.js';

export interface Found<D> {
  readonly n: number;
  readonly doc: D;
}

/** Upper bound on reads per search: 2·log2 of any realistic sequence length, plus slack. */
const MAX_READS = 96;

/**
 * `start`: an element known to exist with its content, or null to search from the beginning.
 * `get(n)`: the element or null; `hasContent(d)` is false for a tombstone (exists, content gone).
 * Returns null for an empty sequence.
 */
export async function lastOfSequence<D>(
  start: Found<D> | null,
  get: (n: number) => Promise<D | null>,
  hasContent: (d: D) => boolean = () => true,
): Promise<Found<D> | null> {
  let base = start?.n ?? 0; // highest n known to exist (0: none)
  let content: D | null = start?.doc ?? null; // its content, when known
  let miss: number | null = null; // lowest n known to be missing
  let step = 1;
  for (let reads = 0; reads < MAX_READS; reads++) {
    if (miss === base + 1) {
      if (base === 0) return null;
      if (content !== null) return { n: base, doc: content };
      const d = await get(base);
      if (d && hasContent(d)) return { n: base, doc: d };
      // Emptied since we saw it: newer elements were appended meanwhile; search above again.
      miss = null;
      step = 1;
      continue;
    }
    const n: number = miss === null ? base + step : base + Math.max(1, Math.floor((miss - base) / 2));
    const d = await get(n);
    if (d) {
      base = n;
      content = hasContent(d) ? d : null;
      if (miss === null) step *= 2;
    } else {
      miss = n;
    }
  }
  throw new ContractError('unavailable', 'the state store did not settle');
}
