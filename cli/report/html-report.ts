/**
 * The auditor's report: one self-contained HTML file (no external assets, no scripts needed
 * to read it) with the verdict per requirement, every clause, replay data for failures and
 * the canary report section when the run produced one.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Certification, ClauseResult } from '../certify/verdict.js';

export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;color:#1b1f24;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
.verdict{display:inline-block;padding:.15rem .6rem;border-radius:.3rem;font-weight:600}
.certified{background:#d7f5dd;color:#0f5c22}.failed{background:#fde0e0;color:#8a1111}.not_run,.not_certified{background:#fff1c9;color:#6b4e00}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border-bottom:1px solid #e3e6ea;text-align:left;padding:.3rem .5rem;vertical-align:top}
th{background:#f5f7f9}pre{white-space:pre-wrap;background:#f5f7f9;padding:.5rem;margin:.2rem 0;font-size:12px}
.muted{color:#59636e}`;

function clauseRow(c: ClauseResult): string {
  const state = c.state === 'passed' ? 'certified' : c.state;
  const label = c.state === 'passed' ? 'passed' : c.state === 'failed' ? 'failed' : 'not run';
  const detail = [
    c.message ? `<pre>${escapeHtml(c.message)}</pre>` : '',
    c.seed !== undefined
      ? `<div>replay: <code>SMTC_SEED=${c.seed} SMTC_PATH="${escapeHtml(c.path ?? '')}"</code></div>`
      : '',
    ...c.annotations.map((a) => `<div class="muted">· ${escapeHtml(a)}</div>`),
  ].join('');
  return `<tr data-clause="${escapeHtml(c.id)}"><td>${escapeHtml(c.id)}</td><td>${escapeHtml(c.title)}${detail}</td><td><span class="verdict ${state}">${label}</span></td><td>${c.durationMs} ms</td></tr>`;
}

export function renderHtmlReport(c: Certification, sections: readonly string[] = []): string {
  const reqs = c.requirements
    .map(
      (r) => `<section id="${r.id}" data-verdict="${r.verdict}">
<h2>${r.id} — ${escapeHtml(r.title)} <span class="verdict ${r.verdict}">${r.verdict.replace('_', ' ')}</span></h2>
${r.reasons.length ? `<ul>${r.reasons.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ul>` : ''}
${r.clauses.length ? `<table><thead><tr><th>clause</th><th>scenario</th><th>result</th><th>time</th></tr></thead><tbody>${r.clauses.map(clauseRow).join('')}</tbody></table>` : ''}
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>smtc certification — ${escapeHtml(c.target)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body>
<h1>State, Memory, and Tracing Contract v1 — certification</h1>
<p>Target: <code>${escapeHtml(c.target)}</code><br>Run: ${escapeHtml(c.startedAt)} → ${escapeHtml(c.finishedAt)} (${(c.durationMs / 1000).toFixed(1)} s), smtc ${escapeHtml(c.tool.version)}${c.requireAll ? ', every kit service required' : ''}</p>
<p>Overall: <span id="overall" class="verdict ${c.overall}">${c.overall.replace('_', ' ')}</span>${c.stopped ? ` — ${escapeHtml(c.stopped)}` : ''}</p>
<table><thead><tr><th>requirement</th><th>verdict</th><th>clauses</th></tr></thead><tbody>
${c.requirements.map((r) => `<tr><td><a href="#${r.id}">${r.id}</a> ${escapeHtml(r.title)}</td><td><span class="verdict ${r.verdict}">${r.verdict.replace('_', ' ')}</span></td><td>${r.clauses.filter((x) => x.state === 'passed').length}/${r.clauses.length}</td></tr>`).join('\n')}
</tbody></table>
${reqs}
${sections.join('\n')}
</body></html>
`;
}

export function writeHtmlReport(dir: string, c: Certification, sections: readonly string[] = []): string {
  const file = path.join(dir, 'report.html');
  writeFileSync(file, renderHtmlReport(c, sections));
  return file;
}
