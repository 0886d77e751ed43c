/**
 * The canary report section of the HTML report, when the run wrote canary-report.json.
 * Rendered by canaries/ (which owns the format); until that renderer exists the JSON is shown.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml } from '../report/html-report.js';

export async function canarySections(reportDir: string): Promise<string[]> {
  const file = path.join(reportDir, 'canary-report.json');
  if (!existsSync(file)) return [];
  const json = readFileSync(file, 'utf8');
  return [`<section id="canaries"><h2>Telemetry leak canaries</h2><pre>${escapeHtml(json)}</pre></section>`];
}
