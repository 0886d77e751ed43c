/**
 * Injectable clock: real time plus an offset the test controls can advance (retention).
 * Every time-dependent rule in the reference reads this, never Date.now() directly.
 */
/**
 * How far the clock may go: a JS Date holds times up to 8.64e15 ms (ECMA-262), less a thousand
 * years of headroom for dates derived from now (an expiry is now + a retention period).
 */
export const MAX_CLOCK_MS = 8.64e15 - 1000 * 365.25 * 86_400_000;

export class AdjustableClock {
  private offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  iso(): string {
    return new Date(this.now()).toISOString();
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('clock can only move forward');
    if (!this.canAdvance(ms)) throw new RangeError('clock would leave the date range');
    this.offsetMs += ms;
  }
  /** Whether moving forward by ms keeps every date the reference derives representable. */
  canAdvance(ms: number): boolean {
    return Number.isFinite(ms) && ms >= 0 && this.now() + ms <= MAX_CLOCK_MS;
  }
}
