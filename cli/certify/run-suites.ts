/**
 * Runs the requirement suites through vitest's Node API against one target. The run's
 * settings reach the suite processes through vitest's `provide` (see
 * fixtures/settings/run-settings.ts); vitest's own timeouts bound every scenario, so a
 * hanging target yields failures, never a hang.
 */
import path from 'node:path';
import { startVitest } from 'vitest/node';
import type { RunSettings } from '../../fixtures/settings/run-settings.js';
import { ResultCollector } from './result-collector.js';
import { isSelected, type Selection, testNamePattern } from './selection.js';
import type { ClauseResult } from './verdict.js';

export interface SuiteRunOptions {
  readonly root: string;
  readonly settings: RunSettings;
  readonly selection: Selection;
  /** Run the suite files one at a time (the target module's targets share processes). */
  readonly serial?: boolean;
  readonly out: (line: string) => void;
}

export interface SuiteRunResult {
  readonly clauses: readonly ClauseResult[];
  /** Errors vitest raised outside any test (unhandled rejections, crashed workers). */
  readonly runErrors: readonly string[];
  /** The target's name and declared capabilities, as the suites saw them. */
  readonly declared: ResultCollector['declared'];
}

export async function runSuites(o: SuiteRunOptions): Promise<SuiteRunResult> {
  const collector = new ResultCollector(o.out, o.root, (id) => isSelected(o.selection, id));
  const filters = o.selection.requirements.map((id) => `suites/r${id.slice(1)}-`);
  const pattern = testNamePattern(o.selection);
  const vitest = await startVitest(
    'test',
    filters,
    {
      config: path.join(o.root, 'suites/vitest.config.ts'),
      root: o.root,
      watch: false,
      run: true,
      reporters: [collector],
      passWithNoTests: true,
      provide: { smtcSettings: o.settings },
      ...(pattern ? { testNamePattern: pattern } : {}),
      ...(o.serial ? { fileParallelism: false } : {}),
    },
    {},
  );
  const runErrors = vitest.state.getUnhandledErrors().map((e) => (e instanceof Error ? e.message : String(e)));
  await vitest.close();
  return { clauses: collector.clauses, runErrors, declared: collector.declared };
}
