/**
 * The canary report as a self-contained HTML fragment (one <section> with its own scoped
 * styles, no scripts, no external resources) for the CLI's report to embed. Every value from
 * the report is HTML-escaped; control bytes in excerpts are shown as \xNN.
 */
import type { CanaryReport } from './canary-report.js';
import { escapeHtml as e } from './html-escape.js';

const STYLE = `
.smtc-canaries{font:14px/1.45 system-ui,sans-serif;color:#1b1f24}
.smtc-canaries h2{font-size:1.3em;margin:0 0 .4em}
.smtc-canaries h3{font-size:1.05em;margin:1.2em 0 .4em}
.smtc-canaries table{border-collapse:collapse;width:100%;margin:.3em 0}
.smtc-canaries th,.smtc-canaries td{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top}
.smtc-canaries th{background:#f6f8fa}
.smtc-canaries code,.smtc-canaries .val{font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap;word-break:break-all}
.smtc-canaries .verdict{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;color:#fff}
.smtc-canaries .verdict-clean{background:#1a7f37}
.smtc-canaries .verdict-leaked{background:#cf222e}
.smtc-canaries .verdict-incomplete{background:#9a6700}
.smtc-canaries .hit td{background:#ffebe9}
.smtc-canaries dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:.3em 0}
.smtc-canaries dt{font-weight:600}
.smtc-canaries ul{margin:0;padding-left:1.1em}
`;

const VERDICT_TEXT = {
  clean: 'clean — no canary found',
  leaked: 'leaked — canaries found in exported telemetry',
  incomplete: 'incomplete — not every category was planted or nothing was scanned',
} as const;

function visible(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/g, (ch) =>
    ch === '\ufffd' ? '\\x??' : `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

export function renderCanaryReportHtml(report: CanaryReport): string {
  const s = report.summary;
  const verdict = report.verdict in VERDICT_TEXT ? report.verdict : 'incomplete';
  const ctx = Object.entries(report.context)
    .map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`)
    .join('');
  const sinks = report.sinks
    .map(
      (k) =>
        `<tr><td><code>${e(k.name)}</code></td><td>${e(k.description)}</td><td>${e(k.requests)}</td><td>${e(k.bytes)}</td><td>${e(k.spans)}</td></tr>`,
    )
    .join('');
  const canaries = report.canaries
    .map(
      (c) =>
        `<tr${c.hits > 0 ? ' class="hit"' : ''}><td><code>${e(c.id)}</code></td><td>${e(c.categoryLabel)}</td>` +
        `<td><code>${e(c.marker)}</code></td><td class="val">${e(visible(c.value))}</td>` +
        `<td>${c.plantedAt.length ? `<ul>${c.plantedAt.map((p) => `<li><code>${e(p)}</code></li>`).join('')}</ul>` : '<em>not planted</em>'}</td>` +
        `<td>${e(c.hits)}</td></tr>`,
    )
    .join('');
  const hits = report.hits
    .map(
      (h) =>
        `<tr class="hit"><td><code>${e(h.canaryId)}</code></td><td>${e(h.category)}</td><td>${e(h.encoding)} (${e(h.subject)})</td>` +
        `<td><code>${e(h.sink)}</code></td><td>${e(h.itemIndex)}</td><td>${h.byteOffset === null ? '—' : e(h.byteOffset)}</td>` +
        `<td>${h.spanName === null ? '—' : `<code>${e(h.spanName)}</code>`}</td>` +
        `<td>${h.attributeKey === null ? (h.fieldPath === null ? '—' : `<code>${e(h.fieldPath)}</code>`) : `<code>${e(h.attributeKey)}</code>`}</td>` +
        `<td class="val">${e(visible(h.context))}</td></tr>`,
    )
    .join('');
  return `<section class="smtc-canaries" id="smtc-canary-report">
<style>${STYLE}</style>
<h2>Telemetry leak canaries <span class="verdict verdict-${e(verdict)}">${e(VERDICT_TEXT[verdict])}</span></h2>
<dl>
<dt>Generated</dt><dd>${e(report.generatedAt)}</dd>
<dt>Canaries</dt><dd>${e(s.canaries)} in ${e(s.categoriesPlanted)} of ${e(s.categories)} forbidden categories</dd>
${s.categoriesNotPlanted.length ? `<dt>Not planted</dt><dd>${e(s.categoriesNotPlanted.join(', '))}</dd>` : ''}
<dt>Scanned</dt><dd>${e(s.requestsScanned)} requests, ${e(s.bytesScanned)} bytes, ${e(s.spansScanned)} spans in ${e(s.sinks)} sinks</dd>
<dt>Encodings searched</dt><dd>${e(s.encodingsSearched.join(', '))}; each for the whole value and for the marker alone</dd>
<dt>Hits</dt><dd>${e(s.hits)}${s.hitsTruncated ? ' (truncated)' : ''}</dd>
${ctx}
</dl>
<h3>Sinks scanned</h3>
<table><thead><tr><th>Sink</th><th>What</th><th>Requests</th><th>Bytes</th><th>Spans</th></tr></thead><tbody>${sinks}</tbody></table>
<h3>Hits</h3>
${
  report.hits.length
    ? `<table><thead><tr><th>Canary</th><th>Category</th><th>Encoding</th><th>Sink</th><th>Request</th><th>Byte offset</th><th>Span</th><th>Attribute / field</th><th>Excerpt</th></tr></thead><tbody>${hits}</tbody></table>`
    : '<p>No canary was found, raw or encoded, in any scanned byte.</p>'
}
<h3>Canaries</h3>
<table><thead><tr><th>Id</th><th>Category</th><th>Marker</th><th>Value</th><th>Planted through</th><th>Hits</th></tr></thead><tbody>${canaries}</tbody></table>
</section>`;
}
