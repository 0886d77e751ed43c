/**
 * Searches every sink's bytes for every canary, raw and encoded (canary-encodings.ts), and
 * reports each hit's exact location: sink, item (request) index, byte offset and, when the item
 * was decodable, the span name and attribute key holding it. Overlapping hits of one canary are
 * collapsed to the most complete one (a whole-value hit hides the marker hit inside it).
 */

import { ENCODINGS, type Encoding, type Needle, needlesFor } from './canary-encodings.js';
import type { Canary } from './canary-kit.js';
import type { ForbiddenCategory } from './forbidden-categories.js';
import type { Sink, SinkField, SinkItem } from './sink.js';

export interface CanaryHit {
  readonly canaryId: string;
  readonly category: ForbiddenCategory;
  readonly encoding: Encoding;
  readonly subject: 'value' | 'marker';
  readonly sink: string;
  /** Index of the item (collector request) within its sink. */
  readonly itemIndex: number;
  /** Byte offset within the item; null when only the decoded fields contained it. */
  readonly byteOffset: number | null;
  readonly length: number;
  readonly spanName: string | null;
  readonly attributeKey: string | null;
  readonly fieldPath: string | null;
  /** A few bytes either side of the hit, as text. */
  readonly context: string;
}

export interface SinkScanSummary {
  readonly name: string;
  readonly description: string;
  readonly requests: number;
  readonly bytes: number;
  readonly spans: number;
}

export interface ScanResult {
  readonly hits: readonly CanaryHit[];
  readonly sinks: readonly SinkScanSummary[];
  /** True when the hit bound was reached and later hits were not recorded. */
  readonly truncated: boolean;
}

export const MAX_HITS = 10_000;
const CONTEXT_BYTES = 24;

interface Candidate {
  needle: Needle;
  offset: number;
}

export function scanSinks(canaries: readonly Canary[], sinks: readonly Sink[]): ScanResult {
  const needles = new Map<Canary, Needle[]>(canaries.map((c) => [c, needlesFor(c)]));
  const hits: CanaryHit[] = [];
  let truncated = false;
  const summaries: SinkScanSummary[] = [];
  for (const sink of sinks) {
    let bytes = 0;
    let spans = 0;
    sink.items.forEach((item, itemIndex) => {
      bytes += item.bytes.byteLength;
      spans += item.spans ?? 0;
      const buf = Buffer.from(item.bytes.buffer, item.bytes.byteOffset, item.bytes.byteLength);
      const hay: Haystack = { buf, lower: asciiLower(buf) };
      for (const [canary, ns] of needles) {
        for (const h of scanItem(canary, ns, sink.name, item, itemIndex, hay)) {
          if (hits.length >= MAX_HITS) truncated = true;
          else hits.push(h);
        }
      }
    });
    summaries.push({ name: sink.name, description: sink.description, requests: sink.items.length, bytes, spans });
  }
  return { hits, sinks: summaries, truncated };
}

interface Haystack {
  buf: Buffer;
  /** ASCII-lowercased copy, for case-insensitive needles. */
  lower: Buffer;
}

function scanItem(
  canary: Canary,
  needles: Needle[],
  sink: string,
  item: SinkItem,
  itemIndex: number,
  { buf, lower }: Haystack,
): CanaryHit[] {
  const candidates: Candidate[] = [];
  for (const needle of needles) {
    const hay = needle.caseInsensitive ? lower : buf;
    for (let at = hay.indexOf(needle.bytes); at !== -1; at = hay.indexOf(needle.bytes, at + 1)) {
      candidates.push({ needle, offset: at });
    }
  }
  const kept = collapse(candidates);
  const hit = (needle: Needle, offset: number | null, field: SinkField | null): CanaryHit => ({
    canaryId: canary.id,
    category: canary.category,
    encoding: needle.encoding,
    subject: needle.subject,
    sink,
    itemIndex,
    byteOffset: offset,
    length: needle.bytes.length,
    spanName: field?.spanName ?? null,
    attributeKey: field?.key ?? null,
    fieldPath: field?.path ?? null,
    context:
      offset === null
        ? excerpt(field?.value ?? '', needle)
        : buf
            .subarray(
              Math.max(0, offset - CONTEXT_BYTES),
              Math.min(buf.length, offset + needle.bytes.length + CONTEXT_BYTES),
            )
            .toString('utf8'),
  });
  const fields = item.fields ?? [];
  if (kept.length > 0) return kept.map((c) => hit(c.needle, c.offset, fieldContaining(fields, c.needle)));
  // Nothing in the bytes: a decoded field may still hold it (an escape form we do not enumerate).
  for (const needle of needles) {
    const f = fieldContaining(fields, needle);
    if (f) return [hit(needle, null, f)];
  }
  return [];
}

/** Keep the longest hit of each overlapping cluster (ties: the earlier encoding in ENCODINGS). */
function collapse(candidates: Candidate[]): Candidate[] {
  const sorted = candidates.slice().sort((a, b) => {
    const d = b.needle.bytes.length - a.needle.bytes.length;
    if (d !== 0) return d;
    const s = (a.needle.subject === 'value' ? 0 : 1) - (b.needle.subject === 'value' ? 0 : 1);
    return s !== 0 ? s : ENCODINGS.indexOf(a.needle.encoding) - ENCODINGS.indexOf(b.needle.encoding);
  });
  const kept: Candidate[] = [];
  for (const c of sorted) {
    const end = c.offset + c.needle.bytes.length;
    if (!kept.some((k) => c.offset < k.offset + k.needle.bytes.length && end > k.offset)) kept.push(c);
  }
  return kept.sort((a, b) => a.offset - b.offset);
}

function fieldContaining(fields: readonly SinkField[], needle: Needle): SinkField | null {
  const t = needle.caseInsensitive ? needle.fieldText.toLowerCase() : needle.fieldText;
  for (const f of fields) {
    const v = needle.caseInsensitive ? f.value.toLowerCase() : f.value;
    if (v.includes(t)) return f;
  }
  return null;
}

function excerpt(value: string, needle: Needle): string {
  const at = value.toLowerCase().indexOf(needle.fieldText.toLowerCase());
  const from = Math.max(0, at - CONTEXT_BYTES);
  return value.slice(from, at + needle.fieldText.length + CONTEXT_BYTES);
}

function asciiLower(buf: Buffer): Buffer {
  const out = Buffer.from(buf);
  for (let i = 0; i < out.length; i++) {
    const b = out[i]!;
    if (b >= 0x41 && b <= 0x5a) out[i] = b + 0x20;
  }
  return out;
}
