/**
 * The encodings a leaked canary may hide in, and the needles the scanner searches for each
 * canary: its whole value in every encoding, and its marker alone (a partial leak) raw, in
 * hex, and in base64/base64url at each of the three byte alignments it could sit at inside a
 * longer encoded string.
 */
import type { Canary } from './canary-kit.js';

export const ENCODINGS = [
  'raw',
  'case-folded',
  'json-escaped',
  'json-escaped-ascii',
  'url-encoded',
  'form-encoded',
  'base64',
  'base64url',
  'hex',
] as const;
export type Encoding = (typeof ENCODINGS)[number];

export interface Needle {
  readonly canaryId: string;
  readonly encoding: Encoding;
  /** Whole value, or only the marker inside it. */
  readonly subject: 'value' | 'marker';
  /** Bytes to look for (lowercased when caseInsensitive). */
  readonly bytes: Buffer;
  readonly caseInsensitive: boolean;
  /** What a decoded field (span attribute, name …) would contain if this needle leaked. */
  readonly fieldText: string;
}

export function jsonEscape(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/** JSON escaping that also writes every non-ASCII character as \uXXXX (Python's json.dumps default). */
export function jsonEscapeAscii(s: string): string {
  return jsonEscape(s).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function formEncode(s: string): string {
  return new URLSearchParams({ x: s }).toString().slice(2);
}

export function encode(encoding: Encoding, s: string): string {
  switch (encoding) {
    case 'raw':
      return s;
    case 'case-folded':
      return s.toLowerCase();
    case 'json-escaped':
      return jsonEscape(s);
    case 'json-escaped-ascii':
      return jsonEscapeAscii(s);
    case 'url-encoded':
      return encodeURIComponent(s);
    case 'form-encoded':
      return formEncode(s);
    case 'base64':
      return Buffer.from(s, 'utf8').toString('base64');
    case 'base64url':
      return Buffer.from(s, 'utf8').toString('base64url');
    case 'hex':
      return Buffer.from(s, 'utf8').toString('hex');
  }
}

/**
 * The base64 characters that depend only on `s`'s bytes when `s` starts `offset` bytes into
 * a 3-byte group — what appears inside any longer base64 text that contains `s`.
 */
export function base64Core(s: string, offset: 0 | 1 | 2, url: boolean): string {
  const bytes = Buffer.concat([Buffer.alloc(offset), Buffer.from(s, 'utf8')]);
  const enc = bytes.toString(url ? 'base64url' : 'base64');
  return enc.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * bytes.length) / 6));
}

const CASE_INSENSITIVE: ReadonlySet<Encoding> = new Set([
  'case-folded',
  'json-escaped-ascii',
  'url-encoded',
  'form-encoded',
  'hex',
]);

export function needlesFor(canary: Canary): Needle[] {
  const out: Needle[] = [];
  const seen = new Set<string>();
  const add = (encoding: Encoding, subject: Needle['subject'], text: string, fieldText = text) => {
    const ci = CASE_INSENSITIVE.has(encoding);
    const t = ci ? text.toLowerCase() : text;
    const k = `${ci}:${t}`;
    if (t.length === 0 || seen.has(k)) return;
    seen.add(k);
    out.push({ canaryId: canary.id, encoding, subject, bytes: Buffer.from(t, 'utf8'), caseInsensitive: ci, fieldText });
  };
  const v = canary.value;
  add('raw', 'value', v);
  add('json-escaped', 'value', jsonEscape(v), v);
  add('json-escaped-ascii', 'value', jsonEscapeAscii(v), v);
  add('url-encoded', 'value', encodeURIComponent(v));
  add('form-encoded', 'value', formEncode(v));
  add('base64', 'value', encode('base64', v));
  add('base64url', 'value', encode('base64url', v));
  add('hex', 'value', encode('hex', v));
  add('case-folded', 'value', v);
  const m = canary.marker;
  add('raw', 'marker', m);
  add('case-folded', 'marker', m);
  add('hex', 'marker', encode('hex', m));
  for (const off of [0, 1, 2] as const) {
    add('base64', 'marker', base64Core(m, off, false));
    add('base64url', 'marker', base64Core(m, off, true));
  }
  return out;
}
