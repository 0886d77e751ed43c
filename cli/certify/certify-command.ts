/**
 * `smtc certify`: pre-flight the target (so a broken, hanging or unreachable target fails fast
 * with one clear message, exit 2, before anything is written), run the selected suites, decide
 * the verdict per requirement, write verdict.json, junit.xml and report.html, and print the
 * table. Exit codes: cli/certify/exit-codes.ts (the README's table); 130/143 when interrupted by
 * SIGINT/SIGTERM (a partial report marked interrupted). Whatever the run started or created is
 * taken back at its end.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REQUIREMENTS } from '../../contract/requirements.js';
import { CORPUS_REPORT_FILE } from '../../fixtures/corpora/corpus-rates.js';
import { codecOf } from '../../fixtures/scenario/harness-spec.js';
import type { RunSettings } from '../../fixtures/settings/run-settings.js';
import { DEFAULT_CERTIFY_TARGET, REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { writeHtmlReport } from '../report/html-report.js';
import { writeJunit } from '../report/junit-xml.js';
import { renderSummary } from '../report/terminal-summary.js';
import { terminalLine, terminalText } from '../report/terminal-text.js';
import { writeVerdictJson } from '../report/verdict-json.js';
import { canarySections } from './canary-section.js';
import { corpusSections } from './corpus-section.js';
import { exitCodeOf } from './exit-codes.js';
import { INTERRUPT_EXIT, onInterrupt } from './interrupt.js';
import { kitVersion } from './kit-version.js';
import { preflight } from './preflight.js';
import { provisionForSelection } from './provision-services.js';
import { fingerprintTarget, runEnvironment } from './run-metadata.js';
import { openRunScope } from './run-scope.js';
import { runSuites } from './run-suites.js';
import type { Selection } from './selection.js';
import { clausesOfStoppedRun } from './stopped-run.js';
import { absentClauses } from './suite-files.js';
import { ensureReachable } from './target-reachable.js';
import { type Certification, decideRequirement, overallOf } from './verdict.js';

export interface CertifyOptions {
  /** Validated settings handed to the suites (target resolved here when absent). */
  readonly settings: RunSettings;
  readonly selection: Selection;
  readonly out: string;
  readonly strict: boolean;
  readonly quiet: boolean;
  /** Build a missing service the selection needs (false: --no-provision). */
  readonly provision?: boolean;
  /** Stop once every selected requirement has failed a clause: a quick "no", never a "yes". */
  readonly failFast?: boolean;
}

