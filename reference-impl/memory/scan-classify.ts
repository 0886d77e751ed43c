/**
 * Pipeline step 3: scan and classify the content as untrusted model-produced context. Builds
 * the normalised views later rules match — key and every JSON field included (joined both with
 * and without spaces so an instruction split across fields is seen whole), the text as a reader
 * sees it without markup, and every hidden or foreign part (comments, hidden HTML, tool results)
 * on its own — each decoded and normalised (normalize-text.ts); records where text came from and
 * which encodings were undone; and applies the content-shape rules: no raw transcripts, no
 * operator skill definitions.
 */
import type { MemoryRejectionReason } from '../../contract/memory.js';
import { maskGlossaryPairs } from './glossary-pairs.js';
import { maskDescribedQuotes } from './grant-structure.js';
import { jsonStrings } from './json-strings.js';
import { withLineFeeds } from './line-breaks.js';
import { joinedListFragments } from './list-fragments.js';
import { maskMailHeaders } from './mail-headers.js';
import { decodedViews } from './normalize-text.js';
import { looksLikeRawTranscript } from './raw-transcript.js';
import { maskReportedAttacks } from './reported-attack.js';
import { jsonSettingLines, textSettingLines } from './setting-lines.js';
import { originSegments, type TextOrigin, withoutMarkup } from './text-origins.js';
import { inUnreadLanguage } from './unread-language.js';
import type { ValidProposal } from './validate.js';

export interface ScanResult {
  /** Always `untrusted`: memory content is model-produced and never instructions. */
  readonly trust: 'untrusted';
  /** Normalised texts for rule matching (never persisted, never logged). */
  readonly views: readonly string[];
  /** Views of text a reader never sees or another system wrote (subset of `views`). */
  readonly foreignViews: readonly string[];
  /** Where parts of the text came from. */
  readonly origins: readonly TextOrigin[];
  /** Encoding families undone to reach some view. */
  readonly encodings: readonly string[];
  /** What only an obfuscating encoding revealed (normalize-text.ts), folded. */
  readonly obfuscatedViews: readonly string[];
  readonly reasons: readonly MemoryRejectionReason[];
  /** The text is in a language the authority rules do not read (unread-language.ts). */
  readonly unreadLanguage: boolean;
  /**
   * The note's settings, one `path.to.key: value` line each, lower case ("grant.tools: shell,
   * http_post", "approval: waived"), from JSON leaves and from YAML or TOML text (setting-lines.ts).
   */
  readonly settings: readonly string[];
}

/** Views kept per proposal, over all its texts (each text's decoding is bounded too). */
const MAX_VIEWS = 160;

// A SKILL.md-style definition (front matter with name + description) is operator-owned.
const SKILL_FRONT_MATTER = /^\s*---\s*\n(?:[^\n]*\n){0,20}?\s*name\s*:[^\n]*\n(?:[^\n]*\n){0,20}?\s*description\s*:/i;

/** Material a note carries rather than says: quotes it frames as examples, glossary pairs, mail headers, reported attacks. */
const materialMasked = (v: string): string =>
  maskReportedAttacks(maskMailHeaders(maskGlossaryPairs(maskDescribedQuotes(v))));

export function scanAndClassify(p: ValidProposal): ScanResult {
  const keyWords = p.key.replace(/[/_.-]+/g, ' ');
  const texts: string[] = [];
  const origins = new Set<TextOrigin>();
  // Every rule below reads lines broken however a reader would break them (line-breaks.ts).
  const content = withLineFeeds(p.content);
  let body = content;
  let settings: string[] = [];
  // A JSON string is text too: a transcript or a skill definition in one is still one.
  let textFields: string[] = [content];
  if (p.contentType === 'application/json') {
    const parsed: unknown = JSON.parse(p.content);
    const fields = jsonStrings(parsed).map(withLineFeeds);
    textFields = fields.filter((f) => f.includes('\n'));
    settings = [...jsonSettingLines(parsed), ...textFields.flatMap(textSettingLines)];
    body = fields.join(' ');
    if (fields.length > 0) origins.add('json_field');
    texts.push(`${keyWords}. ${body}`, jsonStrings(parsed, false).map(withLineFeeds).join(''));
  } else {
    settings = textSettingLines(content);
    texts.push(`${keyWords}. ${content}`);
  }
  const plain = withoutMarkup(body);
  if (plain !== null) texts.push(plain);
  const joined = joinedListFragments(body);
  if (joined !== null) texts.push(joined);
  const foreign: string[] = [];
  for (const seg of originSegments(body)) {
    origins.add(seg.origin);
    if (seg.origin !== 'json_field') foreign.push(seg.text);
  }
  const views = new Set<string>();
  const foreignViews = new Set<string>();
  const encodings = new Set<string>();
  const obfuscated = new Set<string>();
  // `masked`: quotes a sentence describes are left out of decoded views too (a rot13 note that
  // quotes an attack as research material is still material once decoded), masked in each
  // decoded text as soon as it is decoded, while its words still read as the writer wrote them,
  // and once more in each folded view: a describing word in lookalike letters reads as one only
  // after folding (masking finds nothing to do in a text without quote marks, so this is cheap).
  const collect = (t: string, into: Set<string>[], masked = false): void => {
    const read = masked ? materialMasked : (v: string) => v;
    const d = decodedViews(t, read);
    for (const e of d.encodings) encodings.add(e);
    for (const v of d.obfuscated) if (obfuscated.size < MAX_VIEWS) obfuscated.add(read(v));
    for (const v of d.views) for (const set of into) if (set.size < MAX_VIEWS) set.add(read(v));
  };
  for (const t of foreign) collect(t, [views, foreignViews]);
  for (const t of texts) collect(materialMasked(t), [views], true);
  const reasons: MemoryRejectionReason[] = [];
  // JSON is parsed as written: a raw U+2028 inside a string is text there, not a line break.
  const whole = p.contentType === 'application/json' ? p.content : content;
  if (looksLikeRawTranscript(whole, p.contentType) || textFields.some((f) => looksLikeRawTranscript(f, 'text/plain')))
    reasons.push('raw_transcript');
  if (textFields.some((f) => SKILL_FRONT_MATTER.test(f))) reasons.push('protected_skill');
  return {
    trust: 'untrusted',
    views: [...views],
    foreignViews: [...foreignViews],
    origins: [...origins],
    encodings: [...encodings],
    obfuscatedViews: [...obfuscated],
    reasons,
    // The readings as written or plainly decoded: a reversal or guessed shift reads as anything.
    unreadLanguage: inUnreadLanguage([...views].filter((v) => !obfuscated.has(v))),
    settings,
  };
}
