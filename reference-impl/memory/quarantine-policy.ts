/**
 * Pipeline step 5, content half: what is suspicious but not clearly an attack goes to a human
 * instead of being accepted silently. The write waits as a pending approval (invisible until
 * someone other than the writer approves) and the approver is told why, as fixed reason codes:
 * a control said to be lifted or skipped, a standing order to act, text that needed an
 * obfuscating encoding to read, or instructions in parts a reader never sees or another system
 * wrote (comments, hidden HTML, tool results).
 */
import * as L from './grant-lexicon.js';
import type { ScanResult } from './scan-classify.js';

/** Encodings people rarely use for an honest note (base64, percent, entities, leetspeak, spelt-out words are common). */
const OBFUSCATING = /^(?:rot13|caesar\d+|reversed|base32|hex)$/;

export function quarantineReasons(scan: ScanResult, suspicions: readonly string[]): string[] {
  const out = new Set<string>(suspicions);
  if (scan.encodings.some((e) => OBFUSCATING.test(e))) out.add('suspect_obfuscated_text');
  const addressed = (v: string): boolean =>
    L.AGENT.test(v) && (L.OBLIGATE.test(v) || L.EXEC.test(v) || L.EXFIL.test(v) || L.PERMIT_STRONG.test(v));
  if (scan.foreignViews.some(addressed)) {
    if (scan.origins.includes('tool_result')) out.add('suspect_tool_result_instruction');
    if (scan.origins.includes('hidden_html') || scan.origins.includes('markup_comment')) {
      out.add('suspect_hidden_instruction');
    }
  }
  return [...out].sort();
}
