/**
 * Pipeline step 3: scan and classify the content as untrusted model-produced context. Builds
 * the normalised views later rules match (key and every JSON field included, joined both with
 * and without spaces so an instruction split across fields is seen whole) and applies the
 * content-shape rules: no raw transcripts, no operator skill definitions.
 */
import type { MemoryRejectionReason } from '../../contract/memory.js';
import { jsonStrings } from './json-strings.js';
import { matchingViews } from './normalize-text.js';
import { looksLikeRawTranscript } from './raw-transcript.js';
import type { ValidProposal } from './validate.js';

export interface ScanResult {
  /** Always `untrusted`: memory content is model-produced and never instructions. */
  readonly trust: 'untrusted';
  /** Normalised texts for rule matching (never persisted, never logged). */
  readonly views: readonly string[];
  readonly reasons: readonly MemoryRejectionReason[];
}

// A SKILL.md-style definition (front matter with name + description) is operator-owned.
const SKILL_FRONT_MATTER = /^\s*---\s*\n(?:[^\n]*\n){0,20}?\s*name\s*:[^\n]*\n(?:[^\n]*\n){0,20}?\s*description\s*:/i;

export function scanAndClassify(p: ValidProposal): ScanResult {
  const keyWords = p.key.replace(/[/_.-]+/g, ' ');
  const texts: string[] = [];
  if (p.contentType === 'application/json') {
    const parsed: unknown = JSON.parse(p.content);
    texts.push(`${keyWords}. ${jsonStrings(parsed).join(' ')}`, jsonStrings(parsed, false).join(''));
  } else {
    texts.push(`${keyWords}. ${p.content}`);
  }
  const views = new Set<string>();
  for (const t of texts) for (const v of matchingViews(t)) views.add(v);
  const reasons: MemoryRejectionReason[] = [];
  if (looksLikeRawTranscript(p.content, p.contentType)) reasons.push('raw_transcript');
  if (SKILL_FRONT_MATTER.test(p.content)) reasons.push('protected_skill');
  return { trust: 'untrusted', views: [...views], reasons };
}
