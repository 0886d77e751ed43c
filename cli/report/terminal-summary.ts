import type { Certification } from '../certify/verdict.js';

const MARK = { certified: '✓ certified', failed: '✗ failed', not_run: '– not run' } as const;

/** The verdict table printed at the end of `smtc certify`. */
export function renderSummary(c: Certification): string {
  const out: string[] = ['', `smtc certification of ${c.target}`, ''];
  for (const r of c.requirements) {
    const passed = r.clauses.filter((x) => x.state === 'passed').length;
    const counts = r.clauses.length > 0 ? ` [${passed}/${r.clauses.length} clauses]` : '';
    out.push(`  ${r.id}  ${MARK[r.verdict].padEnd(12)} ${r.title}${counts}`);
    for (const why of r.reasons.slice(0, 5)) out.push(`         ${why.split('\n')[0]}`);
    if (r.reasons.length > 5) out.push(`         … ${r.reasons.length - 5} more`);
    for (const a of new Set(r.clauses.flatMap((x) => x.annotations))) out.push(`         · ${a}`);
  }
  const verdict =
    c.overall === 'certified'
      ? 'CERTIFIED'
      : c.overall === 'failed'
        ? 'FAILED'
        : 'NOT CERTIFIED (requirements not run; see reasons)';
  out.push('', `  verdict: ${verdict}   (${(c.durationMs / 1000).toFixed(1)} s)`, '');
  return out.join('\n');
}
