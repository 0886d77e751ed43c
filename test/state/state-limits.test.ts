import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../reference-impl/platform/clock.js';
import { RateLimiter } from '../../reference-impl/state/rate-limiter.js';
import { DEFAULT_STATE_LIMITS, resolveStateLimits } from '../../reference-impl/state/state-limits.js';

describe('state limits', () => {
  it('defaults apply when no override is given, overrides replace them one by one', () => {
    expect(resolveStateLimits(undefined)).toEqual(DEFAULT_STATE_LIMITS);
    expect(resolveStateLimits({ stateLimits: { maxPendingEntries: 3 } })).toEqual({
      ...DEFAULT_STATE_LIMITS,
      maxPendingEntries: 3,
    });
  });

  it('without options every bound is a finite positive integer (a target always has bounds)', () => {
    const limits = resolveStateLimits(undefined);
    const names = ['maxPayloadBytes', 'maxPendingEntries', 'maxWritesPerSecond'] as const;
    expect(Object.keys(limits).sort()).toEqual([...names].sort());
    for (const name of names) {
      expect({ name, bound: Number.isSafeInteger(limits[name]) && limits[name] >= 1 }).toEqual({ name, bound: true });
    }
    expect(resolveStateLimits({})).toEqual(limits);
  });

  it('accepts a bound of exactly 1, the smallest there is', () => {
    const one = { maxPayloadBytes: 1, maxPendingEntries: 1, maxWritesPerSecond: 1 };
    expect(resolveStateLimits({ stateLimits: one })).toEqual(one);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses a bound of %s', (v) => {
    expect(() => resolveStateLimits({ stateLimits: { maxPayloadBytes: v } })).toThrow(RangeError);
  });
});

/** A clock that only moves when the test says so. */
function frozenClock(): AdjustableClock {
  const c = new AdjustableClock();
  const start = c.now();
  let offset = 0;
  c.now = () => start + offset;
  c.advance = (ms) => {
    offset += ms;
  };
  return c;
}

describe('write-rate token bucket', () => {
  it('allows a burst of `rate`, then refills continuously at `rate` per second', () => {
    const clock = frozenClock();
    const rl = new RateLimiter(clock, 4, 10);
    expect([1, 2, 3, 4, 5].map(() => rl.tryTake('b'))).toEqual([true, true, true, true, false]);
    clock.advance(250); // one token
    expect([rl.tryTake('b'), rl.tryTake('b')]).toEqual([true, false]);
    clock.advance(10_000); // refill caps at the burst size
    expect([1, 2, 3, 4, 5].map(() => rl.tryTake('b'))).toEqual([true, true, true, true, false]);
  });

  it('keeps bindings independent', () => {
    const rl = new RateLimiter(frozenClock(), 1, 10);
    expect([rl.tryTake('a'), rl.tryTake('a'), rl.tryTake('b')]).toEqual([true, false, true]);
  });

  it('holds a bounded number of buckets, evicting the least recently used', () => {
    const rl = new RateLimiter(frozenClock(), 1, 2);
    expect([rl.tryTake('a'), rl.tryTake('b')]).toEqual([true, true]);
    expect(rl.tryTake('a')).toBe(false); // 'a' is now the most recent
    expect(rl.tryTake('c')).toBe(true); // evicts 'b'
    expect(rl.tryTake('a')).toBe(false); // 'a' kept its empty bucket
    expect(rl.tryTake('b')).toBe(true); // 'b' came back full
  });
});
