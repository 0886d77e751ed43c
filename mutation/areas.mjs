/**
 * The mutation-testing areas: which reference files are mutated, and which tests make up the
 * test command for them — the kit's own fast unit tests of the area plus the certification
 * suites of the requirements the area implements, run against the IN-PROCESS reference
 * (reference-impl/module-target.ts; the suites reach it only through contract/, by path).
 *
 * Left out of every area, because the in-process target cannot run them (they need separate
 * processes to SIGKILL, Toxiproxy on a network link, or a MongoDB-wire server):
 *   suites/r01-restore.spec.ts, suites/r01-uncertain-after-output.spec.ts,
 *   suites/r04-zombie-partition.spec.ts, suites/r10-collector-toxiproxy.spec.ts,
 *   test/state/mongodb-*.test.ts (FerretDB), test/runs/remote-worker-transport.test.ts and the
 *   served-fixture tests (control plane + worker processes).
 */
export const AREAS = {
  state: {
    mutate: [
      'reference-impl/state/**/*.ts',
      // Only the MongoDB backend target (FerretDB, a separate server) runs these.
      '!reference-impl/state/mongodb-*.ts',
    ],
    tests: [
      'test/state/bindings-registry.test.ts',
      'test/state/failpoints.test.ts',
      'test/state/sqlite-state-backend.test.ts',
      'test/state/state-limits.test.ts',
      'test/state/state-service.test.ts',
      'suites/r02-durable-head.spec.ts',
      'suites/r02-payload-views.spec.ts',
      'suites/r02-multibyte-run-text.spec.ts',
      'suites/r02-empty-values.spec.ts',
      'suites/r02-concurrent-history.spec.ts',
      'suites/r03-idempotency.spec.ts',
      'suites/r03-crash-failpoints.spec.ts',
      'suites/r03-concurrent-history.spec.ts',
      'suites/r04-scope-isolation.spec.ts',
      'suites/r04-lease-fencing-history.spec.ts',
      'suites/r04-scope-change-mid-call.spec.ts',
    ],
  },
  memory: {
    mutate: [
      'reference-impl/memory/**/*.ts',
      // A build-time generator of confusables-table.ts, not part of the running reference.
      '!reference-impl/memory/generate-confusables.ts',
    ],
    tests: [
      'test/memory/*.test.ts',
      'suites/r05-memory-isolation.spec.ts',
      'suites/r06-conflicts-provenance.spec.ts',
      'suites/r06-concurrent-history.spec.ts',
      'suites/r06-audit-key-filter.spec.ts',
      'suites/r07-injection-retention-approval.spec.ts',
      'suites/r07-reported-attacks.spec.ts',
      'suites/r07-line-breaks.spec.ts',
      'suites/r07-json-positions.spec.ts',
    ],
  },
  // A subset of memory for a run that fits ~40 min on two shared cores: the files of the
  // memory write/delete/purge pipeline and its policies (not the text classifiers), with only
  // the tests that exercise them — the corpus, fuzz and decoder/normalizer/secret-scanner unit
  // tests are left out (they test the classifiers and run the whole pipeline thousands of times,
  // which would make every pipeline mutant minutes long). `memory` above is unchanged.
  'memory-pipeline': {
    mutate: [
      'reference-impl/memory/{write-pipeline,commit-write,authorize,namespace,delete-record,purge-expired,retention,revision-check,approval-policy,approvals-service,memory-policy,tool-authorization,quarantine-policy,consolidation-policy}.ts',
    ],
    tests: [
      'test/memory/memory-service.test.ts',
      'test/memory/quarantine.test.ts',
      'test/memory/revision-and-consolidation.test.ts',
      'test/memory/validate.test.ts',
      'test/memory/recency-ranking-control.test.ts',
      'test/memory/obfuscation-quarantine.test.ts',
      'test/memory/approvals-service.test.ts',
      'test/memory/delete-and-purge.test.ts',
      'test/memory/quarantine-reasons.test.ts',
      'test/memory/search-index.test.ts',
      'test/memory/audit-reader.test.ts',
      'suites/r05-memory-isolation.spec.ts',
      'suites/r06-conflicts-provenance.spec.ts',
      'suites/r06-concurrent-history.spec.ts',
      'suites/r06-audit-key-filter.spec.ts',
      'suites/r07-injection-retention-approval.spec.ts',
      'suites/r07-reported-attacks.spec.ts',
    ],
  },
  telemetry: {
    mutate: ['reference-impl/telemetry/**/*.ts'],
    tests: [
      'test/telemetry/*.test.ts',
      'suites/r08-causal-trace.spec.ts',
      'suites/r09-context-baggage.spec.ts',
      'suites/r10-leak-canaries-outage.spec.ts',
      'suites/r10-export-retry-bound.spec.ts',
      'suites/r10-health-partial-outage.spec.ts',
      'suites/r10-health-failed-export-count.spec.ts',
    ],
  },
  runs: {
    mutate: ['reference-impl/runs/**/*.ts'],
    tests: [
      'test/runs/reference-runs.test.ts',
      'test/runs/run-request-validation.test.ts',
      'test/runs/binding-locks.test.ts',
      'test/runs/event-stream.test.ts',
      'test/runs/pod-local-cache.test.ts',
      'test/langgraph/contract-checkpoint-saver.test.ts',
      'suites/r03-crash-failpoints.spec.ts',
      'suites/r08-causal-trace.spec.ts',
    ],
  },
};

/** The area named by SMTC_MUTATION_AREA (set by mutation/run.mjs), or a located error. */
export function areaFromEnv(env = process.env) {
  const name = env.SMTC_MUTATION_AREA;
  const area = name ? AREAS[name] : undefined;
  if (!area) {
    throw new Error(`SMTC_MUTATION_AREA must be one of ${Object.keys(AREAS).join(', ')} (got ${name ?? 'nothing'})`);
  }
  return { name, ...area };
}
