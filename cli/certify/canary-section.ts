/**
 * The canary report section of the HTML report, when the run wrote canary-report.json
 * (suite R10 writes it into the report directory). canaries/ owns the format and its renderer.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CANARY_REPORT_FILE, CANARY_REPORT_SCHEMA, type CanaryReport } from '../../canaries/canary-report.js';
import { renderCanaryReportHtml } from '../../canaries/render-canary-html.js';
import { escapeHtml } from '../report/html-report.js';

export async function canarySections(reportDir: string): Promise<string[]> {
  const file = path.join(reportDir, CANARY_REPORT_FILE);
  if (!existsSync(file)) return [];
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as CanaryReport;
    if (report.schema !== CANARY_REPORT_SCHEMA) throw new Error(`unexpected schema ${String(report.schema)}`);
    return [renderCanaryReportHtml(report)];
  } catch (e) {
    return [
      `<section id="canaries"><h2>Telemetry leak canaries</h2><p>The canary report could not be read: ${escapeHtml((e as Error).message)}</p></section>`,
    ];
  }
}
