/**
 * `smtc certify`: load the target (so a broken target fails fast with a clear message), run
 * the selected suites, decide the verdict per requirement, write verdict.json, junit.xml and
 * report.html, and print the table. Exit codes: cli/certify/exit-codes.ts (the README's table).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { REQUIREMENTS } from '../../contract/requirements.js';
import type { RunSettings } from '../../fixtures/settings/run-settings.js';
import { DEFAULT_CERTIFY_TARGET, loadTargetModule, REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { writeHtmlReport } from '../report/html-report.js';
import { writeJunit } from '../report/junit-xml.js';
import { renderSummary } from '../report/terminal-summary.js';
import { writeVerdictJson } from '../report/verdict-json.js';
import { canarySections } from './canary-section.js';
import { exitCodeOf } from './exit-codes.js';
import { kitVersion } from './kit-version.js';
import { fingerprintTarget, runEnvironment } from './run-metadata.js';
import { runSuites } from './run-suites.js';
import type { Selection } from './selection.js';
import { ensureReachable } from './target-reachable.js';
import { type Certification, decideRequirement, overallOf } from './verdict.js';

export interface CertifyOptions {
  /** Validated settings handed to the suites (target resolved here when absent). */
  readonly settings: RunSettings;
  readonly selection: Selection;
  readonly out: string;
  readonly strict: boolean;
  readonly quiet: boolean;
}

/** A URL names an HTTP target (its manifest comes from --manifest); else an absolute path. */
export function resolveTarget(given: string | undefined): string {
  if (!given) return DEFAULT_CERTIFY_TARGET;
  return /^https?:\/\//i.test(given) ? given : path.resolve(given);
}

export async function certify(o: CertifyOptions): Promise<{ exitCode: number; certification: Certification }> {
  const target = resolveTarget(o.settings.target);
  const reportDir = path.resolve(o.out);
  const settings: RunSettings = { ...o.settings, target, reportDir };
  const out = (line: string) => {
    if (!o.quiet) process.stdout.write(`${line}\n`);
  };
  // Fail fast and clearly on a target that cannot even be loaded — before anything is written.
  const mod = await loadTargetModule(target, settings.manifest);
  await ensureReachable(target);
  mkdirSync(reportDir, { recursive: true });

  const startedAt = new Date();
  const { selection } = o;
  const selected = new Set(selection.requirements);
  out(`smtc certify: target ${target}`);
  out(
    `${selection.profile ? `profile ${selection.profile}: ` : ''}requirements: ${selection.requirements.join(' ')}` +
      `${selection.clauses.length ? ` (clauses ${selection.clauses.join(' ')})` : ''}` +
      `${settings.requireAll ? ' (every kit service required)' : ''}`,
  );
  if (settings.replay)
    out(`replay of ${settings.replay.clause}: seed ${settings.replay.seed}, path "${settings.replay.path}"`);
  if (mod.serialSuites) out('suite files run one at a time: every target shares the processes of one running service');
  const { clauses, runErrors, declared } = await runSuites({
    root: REPO_ROOT,
    settings,
    selection,
    serial: mod.serialSuites === true,
    out,
  });
  const requirements = REQUIREMENTS.map((r) => decideRequirement(r.id, clauses, selected.has(r.id)));
  // The verdict is about what was selected: `--only R02 --strict` is certified when R02 is.
  let overall = overallOf(requirements.filter((r) => selected.has(r.id)));
  if (runErrors.length > 0) {
    out(`errors outside any scenario:\n  ${runErrors.join('\n  ')}`);
    overall = 'failed';
  }
  const finishedAt = new Date();
  const artefacts = ['verdict.json', 'junit.xml', 'report.html'];
  if (existsSync(path.join(reportDir, 'canary-report.json'))) artefacts.push('canary-report.json');
  const certification: Certification = {
    tool: { name: 'smtc', version: kitVersion() },
    target,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    overall,
    requireAll: settings.requireAll,
    selection,
    replay: settings.replay ?? null,
    targetInfo: {
      name: declared?.name ?? mod.name,
      capabilities: declared?.capabilities ?? null,
      fingerprint: fingerprintTarget(target, settings.manifest),
    },
    environment: runEnvironment(),
    requirements,
    artefacts,
  };
  writeVerdictJson(reportDir, certification);
  writeJunit(reportDir, certification);
  writeHtmlReport(reportDir, certification, await canarySections(reportDir));
  process.stdout.write(renderSummary(certification));
  process.stdout.write(`  reports: ${path.relative(process.cwd(), reportDir) || '.'}/{${artefacts.join(',')}}\n`);
  const exitCode = exitCodeOf(
    overall,
    clauses.filter((c) => selected.has(c.requirement)),
    o.strict,
  );
  return { exitCode, certification };
}
