/**
 * Runs the requirement suites through vitest's Node API against one target. The target is
 * handed to the suite processes as SMTC_TARGET; vitest's own timeouts bound every scenario,
 * and a watchdog bounds each suite file and the whole run, so a hanging target yields
 * failures, never a hang. A stop (an interrupt, an overrun) returns what finished so far
 * without waiting for vitest: the caller then stops the run's processes.
 */
import path from 'node:path';
import { startVitest } from 'vitest/node';
import type { RequirementId } from '../../contract/requirements.js';
import { ResultCollector } from './result-collector.js';
import type { ClauseResult } from './verdict.js';
import { type Overrun, startWatchdog, watchdogBounds } from './watchdog.js';

export interface SuiteRunOptions {
  readonly root: string;
  readonly target: string;
  readonly only: readonly RequirementId[];
  readonly reportDir: string;
  readonly requireAll: boolean;
  /** Run the suite files one at a time (the target module's targets share processes). */
  readonly serial?: boolean;
  readonly seed?: number;
  readonly runsScale?: number;
  readonly out: (line: string) => void;
  /** Resolves (with the signal) when the run is interrupted. */
  readonly interrupted?: Promise<'SIGINT' | 'SIGTERM'>;
}

export interface SuiteRunResult {
  readonly clauses: readonly ClauseResult[];
  /** Errors vitest raised outside any test (unhandled rejections, crashed workers). */
  readonly runErrors: readonly string[];
  /** Suite files that ran to their end (relative to the root). */
  readonly finished: ReadonlySet<string>;
  /** Set when the run was stopped before vitest finished. */
  readonly stopped?: { readonly interrupted: 'SIGINT' | 'SIGTERM' } | { readonly overrun: Overrun };
}

export async function runSuites(o: SuiteRunOptions): Promise<SuiteRunResult> {
  process.env.SMTC_TARGET = o.target;
  process.env.SMTC_REPORT_DIR = o.reportDir;
  if (o.requireAll) process.env.SMTC_REQUIRE_ALL = '1';
  if (o.seed !== undefined) process.env.SMTC_SEED = String(o.seed);
  if (o.runsScale !== undefined) process.env.SMTC_RUNS_SCALE = String(o.runsScale);

  const collector = new ResultCollector(o.out, o.root);
  const filters = o.only.map((id) => `suites/r${id.slice(1)}-`);
  let overrun!: (o: Overrun) => void;
  const overran = new Promise<Overrun>((resolve) => {
    overrun = resolve;
  });
  const dog = startWatchdog(collector, o.root, watchdogBounds(), overrun);
  // vitest's logger exits the process on SIGINT/SIGTERM within a millisecond; the run's own
  // handler (cli/certify/interrupt.ts) must clean up first, so vitest's are removed once added.
  const ours = new Map((['SIGINT', 'SIGTERM'] as const).map((s) => [s, new Set(process.listeners(s))]));
  const keepOurSignalHandlers = {
    onInit() {
      for (const [signal, keep] of ours) {
        for (const l of process.listeners(signal)) if (!keep.has(l)) process.off(signal, l);
      }
    },
  };
  const running = startVitest(
    'test',
    filters,
    {
      config: path.join(o.root, 'suites/vitest.config.ts'),
      root: o.root,
      watch: false,
      run: true,
      reporters: [keepOurSignalHandlers, collector],
      passWithNoTests: true,
      ...(o.serial ? { fileParallelism: false } : {}),
    },
    {},
  );
  const first = await Promise.race([
    running.then((vitest) => ({ vitest })),
    overran.then((o) => ({ stopped: { overrun: o } })),
    ...(o.interrupted ? [o.interrupted.then((signal) => ({ stopped: { interrupted: signal } }))] : []),
  ]);
  dog.stop();
  if ('stopped' in first) {
    // vitest may never finish (a blocked suite process): what finished so far is the result.
    running.catch(() => {});
    return {
      clauses: [...collector.clauses],
      runErrors: [],
      finished: new Set(collector.finished),
      stopped: first.stopped,
    };
  }
  const { vitest } = first;
  const runErrors = vitest.state.getUnhandledErrors().map((e) => (e instanceof Error ? e.message : String(e)));
  await vitest.close();
  return { clauses: collector.clauses, runErrors, finished: collector.finished };
}
