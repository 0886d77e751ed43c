/**
 * A failed clause explained in a few lines a target author can act on, instead of
 * fast-check's raw dump: where the suite's assertion is (file:line and its source line),
 * what it expected and what it got, the shrunk counterexample (a model-based one as a
 * numbered list of operations) and how to replay it. fast-check keeps the assertion that
 * failed as the error's `cause`; vitest serialises it with `expected`/`actual`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClauseContract } from '../../contract/clauses.js';

/** The parts of vitest's serialised error this reads. */
export interface ReportedError {
  readonly message?: string;
  readonly stack?: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly cause?: unknown;
}

const MAX_VALUE = 600;
const MAX_OPS = 30;

function asText(s: unknown): string {
  if (typeof s === 'string') return s;
  if (s === undefined) return '';
  try {
    return JSON.stringify(s) ?? Object.prototype.toString.call(s);
  } catch {
    return Object.prototype.toString.call(s);
  }
}

/** Control characters out (a target's text must not drive the terminal), one line, bounded. */
function oneLine(s: unknown, max = MAX_VALUE): string {
  // Whatever an assertion carried (vitest may keep a non-string expected/actual): shown as text.
  const flat = asText(s)
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/,\s*([}\]])/g, ' $1')
    .trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${flat.length - max} more characters)` : flat;
}

/** The first frame in the kit's suites or fixtures: `suites/r02-durable-head.spec.ts:99` and that source line. */
function assertionSite(stack: string | undefined, root: string): string | undefined {
  const frame = /(?:\(|at )(?:file:\/\/)?([^()\s]+\.ts):(\d+):\d+\)?/g;
  let file: string | undefined;
  let line = 0;
  for (const m of (stack ?? '').matchAll(frame)) {
    const rel = path.relative(root, m[1] ?? '');
    if (/^(suites|fixtures)\//.test(rel)) {
      file = m[1];
      line = Number(m[2]);
      break;
    }
  }
  if (!file || !line) return undefined;
  let source = '';
  try {
    source = readFileSync(file, 'utf8').split('\n')[line - 1]?.trim() ?? '';
  } catch {
    source = '';
  }
  return `${path.relative(root, file)}:${line}${source ? `: ${oneLine(source, 200)}` : ''}`;
}

/** fast-check's `Counterexample: [...]` — a command list as numbered operations. */
function counterexampleLines(fcMessage: string): string[] {
  const m = /^Counterexample: (.*)$/m.exec(fcMessage);
  if (!m?.[1]) return [];
  const shrunk = /^Shrunk (\d+) time/m.exec(fcMessage)?.[1];
  const head = `counterexample${shrunk !== undefined ? ` (shrunk ${shrunk} time${shrunk === '1' ? '' : 's'})` : ''}:`;
  const raw = m[1].replace(/\s*\/\*replayPath="[^"]*"\*\//, '');
  // A model run prints `[Op(a, b),Op2(c)]`: one operation per line.
  const ops = /^\[\s*[A-Za-z]\w*\(/.test(raw) ? splitTopLevel(raw.slice(1, raw.lastIndexOf(']'))) : null;
  if (ops && ops.length > 0) {
    const shown = ops.slice(0, MAX_OPS).map((op, i) => `  ${i + 1}. ${oneLine(op, 200)}`);
    if (ops.length > MAX_OPS) shown.push(`  … ${ops.length - MAX_OPS} more operations`);
    return [`${head} ${ops.length} operation${ops.length === 1 ? '' : 's'}`, ...shown];
  }
  return [`${head} ${oneLine(raw)}`];
}

/** Split `a(1, [2]), b(3)` at top-level commas. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = '';
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function asError(x: unknown): ReportedError | undefined {
  return x && typeof x === 'object' ? (x as ReportedError) : undefined;
}

/** The predicate's own error in a fast-check report made with `includeErrorInReport`. */
function gotError(message: string): string | undefined {
  const m = /^Got error: (.+)$/m.exec(message);
  return m?.[1]?.replace(/^(Assertion)?Error: /, '');
}

export function explainFailure(errors: readonly ReportedError[], root: string, replayToken?: string): string {
  const parts: string[] = [];
  for (const e of errors) {
    const message = e.message ?? '';
    const fromProperty = /^Property failed after/.test(message);
    // The assertion: the property's cause, else the error itself.
    const a = fromProperty ? (asError(e.cause) ?? e) : e;
    const site = assertionSite(a.stack, root);
    // With includeErrorInReport fast-check gives no cause, only a "Got error:" line: that is the assertion.
    const what = fromProperty && a === e ? (gotError(message) ?? message.split('\n')[0]) : (a.message ?? message);
    parts.push(`assertion failed: ${oneLine(what ?? 'failed', 300)}`);
    if (site) parts.push(`  at ${site}`);
    if (a.expected !== undefined || a.actual !== undefined) {
      parts.push(`  expected: ${oneLine(a.expected ?? '')}`, `  got:      ${oneLine(a.actual ?? '')}`);
    }
    if (fromProperty) parts.push(...counterexampleLines(message));
  }
  if (replayToken) parts.push(`replay: smtc certify --replay ${replayToken}`);
  return parts.join('\n') || 'failed';
}

/** `contract (commit-protocol): "…"` — and, for the kit's reading of it, why. */
export function contractLine(c: ClauseContract | undefined): string {
  if (!c) return '';
  const base = `contract (CONTRACT.md#${c.anchor}): "${c.sentence}"`;
  return c.interpretation ? `${base}\n  interpretation: ${c.interpretation}` : base;
}
