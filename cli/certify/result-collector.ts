/**
 * A vitest reporter that turns test cases into clause results and prints progress as each
 * scenario finishes, so a long certification is never silent.
 */
import path from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';
import { clauseContract } from '../../contract/clauses.js';
import { isRequirementId, type RequirementId } from '../../contract/requirements.js';
import type { HarnessId } from '../../fixtures/settings/run-settings.js';
import { terminalLine, terminalText } from '../report/terminal-text.js';
import { contractLine, explainFailure } from './failure-text.js';
import { type ClauseResult, replayOf } from './verdict.js';

const CLAUSE = /^(R(\d{2}))(\.\d+)?\b\s*(.*)$/;

function requirementOfFile(file: string): RequirementId | null {
  const m = /^r(\d{2})-/.exec(path.basename(file));
  const id = m ? `R${m[1]}` : '';
  return isRequirementId(id) ? id : null;
}

export class ResultCollector implements Reporter {
  readonly clauses: ClauseResult[] = [];
  /** Suite files running now, with the scenario each is in (the watchdog names them). */
  readonly running = new Map<string, { startedAt: number; current?: string }>();
  /** Suite files that ran to their end (relative paths). */
  readonly finished = new Set<string>();
  /** The target's name, declared capabilities and harnesses, as the suites saw them. */
  declared: { name: string; capabilities: Record<string, boolean | undefined>; harnesses?: string[] } | undefined;
  private readonly started = Date.now();
  /** Called with every clause as it is recorded (--fail-fast watches for failures). */
  onClause: (c: ClauseResult) => void = () => {};

  constructor(
    private readonly out: (line: string) => void,
    private readonly root: string,
    /** Clauses outside the selection (filtered out by name) are not reported at all. */
    private readonly selected: (clauseId: string) => boolean = () => true,
    /** The run's harness: a replay token must replay under the same one. */
    private readonly harness?: HarnessId,
  ) {}

  onTestModuleStart(mod: TestModule): void {
    this.running.set(mod.moduleId, { startedAt: Date.now() });
    this.out(`▶ ${path.relative(this.root, mod.moduleId)}`);
  }

  onTestCaseReady(tc: TestCase): void {
    const file = this.running.get(tc.module.moduleId);
    if (file) file.current = tc.name;
  }

  onTestCaseResult(tc: TestCase): void {
    const r = tc.result();
    const m = CLAUSE.exec(tc.name);
    const fileReq = requirementOfFile(tc.module.moduleId);
    const req = m && isRequirementId(m[1] ?? '') ? (m[1] as RequirementId) : fileReq;
    if (!req) return;
    const id = m ? `${m[1]}${m[3] ?? ''}` : req;
    const title = m ? (m[4] ?? '') : tc.name;
    if (!this.selected(id)) return;
    this.declared ??= tc.meta().smtcTarget;
    const durationMs = Math.round(tc.diagnostic()?.duration ?? 0);
    const annotations = tc.annotations().map((a) => a.message);
    const file = path.relative(this.root, tc.module.moduleId);
    const contract = clauseContract(id);
    let clause: ClauseResult;
    if (r.state === 'passed') {
      clause = { id, requirement: req, title, state: 'passed', durationMs, file, annotations, contract };
      this.out(`  ✓ ${terminalLine(id)} ${terminalLine(title)} (${durationMs} ms)`);
    } else if (r.state === 'failed') {
      const errors = r.errors ?? [];
      const raw = errors.map((e) => e.message).join('\n') || 'failed';
      // Replay data from fast-check's own message; the message shown is the explanation.
      const replay = replayOf(raw, id, this.harness);
      const message = explainFailure(errors, this.root, replay.replayToken);
      clause = {
        id,
        requirement: req,
        title,
        state: 'failed',
        durationMs,
        file,
        message,
        annotations,
        contract,
        ...replay,
      };
      this.out(
        `  ✗ ${terminalLine(id)} ${terminalLine(title)}\n      ${[contractLine(contract), ...terminalText(message, { maxLines: 40 }).split('\n')].join('\n      ')}`,
      );
    } else {
      const note = r.state === 'skipped' ? r.note : undefined;
      const message = note?.replace(/^not run:\s*/, '') ?? 'not run (skipped without a reason)';
      clause = { id, requirement: req, title, state: 'not_run', durationMs, file, message, annotations, contract };
      this.out(`  – ${terminalLine(id)} ${terminalLine(title)}: not run: ${terminalText(message, { maxLines: 6 })}`);
    }
    for (const a of annotations) this.out(`      · ${terminalLine(a)}`);
    this.clauses.push(clause);
    this.onClause(clause);
  }

  onTestModuleEnd(mod: TestModule): void {
    this.running.delete(mod.moduleId);
    this.finished.add(path.relative(this.root, mod.moduleId));
    // A file that failed to load or whose hooks failed has errors outside any test: that
    // fails its requirement (it never "passes by having no tests").
    const errors = mod.errors();
    const req = requirementOfFile(mod.moduleId);
    if (errors.length === 0 || !req) return;
    const message = errors.map((e) => e.message).join('\n');
    const clause: ClauseResult = {
      id: req,
      requirement: req,
      title: `suite ${path.basename(mod.moduleId)} could not run to completion`,
      state: 'failed',
      durationMs: 0,
      file: path.relative(this.root, mod.moduleId),
      message,
      annotations: [],
    };
    this.clauses.push(clause);
    this.onClause(clause);
    this.out(`  ✗ ${path.basename(mod.moduleId)}: ${terminalLine(message.split('\n')[0] ?? '')}`);
  }

  elapsedMs(): number {
    return Date.now() - this.started;
  }
}
