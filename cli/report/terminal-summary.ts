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
  const out: string[] = ['', `smtc certification of ${terminalLine(c.target)}`, ''];
  for (const r of c.requirements) {
    const passed = r.clauses.filter((x) => x.state === 'passed').length;
    const counts = r.clauses.length > 0 ? ` [${passed}/${r.clauses.length} clauses]` : '';
    out.push(`  ${r.id}  ${MARK[r.verdict].padEnd(12)} ${r.title}${counts}`);
    const lines = groupReasons(r.reasons);
    for (const why of lines.slice(0, 5)) out.push(`         ${terminalLine(why)}`);
    if (lines.length > 5) out.push(`         … ${lines.length - 5} more`);
    for (const a of new Set(r.clauses.flatMap((x) => x.annotations))) out.push(`         · ${terminalLine(a)}`);
  }
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
