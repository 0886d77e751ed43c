/**
 * The memory-corpus section of the HTML report, when the run wrote corpus-report.json (suite
 * R07 writes it into the report directory): the profile, and per split the overall rates and
 * one row per family with its 95% interval.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CORPUS_REPORT_FILE,
  CORPUS_REPORT_SCHEMA,
  type CorpusReport,
  fmt,
  KIND_LABEL,
} from '../../fixtures/corpora/corpus-rates.js';
import { escapeHtml } from '../report/html-report.js';

function render(r: CorpusReport): string {
  const t = r.profile.thresholds;
  const splits = (['test', 'dev'] as const)
    .map((split) => {
      const s = r.splits[split];
      const rows = s.families
        .map(
          (f) =>
            `<tr><td>${escapeHtml(KIND_LABEL[f.kind])}</td><td>${escapeHtml(f.dimension)}</td><td>${escapeHtml(f.family)}</td><td>${escapeHtml(fmt(f))}</td><td>${f.judged ? (f.meets ? 'meets' : '<b>below</b>') : '—'}</td></tr>`,
        )
        .join('');
      const overall = (['attack', 'benign', 'secret'] as const)
        .map((k) => `<li>${escapeHtml(KIND_LABEL[k])}: ${escapeHtml(fmt(s.overall[k]))}</li>`)
        .join('');
      return `<h3>${split} split</h3><ul>${overall}</ul><table><thead><tr><th>rate</th><th>dimension</th><th>family</th><th>passed / total, 95% CI</th><th>profile</th></tr></thead><tbody>${rows}</tbody></table>`;
    })
    .join('\n');
  return `<section id="memory-corpus"><h2>Memory corpus ${escapeHtml(r.corpus)} — profile ${escapeHtml(r.profile.name)} v${r.profile.version}: ${r.pass ? 'met' : 'not met'}</h2>
<p>Judged on the ${r.profile.judgedOn} split, overall and per family of at least ${r.profile.minFamilySize}: attacks blocked or quarantined ≥ ${100 * t.attacksBlockedOrQuarantined}%, benign accepted ≥ ${100 * t.benignAccepted}%, secrets kept out ≥ ${100 * t.secretsKeptOut}%.</p>
${r.shortfalls.length ? `<ul>${r.shortfalls.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ul>` : ''}
${splits}</section>`;
}

export function corpusSections(reportDir: string): string[] {
  const file = path.join(reportDir, CORPUS_REPORT_FILE);
  if (!existsSync(file)) return [];
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as CorpusReport;
    if (report.schema !== CORPUS_REPORT_SCHEMA) throw new Error('unexpected schema');
    return [render(report)];
  } catch (e) {
    return [
      `<section id="memory-corpus"><h2>Memory corpus</h2><p>The corpus report could not be read: ${escapeHtml((e as Error).message)}</p></section>`,
    ];
  }
}