/** A URL names an HTTP target (its manifest comes from --manifest); else an absolute path. */
export function resolveTarget(given: string | undefined): string {
  if (!given) return DEFAULT_CERTIFY_TARGET;
  return /^https?:\/\//i.test(given) ? given : path.resolve(given);
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
  const began = Date.now();
  const target = resolveTarget(o.settings.target);
  const reportDir = path.resolve(o.out);
  const settings: RunSettings = { ...o.settings, target, reportDir };
  const out = (line: string) => {
    if (!o.quiet) process.stdout.write(`${line}\n`);
  };
  const stopOnInterrupt = interrupted.then((signal) => {
    throw new Interrupted(signal);
  });
  stopOnInterrupt.catch(() => {});
  // Fail fast and clearly (exit 2, within a bound) on a target that cannot load, create or
  // answer — before anything is written.
  // The probe runs in a child process under a watchdog (a never-settling import cannot hang
  // this one).
  await Promise.race([ensureReachable(target), stopOnInterrupt]);
  // What the kit needs of the module (its name, whether its suites must run one at a time) comes
  // from the probe: the target's code never runs in this process.
  const mod = await Promise.race([preflight(target, settings.manifest), stopOnInterrupt]);
  mkdirSync(reportDir, { recursive: true });
  rmSync(path.join(reportDir, CORPUS_REPORT_FILE), { force: true }); // a stale one would describe another run

  const startedAt = new Date();
  const { selection } = o;
  const selected = new Set(selection.requirements);
  out(`smtc certify: target ${terminalLine(target)}`);
  out(
    `${selection.profile ? `profile ${selection.profile}: ` : ''}requirements: ${selection.requirements.join(' ')}` +
      `${selection.clauses.length ? ` (clauses ${selection.clauses.join(' ')})` : ''}` +
      `${settings.requireAll ? ' (every kit service required)' : ''}`,
  );
  out(`harness: ${settings.harness} (codec ${codecOf(settings.harness)})`);
  if (settings.replay)
    out(`replay of ${settings.replay.clause}: seed ${settings.replay.seed}, path "${settings.replay.path}"`);
  await Promise.race([
    provisionForSelection(selection.requirements, {
      provision: o.provision !== false,
      out: (l) => process.stderr.write(`${l}\n`),
    }),
    stopOnInterrupt,
  ]);
  if (mod.serialSuites) out('suite files run one at a time: every target shares the processes of one running service');
  const suitesBegan = Date.now();
  const run = await runSuites({
    root: REPO_ROOT,
    settings,
    selection,
    serial: mod.serialSuites === true,
    out,
    interrupted,
    failFast: o.failFast === true,
  });
  const { runErrors, stopped, declared } = run;
  const suitesMs = Date.now() - suitesBegan;
  let stoppedWhy: string | undefined;
  let clauses = run.clauses;
  if (stopped) {
    stoppedWhy =
      'interrupted' in stopped
        ? `interrupted by ${stopped.interrupted}`
        : 'overrun' in stopped
          ? stopped.overrun.message
          : 'stopped at the first failure of every selected requirement (--fail-fast)';
    clauses = clausesOfStoppedRun(
      REPO_ROOT,
      [...selected],
      clauses,
      run.files,
      run.finished,
      'interrupted' in stopped
        ? `the run was interrupted by ${stopped.interrupted}`
        : 'failFast' in stopped
          ? 'the run was stopped at the first failure (--fail-fast)'
          : 'the run was stopped',
      'overrun' in stopped ? stopped.overrun : undefined,
    );
  }
  if (!stopped) clauses = [...clauses, ...absentClauses(selection, clauses)];
  const requirements = REQUIREMENTS.map((r) => decideRequirement(r.id, clauses, selected.has(r.id)));
  // The verdict is about what was selected: `--only R02 --strict` is certified when R02 is.
  let overall: Certification['overall'] = overallOf(requirements.filter((r) => selected.has(r.id)));
  if (stopped && 'interrupted' in stopped) overall = 'interrupted';
  else if (stopped) overall = 'failed';
  if (runErrors.length > 0 && overall !== 'interrupted') {
    out(`errors outside any scenario:\n  ${runErrors.map((e) => terminalText(e, { maxLines: 6 })).join('\n  ')}`);
    overall = 'failed';
  }
  const finishedAt = new Date();
  const artefacts = ['verdict.json', 'junit.xml', 'report.html'];
  if (existsSync(path.join(reportDir, 'canary-report.json'))) artefacts.push('canary-report.json');
  if (existsSync(path.join(reportDir, CORPUS_REPORT_FILE))) artefacts.push(CORPUS_REPORT_FILE);
  const certification: Certification = {
    tool: { name: 'smtc', version: kitVersion() },
    target,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    overall,
    requireAll: settings.requireAll,
    harness: { id: settings.harness, codec: codecOf(settings.harness) },
    selection,
    replay: settings.replay ?? null,
    targetInfo: {
      name: declared?.name ?? mod.name,
      capabilities: declared?.capabilities ?? null,
      ...(declared?.harnesses ? { harnesses: declared.harnesses } : {}),
      fingerprint: fingerprintTarget(target, settings.manifest),
    },
    environment: runEnvironment(),
    requirements,
    artefacts,
    ...(stoppedWhy ? { stopped: stoppedWhy } : {}),
  };
  writeVerdictJson(reportDir, certification);
  writeJunit(reportDir, certification);
  writeHtmlReport(reportDir, certification, [...(await canarySections(reportDir)), ...corpusSections(reportDir)]);
  // Where the wall time went (bench/certify-wall.bench.ts): before the suites (probe, pre-flight, load), the suites, each file.
  const timings = { beforeSuitesMs: suitesBegan - began, suitesMs, totalMs: Date.now() - began, files: run.timings };
  writeFileSync(path.join(reportDir, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
  process.stdout.write(renderSummary(certification));
  process.stdout.write(`  reports: ${path.relative(process.cwd(), reportDir) || '.'}/{${artefacts.join(',')}}\n`);
  if (stopped && 'interrupted' in stopped) return { exitCode: INTERRUPT_EXIT[stopped.interrupted], certification };
  const exitCode =
    overall === 'interrupted'
      ? 1
      : exitCodeOf(
          overall,
          clauses.filter((c) => selected.has(c.requirement)),
          o.strict,
        );
  // A stopped vitest may hold handles for ever: once the reports are written, nothing is left to wait for.
  if (stopped) setTimeout(() => process.exit(exitCode), 2_000).unref();
  return { exitCode, certification };
}
