/**
 * vitest sequencer of the certification suites: longest file first, so with files running side
 * by side the run does not end on one long file started last. Order from a fixed table of
 * measured wall times (bench/certify-wall.bench.ts, served reference), not from vitest's
 * cache of the previous run: the same order on every machine and every run. A file not in the
 * table runs first (it may be long); a stale table only costs time, never a verdict.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each file took in a full certification of the served reference (its timings.json:
 * queued to ended, files one at a time, on an otherwise idle 2-core machine, 2026-12-05):
 * relative weights, not expectations.
 */
const MEASURED_S: Readonly<Record<string, number>> = {
  'r07-injection-retention-approval.spec.ts': 57,
  'r10-leak-canaries-outage.spec.ts': 42,
  'r05-memory-isolation.spec.ts': 33,
  'r03-crash-failpoints.spec.ts': 30,
  'r10-health-accounting.spec.ts': 15,
  'r04-zombie-partition.spec.ts': 14,
  'r10-collector-toxiproxy.spec.ts': 14,
  'r01-uncertain-after-output.spec.ts': 13,
  'r10-export-bound.spec.ts': 13,
  'r04-scope-change-mid-call.spec.ts': 12,
  'r04-scope-isolation.spec.ts': 12,
  'r01-restore.spec.ts': 10,
  'r06-conflicts-provenance.spec.ts': 7,
  'r08-causal-trace.spec.ts': 7,
  'r03-idempotency.spec.ts': 7,
  'r10-health-drop-order.spec.ts': 6,
  'r09-context-baggage.spec.ts': 6,
  'r10-health-export-order.spec.ts': 6,
  'r02-durable-head.spec.ts': 5,
  'r10-export-bound-flushes.spec.ts': 5,
  'r07-reported-attacks.spec.ts': 4,
  'r06-audit-key-filter.spec.ts': 3,
  'r07-line-breaks.spec.ts': 2,
  'r07-json-positions.spec.ts': 2,
  'r04-lease-fencing-history.spec.ts': 2,
  'r06-concurrent-history.spec.ts': 2,
  'r02-empty-values.spec.ts': 2,
  'r04-runs-on-current-scope.spec.ts': 2,
  'r03-run-record.spec.ts': 2,
  'r02-payload-views.spec.ts': 2,
  'r03-concurrent-history.spec.ts': 2,
  'r02-concurrent-history.spec.ts': 2,
  // Added since: its certify --only run on the served reference (set-up included).
  'r10-export-retry-bound.spec.ts': 16,
  'r10-health-partial-outage.spec.ts': 6,
  'r10-health-failed-export-count.spec.ts': 8,
  'r02-multibyte-run-text.spec.ts': 3,
};

export function expectedSeconds(file: string): number {
  return MEASURED_S[path.basename(file)] ?? Number.POSITIVE_INFINITY;
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort(
      (a, b) => expectedSeconds(b.moduleId) - expectedSeconds(a.moduleId) || a.moduleId.localeCompare(b.moduleId),
    );
  }
}
