import { contractLine } from '../certify/failure-text.js';
import type { Certification } from '../certify/verdict.js';
import { terminalLine } from './terminal-text.js';

const MARK = { certified: '✓ certified', failed: '✗ failed', not_run: '– not run' } as const;

/**
 * One line per distinct reason: "R08.1, R08.2, … : reason" instead of the same sentence for
 * every clause of a suite that could not run.
 */
export function groupReasons(reasons: readonly string[]): string[] {
  const byText = new Map<string, string[]>();
  for (const why of reasons) {
    const first = why.split('\n')[0] ?? '';
    const m = /^(R\d{2}(?:\.\d+)?): (.*)$/.exec(first);
    const [id, text] = m ? [m[1] ?? '', m[2] ?? ''] : ['', first];
    const ids = byText.get(text) ?? [];
    if (id && !ids.includes(id)) ids.push(id);
    byText.set(text, ids);
  }
  return [...byText].map(([text, ids]) => (ids.length ? `${ids.join(', ')}: ${text}` : text));
}

/** The verdict table printed at the end of `smtc certify`. */
export function renderSummary(c: Certification): string {
  // Everything but our own labels may come from the target: shown inert and bounded.
  const out: string[] = ['', `smtc certification of ${terminalLine(c.target)}`];
  if (c.selection) out.push(`  selection: ${selectionLine(c)}`);
  if (c.harness) out.push(`  harness: ${terminalLine(c.harness.id)} (codec ${terminalLine(c.harness.codec)})`);
  if (c.replay) out.push(`  REPLAY of ${c.replay.clause} (seed ${c.replay.seed}, path "${c.replay.path}")`);
  out.push('');
  const unselected = c.selection ? c.requirements.filter((r) => !c.selection?.requirements.includes(r.id)) : [];
  for (const r of c.requirements) {
    if (unselected.includes(r)) continue;
    const n = (st: string) => r.clauses.filter((x) => x.state === st).length;
    const counts =
      r.clauses.length > 0 ? ` [${n('passed')} passed, ${n('failed')} failed, ${n('not_run')} not run]` : '';
    out.push(`  ${r.id}  ${MARK[r.verdict].padEnd(12)} ${r.title}${counts}`);
    const lines = groupReasons(r.reasons);
    for (const why of lines.slice(0, 5)) out.push(`         ${terminalLine(why)}`);
    if (lines.length > 5) out.push(`         … ${lines.length - 5} more`);
    // What broke, for the first failures (the full text is in junit.xml and report.html).
    for (const f of r.clauses.filter((x) => x.state === 'failed').slice(0, 3)) {
      const what = (f.message ?? '').split('\n').filter((l) => !l.startsWith('replay:'));
      const contract = contractLine(f.contract).split('\n').filter(Boolean);
      out.push(`         ${f.id}:`, ...[...contract, ...what.slice(0, 5)].map((l) => `           ${terminalLine(l)}`));
    }
    for (const a of new Set(r.clauses.flatMap((x) => x.annotations))) out.push(`         · ${terminalLine(a)}`);
  }
  if (unselected.length) out.push(`  not selected: ${unselected.map((r) => r.id).join(' ')}`);
  const verdict =
    c.overall === 'certified'
      ? 'CERTIFIED'
      : c.overall === 'failed'
        ? 'FAILED'
        : c.overall === 'interrupted'
          ? 'NONE — INTERRUPTED (partial results, not a verdict)'
          : 'NOT CERTIFIED (requirements not run; see reasons)';
  if (c.stopped) out.push('', `  stopped: ${terminalLine(c.stopped, 600)}`);
  out.push('', `  verdict: ${verdict}   (${(c.durationMs / 1000).toFixed(1)} s)`, '');
  return out.join('\n');
}

function selectionLine(c: Certification): string {
  const s = c.selection;
  if (!s) return '';
  if (s.kind === 'replay') return `replay of ${s.clauses.join(' ')}`;
  const what = s.kind === 'profile' ? `profile ${s.profile}` : '--only';
  return `${what}: ${s.requirements.join(' ')}${s.clauses.length ? ` (of these, only clauses ${s.clauses.join(' ')})` : ''}`;
}
