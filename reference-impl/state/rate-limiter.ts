/**
 * Write-rate bound per binding: a token bucket (capacity = rate, refilled continuously) read
 * on the injectable clock. Buckets live in memory and their number is bounded; an evicted
 * bucket comes back full, which can only let a binding that was idle longest write again.
 */
import type { AdjustableClock } from '../platform/clock.js';

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: AdjustableClock,
    private readonly perSecond: number,
    private readonly maxBuckets: number,
  ) {}

  /** Take one token for `key`; false (and nothing taken) when the bucket is empty. */
  tryTake(key: string): boolean {
    const now = this.clock.now();
    let b = this.buckets.get(key);
    if (b) {
      this.buckets.delete(key); // re-inserted below: Map order doubles as LRU order
      b.tokens = Math.min(this.perSecond, b.tokens + ((now - b.at) / 1000) * this.perSecond);
      b.at = now;
    } else {
      b = { tokens: this.perSecond, at: now };
      if (this.buckets.size >= this.maxBuckets) {
        const oldest = this.buckets.keys().next();
        if (!oldest.done) this.buckets.delete(oldest.value);
      }
    }
    this.buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
