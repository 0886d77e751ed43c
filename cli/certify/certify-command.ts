/**
 * `smtc certify`: load the target (so a broken target fails fast with a clear message), run
 * the suites, decide the verdict per requirement, write verdict.json, junit.xml and
 * report.html, and print the table. Exit code: 0 certified or only not-run, 1 failed,
 * 2 bad usage / target unusable, 3 not certified under --strict.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { REQUIREMENTS, type RequirementId } from '../../contract/requirements.js';
import { CORPUS_REPORT_FILE } from '../../fixtures/corpora/corpus-rates.js';
import { DEFAULT_CERTIFY_TARGET, loadTargetModule, REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { writeHtmlReport } from '../report/html-report.js';
import { writeJunit } from '../report/junit-xml.js';
import { renderSummary } from '../report/terminal-summary.js';
import { writeVerdictJson } from '../report/verdict-json.js';
import { canarySections } from './canary-section.js';
import { corpusSections } from './corpus-section.js';
import { runSuites } from './run-suites.js';
import { type Certification, decideRequirement, overallOf } from './verdict.js';

export interface CertifyOptions {
  readonly target?: string;
  readonly only?: readonly RequirementId[];
  readonly out: string;
  readonly strict: boolean;
  readonly requireAll: boolean;
  readonly seed?: number;
  readonly runsScale?: number;
  readonly quiet: boolean;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export async function certify(o: CertifyOptions): Promise<{ exitCode: number; certification: Certification }> {
  // A URL names an HTTP target (its manifest comes from --manifest / SMTC_MANIFEST); else a path.
  const given = o.target ?? (process.env.SMTC_TARGET?.trim() || undefined);
  const target = given ? (/^https?:\/\//i.test(given) ? given : path.resolve(given)) : DEFAULT_CERTIFY_TARGET;
  const out = (line: string) => {
    if (!o.quiet) process.stdout.write(`${line}\n`);
  };
  // Fail fast and clearly on a target that cannot even be loaded.
  const mod = await loadTargetModule(target);
  const reportDir = path.resolve(o.out);
  mkdirSync(reportDir, { recursive: true });
  rmSync(path.join(reportDir, CORPUS_REPORT_FILE), { force: true }); // a stale one would describe another run

  const startedAt = new Date();
  const selected = new Set<RequirementId>(o.only?.length ? o.only : REQUIREMENTS.map((r) => r.id));
  out(`smtc certify: target ${target}`);
  out(`requirements: ${[...selected].join(' ')}${o.requireAll ? ' (every kit service required)' : ''}`);
  if (mod.serialSuites) out('suite files run one at a time: every target shares the processes of one running service');
  const { clauses, runErrors } = await runSuites({
    root: REPO_ROOT,
    target,
    only: [...selected],
    reportDir,
    requireAll: o.requireAll,
    serial: mod.serialSuites === true,
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.runsScale !== undefined ? { runsScale: o.runsScale } : {}),
    out,
  });
  const requirements = REQUIREMENTS.map((r) => decideRequirement(r.id, clauses, selected.has(r.id)));
  let overall = overallOf(requirements);
  if (runErrors.length > 0) {
    out(`errors outside any scenario:\n  ${runErrors.join('\n  ')}`);
    overall = 'failed';
  }
  const finishedAt = new Date();
  const artefacts = ['verdict.json', 'junit.xml', 'report.html'];
  if (existsSync(path.join(reportDir, 'canary-report.json'))) artefacts.push('canary-report.json');
  if (existsSync(path.join(reportDir, CORPUS_REPORT_FILE))) artefacts.push(CORPUS_REPORT_FILE);
  const certification: Certification = {
    tool: { name: 'smtc', version: version() },
    target,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    overall,
    requireAll: o.requireAll,
    requirements,
    artefacts,
  };
  writeVerdictJson(reportDir, certification);
  writeJunit(reportDir, certification);
  writeHtmlReport(reportDir, certification, [...(await canarySections(reportDir)), ...corpusSections(reportDir)]);
  process.stdout.write(renderSummary(certification));
  process.stdout.write(`  reports: ${path.relative(process.cwd(), reportDir) || '.'}/{${artefacts.join(',')}}\n`);
  const exitCode = overall === 'failed' ? 1 : overall === 'not_certified' && o.strict ? 3 : 0;
  return { exitCode, certification };
}
