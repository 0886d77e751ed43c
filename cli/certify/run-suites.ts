/**
 * Runs the requirement suites through vitest's Node API against one target. The target is
 * handed to the suite processes as SMTC_TARGET; vitest's own timeouts bound every scenario,
 * so a hanging target yields failures, never a hang.
 */
import path from 'node:path';
import { startVitest } from 'vitest/node';
import type { RequirementId } from '../../contract/requirements.js';
import { ResultCollector } from './result-collector.js';
import type { ClauseResult } from './verdict.js';

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
}

export interface SuiteRunResult {
  readonly clauses: readonly ClauseResult[];
  /** Errors vitest raised outside any test (unhandled rejections, crashed workers). */
  readonly runErrors: readonly string[];
}

export async function runSuites(o: SuiteRunOptions): Promise<SuiteRunResult> {
  process.env.SMTC_TARGET = o.target;
  process.env.SMTC_REPORT_DIR = o.reportDir;
  if (o.requireAll) process.env.SMTC_REQUIRE_ALL = '1';
  if (o.seed !== undefined) process.env.SMTC_SEED = String(o.seed);
  if (o.runsScale !== undefined) process.env.SMTC_RUNS_SCALE = String(o.runsScale);

  const collector = new ResultCollector(o.out, o.root);
  const filters = o.only.map((id) => `suites/r${id.slice(1)}-`);
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
      ...(o.serial ? { fileParallelism: false } : {}),
    },
    {},
  );
  const runErrors = vitest.state.getUnhandledErrors().map((e) => (e instanceof Error ? e.message : String(e)));
  await vitest.close();
  return { clauses: collector.clauses, runErrors };
}
