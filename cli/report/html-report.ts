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
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;color:#1b1f24;padding:0 1rem;overflow-wrap:anywhere}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
.verdict{display:inline-block;padding:.15rem .6rem;border-radius:.3rem;font-weight:600}
.certified{background:#d7f5dd;color:#0f5c22}.failed{background:#fde0e0;color:#8a1111}.not_run,.not_certified{background:#fff1c9;color:#6b4e00}
table{border-collapse:collapse;width:100%;margin:.5rem 0;table-layout:fixed}td,th{border-bottom:1px solid #e3e6ea;text-align:left;padding:.3rem .5rem;vertical-align:top;overflow-wrap:anywhere}
th{background:#f5f7f9}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f7f9;padding:.5rem;margin:.2rem 0;font-size:12px}
code{overflow-wrap:anywhere}.muted{color:#59636e}.replay-run{background:#e3ecff;color:#1d3f8f}.interp{background:#efe6ff;color:#4b2a85;padding:0 .35rem;border-radius:.3rem;font-size:12px}
.counts span{display:inline-block;margin:0 .3rem .2rem 0;padding:0 .4rem;border-radius:.3rem;white-space:nowrap}
col.c-id{width:6rem}col.c-res{width:6.5rem}col.c-time{width:5.5rem}col.c-verdict{width:8rem}col.c-counts{width:17rem}
@media (max-width:40rem){body{margin:1rem auto}col.c-counts{width:8rem}col.c-id{width:4.5rem}col.c-time{width:4rem}}`;

/** passed / failed / not-run badges (a "3/10" hides which of the other seven failed). */
function counts(cs: readonly ClauseResult[]): string {
  const n = (st: ClauseResult['state']) => cs.filter((x) => x.state === st).length;
  return `<span class="counts"><span class="certified" data-count="passed">${n('passed')} passed</span><span class="failed" data-count="failed">${n('failed')} failed</span><span class="not_run" data-count="not_run">${n('not_run')} not run</span></span>`;
}

function runFacts(c: Certification): string {
  const facts: string[] = [];
  if (c.selection) {
    const sel = c.selection;
    const what = sel.kind === 'profile' ? `profile ${sel.profile}` : sel.kind === 'replay' ? 'replay' : '--only';
    facts.push(`Selection: ${escapeHtml(what)} — ${escapeHtml([...sel.requirements, ...sel.clauses].join(' '))}`);
  }
  if (c.replay) {
    facts.push(
      `<span class="verdict replay-run" id="replay">replay</span> of ${escapeHtml(c.replay.clause)} (seed ${c.replay.seed}, path "${escapeHtml(c.replay.path)}")`,
    );
  }
  if (c.targetInfo) {
    const caps = c.targetInfo.capabilities;
    const declared = caps ? Object.keys(caps).filter((k) => caps[k]) : null;
    facts.push(
      `Target: ${escapeHtml(c.targetInfo.name)}; declares ${declared ? escapeHtml(declared.join(', ') || 'no capability') : 'unknown (no suite created it)'}` +
        `${c.targetInfo.harnesses ? `; runs harnesses ${escapeHtml(c.targetInfo.harnesses.join(', ') || 'none')}` : ''}; ` +
        `${escapeHtml(c.targetInfo.fingerprint.kind)} sha256 <code>${escapeHtml(c.targetInfo.fingerprint.sha256 ?? 'n/a')}</code>` +
        `${c.targetInfo.fingerprint.baseUrl ? ` at <code>${escapeHtml(c.targetInfo.fingerprint.baseUrl)}</code>` : ''}`,
    );
  }
  if (c.environment) {
    const e = c.environment;
    facts.push(
      `Environment: Node ${escapeHtml(e.node)}, ${escapeHtml(e.platform)}; Toxiproxy ${escapeHtml(e.toxiproxy ?? 'not found')}; FerretDB ${escapeHtml(e.ferretdb ?? 'not found')}; PostgreSQL ${escapeHtml(e.postgresql ?? 'not found')}`,
    );
  }
  return facts.length ? `<p>${facts.join('<br>')}</p>` : '';
}

function clauseRow(c: ClauseResult): string {
  const state = c.state === 'passed' ? 'certified' : c.state;
  const label = c.state === 'passed' ? 'passed' : c.state === 'failed' ? 'failed' : 'not run';
  const detail = [
    c.contract
      ? `<div class="contract muted">contract <code>CONTRACT.md#${escapeHtml(c.contract.anchor)}</code>: “${escapeHtml(c.contract.sentence)}”${
          c.contract.interpretation
            ? ` <span class="interp" title="${escapeHtml(c.contract.interpretation)}">interpretation</span><div class="muted">${escapeHtml(c.contract.interpretation)}</div>`
            : ''
        }</div>`
      : '',
    c.message ? `<pre>${escapeHtml(c.message)}</pre>` : '',
    c.replayToken && !(c.message ?? '').includes(c.replayToken)
      ? `<div class="replay">replay: <code>smtc certify --replay ${escapeHtml(c.replayToken)}</code></div>`
      : '',
    c.seed !== undefined
      ? `<div class="muted">fast-check seed ${c.seed}, path "${escapeHtml(c.path ?? '')}"</div>`
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
${r.clauses.length ? `<table><colgroup><col class="c-id"><col><col class="c-res"><col class="c-time"></colgroup><thead><tr><th>clause</th><th>scenario</th><th>result</th><th>time</th></tr></thead><tbody>${r.clauses.map(clauseRow).join('')}</tbody></table>` : ''}
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>smtc certification — ${escapeHtml(c.target)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body>
<h1>State, Memory, and Tracing Contract v1 — certification</h1>
<p>Target: <code>${escapeHtml(c.target)}</code><br>Run: ${escapeHtml(c.startedAt)} → ${escapeHtml(c.finishedAt)} (${(c.durationMs / 1000).toFixed(1)} s), smtc ${escapeHtml(c.tool.version)}${c.harness ? `, harness ${escapeHtml(c.harness.id)} (codec ${escapeHtml(c.harness.codec)})` : ''}${c.requireAll ? ', every kit service required' : ''}</p>
${runFacts(c)}
<p>Overall: <span id="overall" class="verdict ${c.overall}">${c.overall.replace('_', ' ')}</span>${c.replay ? ' <span class="verdict replay-run">replay</span>' : ''}${c.stopped ? ` — ${escapeHtml(c.stopped)}` : ''}</p>
<table><colgroup><col><col class="c-verdict"><col class="c-counts"></colgroup><thead><tr><th>requirement</th><th>verdict</th><th>clauses</th></tr></thead><tbody>
${c.requirements.map((r) => `<tr data-requirement="${r.id}"><td><a href="#${r.id}">${r.id}</a> ${escapeHtml(r.title)}</td><td><span class="verdict ${r.verdict}">${r.verdict.replace('_', ' ')}</span></td><td>${counts(r.clauses)}</td></tr>`).join('\n')}
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
