/**
 * The clauses of a run stopped before its end (an interrupt, a watchdog overrun): a suite file
 * that overran fails its requirement, and every requirement with a suite file that did not run
 * to its end gets a "not run" clause saying why — so no requirement is certified on the
 * strength of the scenarios that happened to finish before the stop.
 */
import path from 'node:path';
import type { RequirementId } from '../../contract/requirements.js';
import type { ClauseResult } from './verdict.js';
import type { Overrun } from './watchdog.js';

export function clausesOfStoppedRun(
  root: string,
  selected: readonly RequirementId[],
  clauses: readonly ClauseResult[],
  /** The suite files the run was to run, and those that ran to their end (relative to the root). */
  files: readonly string[],
  finished: ReadonlySet<string>,
  why: string,
  overrun?: Overrun,
): ClauseResult[] {
  const all = [...clauses];
  const overranFile = overrun?.kind === 'file' && overrun.file ? path.relative(root, overrun.file) : undefined;
  for (const req of selected) {
    const unfinished = files.filter((f) => f.startsWith(`suites/r${req.slice(1)}-`) && !finished.has(f));
    if (unfinished.length === 0) continue;
    const base = { requirement: req, durationMs: 0, annotations: [] as string[] };
    if (overranFile && unfinished.includes(overranFile)) {
      all.push({
        ...base,
        id: req,
        title: `suite ${path.basename(overranFile)} overran its time bound`,
        state: 'failed',
        file: overranFile,
        message: overrun?.message ?? why,
      });
    }
    all.push({
      ...base,
      id: req,
      title: 'suite files did not run to their end',
      state: 'not_run',
      file: unfinished[0] ?? '',
      message: `${why}: ${unfinished.map((f) => path.basename(f)).join(', ')} did not finish`,
    });
  }
  return all;
}
