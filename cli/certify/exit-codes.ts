/**
 * The exit codes of `smtc certify` — the one table the README documents. A run that
 * exercised nothing (every selected clause not run) never exits 0: a CI that gates on the
 * code must not pass a target that declares no capability.
 */
import type { ClauseResult } from './verdict.js';

export const EXIT = {
  /** Every selected requirement certified — or, without --strict, nothing failed and something ran. */
  ok: 0,
  /** A selected requirement failed (or the suites errored outside any scenario). */
  failed: 1,
  /** Bad usage, or the target could not be used; no verdict is written. */
  unusable: 2,
  /** --strict: a selected requirement is not certified (something was not run). */
  notCertified: 3,
  /** Nothing was exercised: every selected clause was not run (e.g. no capability declared). */
  nothingExercised: 4,
} as const;

export function exitCodeOf(
  overall: 'certified' | 'not_certified' | 'failed',
  clauses: readonly ClauseResult[],
  strict: boolean,
): number {
  if (overall === 'failed') return EXIT.failed;
  if (!clauses.some((c) => c.state === 'passed' || c.state === 'failed')) return EXIT.nothingExercised;
  if (overall !== 'certified' && strict) return EXIT.notCertified;
  return EXIT.ok;
}
