/**
 * Injectable clock: real time plus an offset the test controls can advance (retention).
 * Every time-dependent rule in the reference reads this, never Date.now() directly.
 */
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
    this.offsetMs += ms;
  }
}
