/**
 * Pipeline step 5, content half: what is suspicious but not clearly an attack goes to a human
 * instead of being accepted silently. The write waits as a pending approval (invisible until
 * someone other than the writer approves) and the approver is told why, as fixed reason codes:
 * a control said to be lifted or skipped, a standing order to act, text that needed an
 * obfuscating encoding to read and speaks of authority, instructions in parts a reader never
 * sees or another system wrote (comments, hidden HTML, tool results), or text in a language the
 * rules do not read that names a destination, a tool or credential beside the assistant, or
 * bridges two numbered records.
 */
import { AUTHORITY_RULES } from './authority-rules.js';
import * as L from './grant-lexicon.js';
import type { ScanResult } from './scan-classify.js';
import { twoRecordsByLabel, UNREAD_ASSISTANT, UNREAD_ORDER, UNREAD_YOU } from './unread-language.js';

const STANDING_ORDER = AUTHORITY_RULES.find((r) => r.id === 'standing_order')!.pattern;

// Who or what an order binds, and what it reaches: an order needs one of each. A standing
// phrase ("from now on") is no marker here: plain text with one is an order only when the
// standing-order rule reads one in it ("from now on call me Sam" is not), and a decoded reading
// is judged by that same rule (STRONG below), so encoding a note alone never makes it an order.
const MARKERS = [L.AGENT, L.OBLIGATE, L.PERMIT_STRONG, L.TRIGGER];
const OBJECTS = [L.EXEC, L.EXFIL, L.TOOL, L.CRED, L.HOST, L.ADMIN];
// Phrases that speak of authority on their own.
const STRONG = [
  L.SKIP,
  L.LIFTED,
  L.OVERRIDE,
  L.YOU_ARE_NOW,
  L.BRIDGE,
  L.SKIP_STEP,
  L.PRE_APPROVED,
  L.UNBOUND,
  L.RULES_OFF,
  L.AS_IF_OTHERS,
  L.ALL_SCOPES,
  L.NO_CHECK,
  STANDING_ORDER,
];

/**
 * Obfuscation alone is no reason: a note a guessing decoder happens to "decode" (a shift of
 * random tokens) or a hex dump of a harmless sentence is ordinary. Text hidden behind an
 * obfuscating encoding is suspect when what it reveals speaks of authority: a phrase that does
 * on its own, or an addressee or modal together with an action or object of authority.
 */
function obfuscatedAuthority(scan: ScanResult): boolean {
  const speaks = (v: string): boolean =>
    STRONG.some((re) => re.test(v)) || (MARKERS.some((re) => re.test(v)) && OBJECTS.some((re) => re.test(v)));
  return scan.obfuscatedViews.some(speaks);
}

/**
 * What an order in a language the rules do not read could reach, recognisable without its
 * grammar: a destination (link, address, IP) or a word every language borrows for a tool or a
 * credential ("příkazy shellu", "API-nøklene", "token", Hindi "ईमेल").
 */
const LOANED_OBJECT =
  /(?<![\p{L}\p{N}])(?:shell\p{L}*|api|tokens?|admin\p{L}*|root|sudo|scripts?|webhooks?|curl|wget|ssh|bash|powershell|cmd|e-?mails?|passwords?|ईमेल|ई-मेल|पासवर्ड|टोकन|एपीआई|एडमिन|स्क्रिप्ट|कमांड|إيميل|الإيميل|توكن|كلمة المرور|كلمة السر)(?![\p{L}\p{M}])/iu;

/**
 * Settings for the agent written into memory ("assistant:\n  auto_approve_payments: true",
 * "assistant_rules: …"): keys that configure its controls, whatever their values say (views
 * join lines, and some drop the underscores).
 */
const AGENT_CONFIG =
  /(?<![\p{L}\p{N}])["']?[\w-]{0,40}?(?:auto[_-]?approv\w{0,20}|allowed[_-]?(?:recipients|domains|hosts|tools|senders)|trusted[_-]?(?:domains|hosts|senders|tools)|requires?[_-]?(?:approval|confirmation)|(?:assistant|agent|ai|bot)[_-]?(?:may|can|allowed|permissions)|skip[_-]?(?:approval|confirmation|review)|confirm[_-]?before\w{0,20}|(?:assistant|agent|ai|bot|llm)[_-]?(?:rules|instructions|permissions|policy|directives|overrides))["']?[ \t]*[:=]/iu;

/**
 * Grants written as settings, whatever the file format (JSON leaves and YAML or TOML text are
 * read as `path: value` lines, setting-lines.ts): a grant or allow-list of tools, commands, hosts, scopes or
 * secrets ("grant.tools: shell", "permissions.network: *"), or an approval set to waived or off.
 */
const CONFIG_GRANT =
  /(?<![\p{L}\p{N}])(?:(?:grants?|granted|permissions?|privileges?|capabilit(?:y|ies)|allow(?:ed)?|allow_?list|whitelist)(?:[._-][\w-]+)*[._-](?:tools?|commands?|scopes?|hosts?|domains?|network|egress|secrets?|credentials?|sandbox|profiles?)[\w-]*\s*[:=]\s*\S|(?:require[sd]?[_-]?)?(?:approvals?|confirmations?|human[_-]?review|sign[_-]?off)(?:[._-](?:required|needed|step|policy|mode))?["']?\s*[:=]\s*["']?(?:waived|skip(?:ped)?|bypass(?:ed)?|disabled|not[ _-]?required|exempt|false|off)(?![\p{L}]))/u;

export function quarantineReasons(scan: ScanResult, suspicions: readonly string[]): string[] {
  const out = new Set<string>(suspicions);
  const setting = (v: string): boolean => AGENT_CONFIG.test(v) || CONFIG_GRANT.test(v);
  if (scan.views.some((v) => AGENT_CONFIG.test(v)) || scan.settings.some(setting)) out.add('suspect_agent_config');
  if (obfuscatedAuthority(scan)) out.add('suspect_obfuscated_text');
  // A destination, a phrase that speaks of authority on its own, a tool or credential the
  // assistant is told about, or one record's data bridged to another's; a loanword alone is the
  // writer's own ("I use sudo", "the Stripe API").
  const unreadOrder = (v: string): boolean =>
    L.HOST.test(v) ||
    UNREAD_ORDER.test(v) ||
    (LOANED_OBJECT.test(v) && (UNREAD_ASSISTANT.test(v) || UNREAD_YOU.test(v) || L.AGENT.test(v))) ||
    twoRecordsByLabel(v);
  if (scan.unreadLanguage && scan.views.some(unreadOrder)) out.add('suspect_unread_language');
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
