/**
 * Which suite files a selection runs, and which selected clauses no scenario answered.
 *
 * A requirement selected whole runs all its files (`suites/rNN-*.spec.ts`). A requirement
 * selected by clauses only runs the files that name one of those clauses as a quoted id (a
 * scenario title `'R03.19 …'` or a table entry `id: 'R10.2'`): a mutant's or a replay's
 * certification then starts no fork for files with nothing to run. A clause named in no file
 * (a generated id such as `R03.${20 + i}`) runs every file of its requirement, as before.
 * Whatever the files, a selected clause that no scenario reported is `not_run`, never silently
 * left out of a certified requirement.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequirementId } from '../../contract/requirements.js';
import type { Selection } from './selection.js';
import type { ClauseResult } from './verdict.js';

/** A requirement's suite files, relative to the root. */
export function requirementFiles(root: string, req: RequirementId): string[] {
  const prefix = `r${req.slice(1)}-`;
  return readdirSync(path.join(root, 'suites'))
    .filter((f) => f.startsWith(prefix) && f.endsWith('.spec.ts'))
    .sort()
    .map((f) => path.join('suites', f));
}

/** The clause id as the start of a quoted string, not followed by another digit. */
const quotedId = (clause: string) => new RegExp(`['"\`]${clause.replace('.', '\\.')}(?!\\d)`);

/** The suite files the selection runs, relative to the root. */
export function selectedSuiteFiles(root: string, s: Selection): string[] {
  const files: string[] = [];
  for (const req of s.requirements) {
    const all = requirementFiles(root, req);
    const clauses = s.clauses.filter((c) => c.startsWith(`${req}.`));
    if (clauses.length === 0) {
      files.push(...all);
      continue;
    }
    const text = new Map(all.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));
    const naming = clauses.map((c) => all.filter((f) => quotedId(c).test(text.get(f) ?? '')));
    files.push(...(naming.some((n) => n.length === 0) ? all : all.filter((f) => naming.some((n) => n.includes(f)))));
  }
  return files;
}

/** A `not_run` result for each selected clause that no scenario reported. */
export function absentClauses(s: Selection, clauses: readonly ClauseResult[]): ClauseResult[] {
  const seen = new Set(clauses.map((c) => c.id));
  return s.clauses
    .filter((id) => !seen.has(id))
    .map((id) => ({
      id,
      requirement: id.slice(0, 3) as RequirementId,
      title: 'selected clause',
      state: 'not_run' as const,
      durationMs: 0,
      file: '',
      message: 'selected, but no scenario with this id ran: no such clause in this build',
      annotations: [],
    }));
}
