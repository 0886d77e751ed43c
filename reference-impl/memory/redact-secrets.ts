/**
 * Pipeline step 4a: redact prohibited secrets before anything is persisted, indexed or audited,
 * in three layers: (1) secretlint's maintained rules — the recommended preset, which at 12.0.0
 * already bundles every separately published @secretlint rule of that version (AWS with key-id
 * scanning on, GCP, GitHub, GitLab, Slack, OpenAI, Anthropic, database URLs, …); (2) our provider token shapes after gitleaks' provider list
 * (secret-provider-rules.ts); (3) keyword-and-entropy and key-aware scanning of structured
 * content (secret-keywords.ts), wallet seed phrases (seed-phrase.ts), TOTP seeds and security answers (account-recovery-secrets.ts), and passwords on command lines, in .pgpass lines, auth tuples and CSV columns (command-line-secrets.ts), and PuTTY key lines and spelled-out passwords (key-file-secrets.ts). Every finding is redacted, however many there are. The preset's
 * comment-filter rule is left out on purpose: model-produced content could otherwise switch
 * scanning off with a `secretlint-disable` comment. Invisible characters are removed first so
 * a zero-width space can't split a token; a base64 run that decodes to a secret is redacted
 * whole. JSON content is scanned field by field (escapes decoded) and re-serialised only when
 * something was redacted.
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { accountRecoveryRanges } from './account-recovery-secrets.js';
import { commandLineSecretRanges } from './command-line-secrets.js';
import { decodedBase64Runs } from './decode-encodings.js';
import { jsonStrings, rebuildJson } from './json-strings.js';
import { keyFileSecretRanges } from './key-file-secrets.js';
import { withLineFeeds } from './line-breaks.js';
import { stripInvisible } from './normalize-text.js';
import { isPlaceholderRange } from './placeholder-secrets.js';
import { keywordSecretRanges, secretJsonValueIndexes } from './secret-keywords.js';
import { providerSecretRanges } from './secret-provider-rules.js';
import { seedPhraseRanges } from './seed-phrase.js';
import { webhookSecretRanges } from './webhook-url-secrets.js';

export const REDACTION_MARK = '[REDACTED]';

// secretlint's core marks ~100 performance entries per lint into a process-global profiler and
// timeline that are never cleared (and searched linearly): unbounded memory and a per-call cost
// that grows with every write in a long-lived broker. We never read the profile, so its clock
// becomes a no-op for this process.
(secretLintProfiler as unknown as { perf: { mark(): void; measure(): void } }).perf = {
  mark: () => undefined,
  measure: () => undefined,
};

type SecretlintConfig = Parameters<typeof lintSource>[0]['options']['config'];

const CONFIG: SecretlintConfig = {
  rules: rules
    .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
    .map((rule) => ({
      id: rule.meta.id,
      rule,
      options: rule.meta.id === '@secretlint/secretlint-rule-aws' ? { enableIDScanRule: true } : {},
    })),
};

export interface Redaction {
  readonly content: string;
  /** Fixed finding codes (never the secret, never the rule's message). */
  readonly findings: readonly string[];
}

async function secretRanges(written: string): Promise<Array<readonly [number, number]>> {
  // Line rules (a .pgpass or .netrc line, KEY=VALUE) read every line break; offsets are kept.
  const text = withLineFeeds(written);
  const result = await lintSource({
    source: { content: text, filePath: 'memory.txt', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
  });
  // A placeholder (`USER:PASSWORD@`, `changeme`, `<token>`) is no secret, whichever layer found it.
  return [
    ...result.messages.filter((m) => m.type === 'message').map((m) => m.range),
    ...providerSecretRanges(text),
    ...keywordSecretRanges(text),
    ...seedPhraseRanges(text),
    ...accountRecoveryRanges(text),
    ...commandLineSecretRanges(text),
    ...keyFileSecretRanges(text),
    ...webhookSecretRanges(text),
  ].filter((r) => !isPlaceholderRange(text, r));
}

async function rangesWithEncoded(text: string): Promise<Array<readonly [number, number]>> {
  const ranges = [...(await secretRanges(text))];
  for (const run of decodedBase64Runs(text)) {
    if ((await secretRanges(run.decoded)).length > 0) ranges.push([run.start, run.end]);
  }
  return ranges;
}

// Some preset rules report a range that stops short of the secret (the AWS secret-key rule
// reports the key name's offset with the secret's length; basic-auth stops at the host), so a
// redaction always covers the whole whitespace- or quote-delimited token around the range.
const TOKEN_BOUNDARY = /[\s"'`<>()[\]{},;\u0000]/;

function widen(text: string, [s, e]: readonly [number, number]): [number, number] {
  let start = s;
  let end = Math.max(e, s + 1);
  while (start > 0 && !TOKEN_BOUNDARY.test(text[start - 1] ?? ' ')) start--;
  while (end < text.length && !TOKEN_BOUNDARY.test(text[end] ?? ' ')) end++;
  return [start, end];
}

function applyRanges(text: string, ranges: Array<readonly [number, number]>): string {
  const sorted = ranges.map((r) => widen(text, r)).sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [s, e] of sorted) {
    if (e <= at) continue;
    out += text.slice(at, Math.max(s, at)) + REDACTION_MARK;
    at = e;
  }
  return out + text.slice(at);
}

// NUL can't occur in validated content (raw or JSON-decoded), so it separates JSON strings.
const SEP = '\u0000';

export async function redactSecrets(content: string, contentType: string): Promise<Redaction> {
  if (contentType === 'application/json') {
    const parsed: unknown = JSON.parse(content);
    const strings = jsonStrings(parsed);
    const visible = strings.map(stripInvisible);
    const joined = visible.join(SEP);
    const ranges = await rangesWithEncoded(joined);
    // Key-aware: a value whose key names a secret is redacted whole, whatever it looks like.
    const keyed = secretJsonValueIndexes(parsed);
    let at = 0;
    visible.forEach((v, i) => {
      if (keyed.has(i) && !isPlaceholderRange(joined, [at, at + v.length])) ranges.push([at, at + v.length]);
      at += v.length + SEP.length;
    });
    const invisible = joined !== strings.join(SEP);
    if (ranges.length === 0 && !invisible) return { content, findings: [] };
    // Each string is redacted within its own span, so no finding can move a field boundary.
    let from = 0;
    const replaced = visible.map((v) => {
      const own = ranges
        .filter(([s, e]) => e > from && s < from + v.length)
        .map(([s, e]) => [Math.max(s, from) - from, Math.min(e, from + v.length) - from] as const);
      from += v.length + SEP.length;
      return own.length > 0 ? applyRanges(v, own) : v;
    });
    return {
      content: JSON.stringify(rebuildJson(parsed, replaced)),
      findings: [...(ranges.length > 0 ? ['secret_redacted'] : []), ...(invisible ? ['invisible_removed'] : [])],
    };
  }
  const visible = stripInvisible(content);
  const ranges = await rangesWithEncoded(visible);
  const findings: string[] = [];
  if (ranges.length > 0) findings.push('secret_redacted');
  if (visible !== content) findings.push('invisible_removed');
  return { content: ranges.length > 0 ? applyRanges(visible, ranges) : visible, findings };
}
