/**
 * Pipeline step 5, content half: what is suspicious but not clearly an attack goes to a human
 * instead of being accepted silently. The write waits as a pending approval (invisible until
 * someone other than the writer approves) and the approver is told why, as fixed reason codes:
 * a control said to be lifted or skipped, a standing order to act, text that needed an
 * obfuscating encoding to read and speaks of authority, or instructions in parts a reader never
 * sees or another system wrote (comments, hidden HTML, tool results).
 */
import * as L from './grant-lexicon.js';
import type { ScanResult } from './scan-classify.js';

// Vocabulary of authority: who is addressed, what it must or may do, what it may reach.
const AUTHORITY_VOCABULARY = [
  L.AGENT,
  L.OBLIGATE,
  L.STANDING,
  L.PERMIT_STRONG,
  L.EXEC,
  L.EXFIL,
  L.TOOL,
  L.CRED,
  L.SKIP,
  L.LIFTED,
  L.OVERRIDE,
  L.YOU_ARE_NOW,
  L.ADMIN,
  L.BRIDGE,
  L.HOST,
];

/**
 * Obfuscation alone is no reason: a note a guessing decoder happens to "decode" (a shift of
 * random tokens) or a hex dump of printable bytes is ordinary. Text hidden behind an
 * obfuscating encoding is suspect when what it reveals speaks of authority.
 */
function obfuscatedAuthority(scan: ScanResult): boolean {
  return scan.obfuscatedViews.some((v) => AUTHORITY_VOCABULARY.some((re) => re.test(v)));
}

export function quarantineReasons(scan: ScanResult, suspicions: readonly string[]): string[] {
  const out = new Set<string>(suspicions);
  if (obfuscatedAuthority(scan)) out.add('suspect_obfuscated_text');
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
