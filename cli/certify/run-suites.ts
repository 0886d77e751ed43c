/**
 * Runs the requirement suites through vitest's Node API against one target. The run's
 * settings reach the suite processes through vitest's `provide` (see
 * fixtures/settings/run-settings.ts); vitest's own timeouts bound every scenario, and a
 * watchdog bounds each suite file and the whole run, so a hanging target yields failures,
 * never a hang. A stop (an interrupt, an overrun) returns what finished so far without
 * waiting for vitest: the caller then stops the run's processes.
 */
import path from 'node:path';
import { startVitest, type Vitest } from 'vitest/node';
import type { RunSettings } from '../../fixtures/settings/run-settings.js';
import { type FileTiming, FileTimings } from './file-timings.js';
import { ResultCollector } from './result-collector.js';
import { isSelected, type Selection, testNamePattern } from './selection.js';
import { selectedSuiteFiles } from './suite-files.js';
import type { ClauseResult } from './verdict.js';
import { type Overrun, startWatchdog, watchdogBounds } from './watchdog.js';

/** Bound on cancelling a stopped vitest (a blocked suite process may never answer). */
const CANCEL_WAIT_MS = 2_000;

export interface SuiteRunOptions {
  readonly root: string;
  readonly settings: RunSettings;
  readonly selection: Selection;
  /** Run the suite files one at a time (the target module's targets share processes). */
  readonly serial?: boolean;
  readonly out: (line: string) => void;
  /** Resolves (with the signal) when the run is interrupted. */
  readonly interrupted?: Promise<'SIGINT' | 'SIGTERM'>;
  /** Stop once every selected requirement has a failed clause (--fail-fast). */
  readonly failFast?: boolean;
}

export interface SuiteRunResult {
  readonly clauses: readonly ClauseResult[];
  /** Errors vitest raised outside any test (unhandled rejections, crashed workers). */
  readonly runErrors: readonly string[];
  /** The target's name, declared capabilities and harnesses, as the suites saw them. */
  readonly declared: ResultCollector['declared'];
  /** Suite files the selection runs, and those that ran to their end (relative to the root). */
  readonly files: readonly string[];
  readonly finished: ReadonlySet<string>;
  /** Where each finished suite file's wall time went. */
  readonly timings: readonly FileTiming[];
  /** Set when the run was stopped before vitest finished. */
  readonly stopped?:
    | { readonly interrupted: 'SIGINT' | 'SIGTERM' }
    | { readonly overrun: Overrun }
    | { readonly failFast: true };
}

/** An unhandled error as one line; it may be anything a target threw, even a null-prototype object. */
function describeError(e: unknown): string {
  if (e instanceof Error) return e.message;
  const m = (e as { message?: unknown } | null)?.message;
  if (typeof m === 'string') return m;
  try {
    return JSON.stringify(e) ?? Object.prototype.toString.call(e);
  } catch {
    return Object.prototype.toString.call(e);
  }
}

export async function runSuites(o: SuiteRunOptions): Promise<SuiteRunResult> {
  const collector = new ResultCollector(o.out, o.root, (id) => isSelected(o.selection, id), o.settings.harness);
  const files = selectedSuiteFiles(o.root, o.selection);
  const pattern = testNamePattern(o.selection);
  const timings = new FileTimings(o.root);
  let overrun!: (o: Overrun) => void;
  const overran = new Promise<Overrun>((resolve) => {
    overrun = resolve;
  });
  const dog = startWatchdog(collector, o.root, watchdogBounds(), overrun);
  // --fail-fast: the verdict of every selected requirement is known at its first failed clause.
  const allFailed = new Promise<true>((resolve) => {
    if (!o.failFast) return;
    const failing = new Set<string>();
    collector.onClause = (c) => {
      if (c.state !== 'failed') return;
      failing.add(c.requirement);
      if (o.selection.requirements.every((r) => failing.has(r))) resolve(true);
    };
  });
  // vitest's logger exits the process on SIGINT/SIGTERM within a millisecond; the run's own
  // handler (cli/certify/interrupt.ts) must clean up first, so vitest's are removed once added.
  const ours = new Map((['SIGINT', 'SIGTERM'] as const).map((s) => [s, new Set(process.listeners(s))]));
  // The live vitest, so a stopped run can cancel it: else its pool starts the next queued suite
  // file in a new process after the run's processes were stopped (and that one writes to the
  // run's TMPDIR after it was removed).
  let live: Vitest | undefined;
  const keepOurSignalHandlers = {
    onInit(ctx: Vitest) {
      live = ctx;
      for (const [signal, keep] of ours) {
        for (const l of process.listeners(signal)) if (!keep.has(l)) process.off(signal, l);
      }
    },
  };
  const running = startVitest(
    'test',
    files,
    {
      config: path.join(o.root, 'suites/vitest.config.ts'),
      root: o.root,
      watch: false,
      run: true,
      reporters: [keepOurSignalHandlers, collector, timings],
      passWithNoTests: true,
      provide: { smtcSettings: o.settings },
      ...(pattern ? { testNamePattern: pattern } : {}),
      ...(o.serial ? { fileParallelism: false } : {}),
    },
    {},
  );
  const first = await Promise.race([
    running.then((vitest) => ({ vitest })),
    overran.then((o) => ({ stopped: { overrun: o } })),
    allFailed.then(() => ({ stopped: { failFast: true as const } })),
    ...(o.interrupted ? [o.interrupted.then((signal) => ({ stopped: { interrupted: signal } }))] : []),
  ]);
  dog.stop();
  if ('stopped' in first) {
    // vitest may never finish (a blocked suite process): what finished so far is the result.
    running.catch(() => {});
    // Taken before cancelling: a cancelled scenario would report itself skipped, not stopped.
    const result: SuiteRunResult = {
      clauses: [...collector.clauses],
      runErrors: [],
      declared: collector.declared,
      files,
      finished: new Set(collector.finished),
      timings: [...timings.files],
      stopped: first.stopped,
    };
    await Promise.race([
      live?.cancelCurrentRun('test-failure').catch(() => {}),
      new Promise((r) => setTimeout(r, CANCEL_WAIT_MS).unref()),
    ]);
    return result;
  }
  const { vitest } = first;
  const runErrors = vitest.state.getUnhandledErrors().map(describeError);
  await vitest.close();
  return {
    clauses: collector.clauses,
    runErrors,
    declared: collector.declared,
    files,
    finished: collector.finished,
    timings: timings.files,
  };
}
