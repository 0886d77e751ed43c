/**
 * The canary report: every canary with its category and where it was planted, which sinks were
 * scanned (requests, bytes, spans) and every hit with its exact location. JSON for machines
 * (`smtc.canary-report/v1`, embedded by the CLI); render-canary-html.ts renders it for auditors.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ENCODINGS, type Encoding } from './canary-encodings.js';
import type { CanaryKit } from './canary-kit.js';
import type { CanaryHit, ScanResult, SinkScanSummary } from './canary-scanner.js';
import { CATEGORY_LABEL, FORBIDDEN_CATEGORIES, type ForbiddenCategory } from './forbidden-categories.js';

export const CANARY_REPORT_SCHEMA = 'smtc.canary-report/v1';
export const CANARY_REPORT_FILE = 'canary-report.json';

/**
 * clean: every category planted, bytes scanned, no hit. leaked: at least one hit.
 * incomplete: no hit, but a category was never planted or nothing was scanned.
 */
export type CanaryVerdict = 'clean' | 'leaked' | 'incomplete';

export interface CanaryReportEntry {
  readonly id: string;
  readonly category: ForbiddenCategory;
  readonly categoryLabel: string;
  readonly marker: string;
  readonly value: string;
  readonly plantedAt: readonly string[];
  readonly hits: number;
}

export interface CanaryReport {
  readonly schema: typeof CANARY_REPORT_SCHEMA;
  readonly generatedAt: string;
  /** Free-form facts for the reader: target name, suite, how the environment was planted … */
  readonly context: Readonly<Record<string, string>>;
  readonly verdict: CanaryVerdict;
  readonly summary: {
    readonly canaries: number;
    readonly categories: number;
    readonly categoriesPlanted: number;
    readonly categoriesNotPlanted: readonly ForbiddenCategory[];
    readonly sinks: number;
    readonly requestsScanned: number;
    readonly bytesScanned: number;
    readonly spansScanned: number;
    readonly hits: number;
    readonly hitsTruncated: boolean;
    readonly encodingsSearched: readonly Encoding[];
  };
  readonly canaries: readonly CanaryReportEntry[];
  readonly sinks: readonly SinkScanSummary[];
  readonly hits: readonly CanaryHit[];
}

export function buildCanaryReport(
  kit: CanaryKit,
  scan: ScanResult,
  context: Readonly<Record<string, string>> = {},
  now: Date = new Date(),
): CanaryReport {
  const hitsBy = new Map<string, number>();
  for (const h of scan.hits) hitsBy.set(h.canaryId, (hitsBy.get(h.canaryId) ?? 0) + 1);
  const canaries: CanaryReportEntry[] = kit.canaries().map((c) => ({
    id: c.id,
    category: c.category,
    categoryLabel: CATEGORY_LABEL[c.category],
    marker: c.marker,
    value: c.value,
    plantedAt: kit.plantedAt(c),
    hits: hitsBy.get(c.id) ?? 0,
  }));
  const planted = new Set(canaries.filter((c) => c.plantedAt.length > 0).map((c) => c.category));
  const notPlanted = FORBIDDEN_CATEGORIES.filter((c) => !planted.has(c));
  const sum = (f: (s: SinkScanSummary) => number) => scan.sinks.reduce((a, s) => a + f(s), 0);
  const bytesScanned = sum((s) => s.bytes);
  const verdict: CanaryVerdict =
    scan.hits.length > 0 ? 'leaked' : notPlanted.length > 0 || bytesScanned === 0 ? 'incomplete' : 'clean';
  return {
    schema: CANARY_REPORT_SCHEMA,
    generatedAt: now.toISOString(),
    context: { ...context },
    verdict,
    summary: {
      canaries: canaries.length,
      categories: FORBIDDEN_CATEGORIES.length,
      categoriesPlanted: planted.size,
      categoriesNotPlanted: notPlanted,
      sinks: scan.sinks.length,
      requestsScanned: sum((s) => s.requests),
      bytesScanned,
      spansScanned: sum((s) => s.spans),
      hits: scan.hits.length,
      hitsTruncated: scan.truncated,
      encodingsSearched: ENCODINGS,
    },
    canaries,
    sinks: scan.sinks,
    hits: scan.hits,
  };
}

/** Writes `<dir>/canary-report.json` and returns its path. */
export function writeCanaryReport(report: CanaryReport, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, CANARY_REPORT_FILE);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

/** One line per hit for a test failure message: where exactly, never more than a few. */
export function describeHits(hits: readonly CanaryHit[], max = 10): string {
  const lines = hits
    .slice(0, max)
    .map(
      (h) =>
        `${h.canaryId} (${h.category}) ${h.encoding}/${h.subject} in ${h.sink}[${h.itemIndex}]` +
        (h.byteOffset === null ? '' : ` @${h.byteOffset}`) +
        (h.spanName ? ` span "${h.spanName}"` : '') +
        (h.attributeKey ? ` attribute "${h.attributeKey}"` : '') +
        (h.fieldPath && !h.attributeKey ? ` (${h.fieldPath})` : ''),
    );
  if (hits.length > max) lines.push(`… and ${hits.length - max} more`);
  return lines.join('\n');
}
