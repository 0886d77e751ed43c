/**
 * `smtc certify`: load the target (so a broken target fails fast with a clear message), run
 * the suites, decide the verdict per requirement, write verdict.json, junit.xml and
 * report.html, and print the table. Exit code: 0 certified or only not-run, 1 failed (also a
 * suite file or the run overrunning its bound), 2 bad usage / target unusable (pre-flight),
 * 3 not certified under --strict, 130/143 interrupted by SIGINT/SIGTERM (partial report
 * marked interrupted). Whatever the run started or created is taken back at its end.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REQUIREMENTS, type RequirementId } from '../../contract/requirements.js';
import { DEFAULT_CERTIFY_TARGET, REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { writeHtmlReport } from '../report/html-report.js';
import { writeJunit } from '../report/junit-xml.js';
import { renderSummary } from '../report/terminal-summary.js';
import { terminalLine, terminalText } from '../report/terminal-text.js';
import { writeVerdictJson } from '../report/verdict-json.js';
import { canarySections } from './canary-section.js';
import { INTERRUPT_EXIT, onInterrupt } from './interrupt.js';
import { preflight } from './preflight.js';
import { openRunScope } from './run-scope.js';
import { runSuites } from './run-suites.js';
import { clausesOfStoppedRun } from './stopped-run.js';
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

class Interrupted extends Error {
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}`);
  }
}

export async function certify(o: CertifyOptions): Promise<{ exitCode: number; certification?: Certification }> {
  const scope = openRunScope();
  let done!: () => void;
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  let signalled!: (s: 'SIGINT' | 'SIGTERM') => void;
  const interrupted = new Promise<'SIGINT' | 'SIGTERM'>((resolve) => {
    signalled = resolve;
  });
  // The handler exits the process once the run below has cleaned up and written its report.
  const off = onInterrupt(async (signal) => {
    signalled(signal);
    await finished;
  });
  try {
    return await certifyInScope(o, interrupted);
  } catch (e) {
    if (e instanceof Interrupted) {
      process.stderr.write(`smtc: interrupted (${e.signal}) before the suites ran: no report\n`);
      return { exitCode: INTERRUPT_EXIT[e.signal] };
    }
    throw e;
  } finally {
    for (const note of await scope.release()) process.stderr.write(`smtc: cleanup: ${note}\n`);
    off();
    done();
  }
}

async function certifyInScope(
  o: CertifyOptions,
  interrupted: Promise<'SIGINT' | 'SIGTERM'>,
): Promise<{ exitCode: number; certification: Certification }> {
  // A URL names an HTTP target (its manifest comes from --manifest / SMTC_MANIFEST); else a path.
  const given = o.target ?? (process.env.SMTC_TARGET?.trim() || undefined);
  const target = given ? (/^https?:\/\//i.test(given) ? given : path.resolve(given)) : DEFAULT_CERTIFY_TARGET;
  const out = (line: string) => {
    if (!o.quiet) process.stdout.write(`${line}\n`);
  };
  // Fail fast and clearly (exit 2, within a bound) on a target that cannot load, create or answer.
  const mod = await Promise.race([
    preflight(target),
    interrupted.then((signal) => {
      throw new Interrupted(signal);
    }),
  ]);
  const reportDir = path.resolve(o.out);
  mkdirSync(reportDir, { recursive: true });

  const startedAt = new Date();
  const selected = new Set<RequirementId>(o.only?.length ? o.only : REQUIREMENTS.map((r) => r.id));
  out(`smtc certify: target ${terminalLine(target)}`);
  out(`requirements: ${[...selected].join(' ')}${o.requireAll ? ' (every kit service required)' : ''}`);
  if (mod.serialSuites) out('suite files run one at a time: every target shares the processes of one running service');
  const run = await runSuites({
    root: REPO_ROOT,
    target,
    only: [...selected],
    reportDir,
    requireAll: o.requireAll,
    serial: mod.serialSuites === true,
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.runsScale !== undefined ? { runsScale: o.runsScale } : {}),
    out,
    interrupted,
  });
  const { runErrors, stopped } = run;
  let stoppedWhy: string | undefined;
  let clauses = run.clauses;
  if (stopped) {
    stoppedWhy = 'interrupted' in stopped ? `interrupted by ${stopped.interrupted}` : stopped.overrun.message;
    clauses = clausesOfStoppedRun(
      REPO_ROOT,
      [...selected],
      clauses,
      run.finished,
      'interrupted' in stopped ? `the run was interrupted by ${stopped.interrupted}` : 'the run was stopped',
      'overrun' in stopped ? stopped.overrun : undefined,
    );
  }
  const requirements = REQUIREMENTS.map((r) => decideRequirement(r.id, clauses, selected.has(r.id)));
  let overall: Certification['overall'] = overallOf(requirements);
  if (stopped && 'interrupted' in stopped) overall = 'interrupted';
  else if (stopped) overall = 'failed';
  if (runErrors.length > 0 && overall !== 'interrupted') {
    out(`errors outside any scenario:\n  ${runErrors.map((e) => terminalText(e, { maxLines: 6 })).join('\n  ')}`);
    overall = 'failed';
  }
  const finishedAt = new Date();
  const artefacts = ['verdict.json', 'junit.xml', 'report.html'];
  if (existsSync(path.join(reportDir, 'canary-report.json'))) artefacts.push('canary-report.json');
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
    ...(stoppedWhy ? { stopped: stoppedWhy } : {}),
  };
  writeVerdictJson(reportDir, certification);
  writeJunit(reportDir, certification);
  writeHtmlReport(reportDir, certification, await canarySections(reportDir));
  process.stdout.write(renderSummary(certification));
  process.stdout.write(`  reports: ${path.relative(process.cwd(), reportDir) || '.'}/{${artefacts.join(',')}}\n`);
  if (stopped && 'interrupted' in stopped) return { exitCode: INTERRUPT_EXIT[stopped.interrupted], certification };
  const exitCode = overall === 'failed' ? 1 : overall === 'not_certified' && o.strict ? 3 : 0;
  // A stopped vitest may hold handles for ever: once the reports are written, nothing is left to wait for.
  if (stopped) setTimeout(() => process.exit(exitCode), 2_000).unref();
  return { exitCode, certification };
}
