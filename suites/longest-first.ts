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
 * Seconds each file took in a full certification of the served reference (bench/certify-wall,
 * files one at a time, on a loaded 2-core machine: relative weights, not expectations).
 */
const MEASURED_S: Readonly<Record<string, number>> = {
  'r07-injection-retention-approval.spec.ts': 200,
  'r03-crash-failpoints.spec.ts': 148,
  'r01-restore.spec.ts': 132,
  'r05-memory-isolation.spec.ts': 137,
  'r04-scope-isolation.spec.ts': 120,
  'r10-leak-canaries-outage.spec.ts': 73,
  'r06-concurrent-history.spec.ts': 63,
  'r02-durable-head.spec.ts': 61,
  'r02-concurrent-history.spec.ts': 60,
  'r04-zombie-partition.spec.ts': 55,
  'r01-uncertain-after-output.spec.ts': 54,
  'r04-lease-fencing-history.spec.ts': 50,
  'r08-causal-trace.spec.ts': 52,
  'r03-idempotency.spec.ts': 50,
  'r06-conflicts-provenance.spec.ts': 47,
  'r10-collector-toxiproxy.spec.ts': 39,
  'r09-context-baggage.spec.ts': 35,
  'r03-concurrent-history.spec.ts': 34,
  'r04-scope-change-mid-call.spec.ts': 36,
  // Added since the last full measurement: their certify --only runs (setup included).
  'r04-runs-on-current-scope.spec.ts': 12,
  'r03-run-record.spec.ts': 10,
  'r10-export-bound.spec.ts': 24,
  'r10-health-accounting.spec.ts': 22,
  'r10-export-bound-flushes.spec.ts': 12,
  'r07-reported-attacks.spec.ts': 4,
  'r02-payload-views.spec.ts': 3,
  'r02-empty-values.spec.ts': 3,
  'r06-audit-key-filter.spec.ts': 3,
  'r10-health-export-order.spec.ts': 12,
  'r10-health-drop-order.spec.ts': 10,
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
