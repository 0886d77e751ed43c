/**
 * Pipeline step 4b: the project's own deterministic rules against content that tries to
 * broaden authority or steer later behaviour. No library covers these, so they are explicit,
 * reviewable regular expressions over the normalised views from scan-classify (lower case,
 * homoglyphs folded, invisible characters removed, encoded runs decoded). Memory is descriptive;
 * imperative instructions, grants and standing orders are what these rules catch.
 */
import type { MemoryRejectionReason } from '../../contract/memory.js';
import { findGrants } from './grant-structure.js';

export interface AuthorityRule {
  readonly id: string;
  readonly reason: Extract<MemoryRejectionReason, 'authority_broadening' | 'injection' | 'cross_scope'>;
  readonly pattern: RegExp;
}

/**
 * A clause start: text start, sentence punctuation, or a connective before an imperative verb —
 * not after "I" or "we", where the verb is the writer's own habit ("I always send my invoices to …").
 */
const IMP = String.raw`(?:^|[.!?;:>\]\)]\s*|\b(?<!\b(?:i|we)\s{1,3})(?:then|and|also|please|always|just|quietly|silently|now|secretly)\s+)`;
const CLAUSE = String.raw`[^.!?\n]`;
const AGENT = `(?:you|the (?:agent|assistant|model|bot|ai|system)|this (?:agent|assistant|model|bot)|agent|assistant|claude|chatgpt|gpt)`;
const MODAL = `(?:may|can|could|(?:are|is) (?:now )?(?:allowed|permitted|authori[sz]ed|cleared|free|entitled)|ha(?:ve|s) (?:now )?(?:permission|access|clearance|the right)|no longer (?:needs?|requires?) (?:approval|permission|confirmation) to)`;
const ACTION = `(?:use|call|invoke|run|execute|access|reach|connect|contact|send|post|fetch|download|upload|install|read|write|delete|modify|spawn|open|browse)`;
const HOST = String.raw`(?:https?:\/\/|ftp:\/\/|wss?:\/\/|\b(?:\d{1,3}\.){3}\d{1,3}\b|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|ru|cn|xyz|dev|app|co|info|biz|top|site|online|me|sh|tk|example|invalid|test|local|internal)\b|\b[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z.]{2,})`;
const CREDENTIAL = `(?:credentials?|api[ _-]?keys?|access[ _-]?tokens?|secret[ _-]?keys?|secrets|passwords?|passwd|passphrases?|bearer tokens?|ssh keys?|private keys?|oauth tokens?|session (?:tokens?|cookies?)|service[ _-]account(?: keys?| tokens?)?|auth(?:entication|orization)? (?:headers?|tokens?)|cookies?|tokens? from the vault|vault tokens?)`;
const SCOPES = `(?:(?:the )?(?:organi[sz]ation(?:'s)?|org|agent|shared|global|team|tenant|company)(?:-wide)? (?:memory|memories|scope|namespace|store|records?|notes?)|(?:another|other|every|all|each) (?:user|tenant|account|customer|patient)s?(?:['’]s?)? (?:memory|memories|scope|namespace|records?|notes?)|(?:user|tenant|org)-[a-z0-9]+(?:['’]s)? (?:memory|memories|scope|namespace|records?|notes?))`;

/**
 * A destination right after a negation ("never in the URL", "not to anyone") is a prohibition.
 * grant-structure.ts's AFFIRMED_ONLY is the same idea for the multilingual grants (destinations
 * read with grant-lexicon.ts's NEGATED_DESTINATION removed).
 */
const NOT_NEGATED = String.raw`(?<!\b(?:never|not|nor)\s{1,3}(?:(?:in|into|to|via|with|over)\s{1,3}(?:the\s{1,3}|an?\s{1,3})?)?)`;
/** A forbidden action ("never paste API keys into Slack") is a rule the user keeps, not an order. */
const NOT_FORBIDDEN = String.raw`(?<!\b(?:never|don't|do not|nor)\s{1,3})`;

/** A clause character not starting a negation or an alternative ("instead of mounting …", "never run …"). */
const UNNEGATED = String.raw`(?:(?!\b(?:instead|rather|not|never|without|avoid|don't|no)\b)[^.!?\n])`;

const rx = (s: string): RegExp => new RegExp(s, 'u');

export const AUTHORITY_RULES: readonly AuthorityRule[] = [
  // Direct override of the instructions the agent runs under.
  {
    id: 'override_instructions',
    reason: 'injection',
    pattern: rx(
      String.raw`\b(?:ignore|disregard|forget|override|overrule|bypass|abandon|discard|drop)\b${CLAUSE}{0,60}\b(?:instructions?|prompts?|rules|guidelines|guardrails|polic(?:y|ies)|directives?|constraints?|restrictions?|safeguards?|system message|programming)\b`,
    ),
  },
  {
    id: 'role_markers',
    reason: 'injection',
    pattern: rx(
      String.raw`(?:^|[.!?;]\s*)[\[<(]?\s*(?:system|developer)\s*(?:prompt|message|override|instructions?|note)?\s*[\]>):]|\bnew (?:system )?instructions?\s*:|\b(?:jailbreak|dan mode)\b|\b(?:you|your|the (?:assistant|agent|model|ai))\b[^.!?\n]{0,40}\bgod mode\b|\bgod mode\b[^.!?\n]{0,40}\b(?:you|your|assistant|agent|model|ai)\b|\breveal (?:your|the) (?:system prompt|hidden instructions|instructions)\b`,
    ),
  },
  // Identity swaps.
  {
    id: 'identity_you_are_now',
    reason: 'injection',
    pattern: rx(
      String.raw`\byou are (?:now|no longer|actually|really)\b|\byou(?:'re| are) an? (?:unrestricted|unfiltered|jailbroken|uncensored)\b|\bpretend (?:to be|you are)\b|\broleplay as\b`,
    ),
  },
  {
    id: 'identity_claim',
    reason: 'injection',
    pattern: rx(
      String.raw`\b(?:i am|i'm|this is) (?:(?:your|the system|the platform) (?:admin|administrator|operator|root|superuser|sysadmin|system owner)\b|(?:the|an?) (?:admin|administrator|operator|root|superuser|sysadmin|system owner)\b(?!\s+(?:of|for|at|in|on)\s+(?!(?:this|the|your) (?:system|platform|account|workspace|assistant|agent|tenant|org|organi[sz]ation|server|deployment)\b)))|\b(?:treat|consider|regard|recogni[sz]e|authenticate|authori[sz]e)\s+(?:me|this user|the user|the caller|them|this account|user-?[a-z0-9]+)\s+as\b`,
    ),
  },
  {
    id: 'identity_swap',
    reason: 'injection',
    pattern: rx(
      String.raw`\b(?:switch|change|swap)\s+(?:your|my|the user's|the caller's)\s+(?:identity|persona|role|user id|subject|tenant|organi[sz]ation)\b|\b(?:your|my|the user's|the caller's|user's) (?:identity|role|subject|user id|tenant) (?:is|becomes) now\b|\b(?:impersonate|log ?in as|sign ?in as|act on behalf of)\b|\bact as (?:the |an? )?(?:admin|administrator|root|system|operator|developer|another user|superuser|approver)\b|\bidentity is now\b`,
    ),
  },
  // MINJA-style bridging: one person's records "are now" another's.
  {
    id: 'bridge_stored_under',
    reason: 'injection',
    pattern: rx(
      String.raw`\b(?:records?|memor(?:y|ies)|data|notes?|entries|history|information|files?|details)\s+(?:of|for|about|belonging to)\s+${CLAUSE}{1,40}?\s+(?:are|is|were|was|have been|has been|will be)\s+(?:now\s+)?(?:stored|kept|saved|moved|filed|located|found|merged|linked|mapped)\s+(?:under|with|as|into)\b|\b(?:moved|transferred|merged|reassigned|mapped)\s+to\s+(?:the )?(?:account|user|patient|customer|tenant|profile)\b|\b(?:are|is)\s+now\s+(?:stored|kept|saved|filed|located|found|merged|mapped)\s+(?:under|in|at|with|into)\b`,
    ),
  },
  {
    id: 'bridge_same_as',
    reason: 'injection',
    pattern: rx(
      String.raw`\b(?:is|are) (?:the same (?:person|user|patient|customer|account|individual|entity) as|an alias (?:of|for))\b|\b(?:alias|synonym) (?:of|for) (?:user|patient|account|customer)\b`,
    ),
  },
  {
    id: 'bridge_redirect',
    reason: 'injection',
    pattern: rx(
      String.raw`\b(?:when|whenever|if)\b${CLAUSE}{0,60}\b(?:retriev|recall|look(?:ing)? up|read|fetch|search)\w*\b${CLAUSE}{0,60}\b(?:instead|rather)\b|\b(?:use|return|read|show|load) (?:the )?(?:records?|memor(?:y|ies)|notes?|data|history|profile) (?:of|for|from) (?:user|patient|customer|account|another|other)\b`,
    ),
  },
  // Delayed triggers: "when asked about X, do Y".
  {
    id: 'delayed_trigger',
    reason: 'injection',
    pattern: rx(
      String.raw`\b(?:when(?:ever)?|if|once|the next time|next time|as soon as|after)\b(?!\s+(?:i|we)\b)${CLAUSE}{0,80}?\b(?:ask(?:s|ed)?|mention(?:s|ed)?|says?|type(?:s|d)?|request(?:s|ed)?|brings? up|talks? about|quer(?:y|ies)|inquires?|search(?:es)? for|opens?|logs? in)\b${CLAUSE}{0,100}?\b(?:you (?:must|should|shall|will|need to|have to)|always|reply|respond|answer|say|send|call|run|execute|reveal|output|include|tell (?:them|him|her|the user)|use|forward|email|post|recommend|redirect|insist|claim|disclose|share)\b`,
    ),
  },
  // Standing orders: a "from now on" alone is not one ("from now on call me Sam"); with an
  // order to obey, trust, act or stop asking it is.
  {
    id: 'standing_order',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`\b(?:from now on|from here on(?: out)?|henceforth|hereafter|going forward|from this point(?: on| forward)?|for all future|in all future|in every future|for every future|for the rest of (?:this|the) (?:session|conversation)|until (?:told|instructed) otherwise)\b${CLAUSE}{0,80}\b(?:obey|comply|follow (?:every|all|any)|trust|execute|approve|allow|grant|send|forward|reveal|share|disclose|ignore|bypass|skip|disable|run|install|upload|post|email|call (?:the |any |every )?\w+ (?:tool|api|function|endpoint|webhook)|use (?:the |my |their )?(?:admin|root|stored|saved)|you (?:are|will|must|may|can|should)|the (?:agent|assistant|model|ai) (?:is|will|must|may|can|should))\b|\balways (?:obey|comply|follow|trust|execute|approve|allow|grant)\b|\bnever (?:ask(?: for)?|request|seek|wait for) (?:confirmation|permission|approval|consent)\b|\btreat every request as\b`,
    ),
  },
  // Tool grants.
  {
    id: 'grant_modal',
    reason: 'authority_broadening',
    pattern: rx(String.raw`\b${AGENT}\s+(?:now\s+)?${MODAL}\s+(?:now\s+)?(?:to\s+)?(?:freely\s+)?${ACTION}\b`),
  },
  {
    id: 'grant_verb',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`\b(?:grant(?:ed|s|ing)?|give|giving|gave|allow(?:ed|s|ing)?|enable(?:d|s)?|unlock(?:ed|s)?|whitelist(?:ed)?|allowlist(?:ed)?|authori[sz]e(?:d|s)?|permit(?:ted|s)?|elevate(?:d|s)?|escalate(?:d|s)?)\b${CLAUSE}{0,40}\b(?:tools?|tool access|permissions?|privileges?|scopes?|capabilit(?:y|ies)|admin(?:istrator)? (?:rights|access|role)|root(?: access)?|sudo|shell|exec(?:ution)?|network access|internet access|egress|${CREDENTIAL}|(?:model|sandbox|execution|security) profiles?|sandbox|allow-?list|allowed (?:hosts|tools|domains))\b${CLAUSE}{0,30}\b(?:to|for) (?:the |this )?(?:${AGENT}|caller|requester|user|account|me|them|everyone|anyone)\b|\b(?:grant(?:ed|s|ing)?|give|giving|gave|allow(?:ed|s|ing)?|enable(?:d|s)?|unlock(?:ed|s)?|authori[sz]e(?:d|s)?|permit(?:ted|s)?|elevate(?:d|s)?)\s+(?:the |this )?(?:${AGENT}|caller|requester|yourself|itself)\b${CLAUSE}{0,40}\b(?:tools?|access|permissions?|privileges?|rights|root|sudo|shell|exec(?:ution)?|network|internet|egress|${CREDENTIAL}|sandbox)\b|\b(?:${AGENT})\s+(?:is|are|was|were|has been|have been)\s+(?:now\s+)?(?:granted|given|allowed|permitted|authori[sz]ed|elevated)\b`,
    ),
  },
  {
    id: 'grant_allowlist',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`\badd\b[^!?\n]{0,60}\bto (?:the )?(?:allow-?list|allowed (?:hosts|tools|domains|destinations)|whitelist|trusted (?:hosts|domains|tools|destinations))\b`,
    ),
  },
  {
    id: 'tool_imperative',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`${IMP}(?:use|call|invoke|run|execute|trigger|launch|spawn)\s+${CLAUSE}{0,30}?\b(?:tool|function|command|shell|bash|terminal|script|plugin|api|endpoint|webhook|curl|wget|powershell|cmd)\b|\b(?:shell_exec|run_shell|exec_command|os\.system|subprocess\.|rm -rf /|nc -e|bash -c|powershell -)|\b(?:curl|wget)\b[^|\n]{0,200}\|\s*(?:sudo )?(?:ba|z)?sh\b`,
    ),
  },
  // Credentials.
  {
    id: 'credential_handling',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`${NOT_FORBIDDEN}\b(?:reveal|share|print|output|post|forward|email(?!\s+(?:password|passcode|pin)\b)|hand over|expose|export(?! (?:const|let|var|function|default|class|type|interface|async|enum)\b)|paste|leak|dump|exfiltrate|upload|read out|disclose|grab)\b${CLAUSE}{0,40}\b${CREDENTIAL}\b|\b(?:use|send|include|attach|give|append|fetch|retrieve|copy)\b${CLAUSE}{0,40}\b${CREDENTIAL}\b${CLAUSE}{0,60}${NOT_NEGATED}(?:${HOST}|\b(?:to|with) (?:anyone|anybody|whoever|everyone|them|the caller|the requester|a third party|an? (?:external|outside) )|\b(?:in|to|into|for|with) (?:every|each|all|any|the|your|outgoing|outbound) (?:outgoing |outbound )?(?:responses?|replies|reply|answers?|outputs?|messages?|requests?|calls?|urls?|links?)\b)`,
    ),
  },
  // Model and sandbox-profile changes, disabling controls.
  {
    id: 'model_profile_change',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`\b(?:switch|change|set|upgrade|downgrade|route|move|swap|select)\b${CLAUSE}{0,30}\b(?:(?:your|the) (?:model|llm|engine|backend model)|to (?:gpt|claude|gemini|llama|mistral|grok|o\d)[a-z0-9.-]*|model (?:to|=)|sandbox profile|execution profile|security profile|runtime profile|profile to|temperature (?:to|=))\b|\b(?:privileged|unrestricted|unsandboxed|unfiltered|uncensored|jailbroken|no-?sandbox|host-network) (?:mode|profile|sandbox|container|access|model|execution)\b|${IMP}run (?:in|as|with) (?:privileged|unsandboxed|root|host)\b`,
    ),
  },
  // Escapes from the sandbox: a profile, a privileged container, the host's network or Docker
  // socket ("use the 'privileged-gpu' sandbox profile with host networking", "mount
  // /var/run/docker.sock") — asked for, not described ("I run --privileged on my own laptop",
  // "use rootless mode instead of mounting docker.sock").
  {
    id: 'sandbox_escape',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`(?:${IMP}|\b${AGENT}\s+(?:should|must|will|shall|may|can|need to|has to|have to)\s+(?:always\s+)?)(?:use|run|start|launch|mount|enable|switch to|select|attach|expose|give|grant|add|bind)\b${UNNEGATED}{0,60}(?:\b(?:sandbox|security|execution|runtime|container|seccomp|apparmor) profiles?\b|docker\.sock\b|\/var\/run\/docker\b|\bprivileged(?:[ -][\w-]+)?(?:'|")? (?:mode|containers?|profiles?|sandbox|pods?)\b|\bhost (?:networking|network(?: mode)?|pid namespace|ipc)\b|--privileged\b|--(?:net|network|pid|ipc)[= ]host\b|\bcap_sys_admin\b|\b(?:seccomp|apparmor)[=:]unconfined\b)`,
    ),
  },
  {
    id: 'disable_controls',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`\b(?:disable|turn off|switch off|remove|bypass|escape|skip|circumvent|deactivate|stop)\b${CLAUSE}{0,30}\b(?:sandbox(?:ing)?|filters?|filtering|guardrails?|safety (?:checks?|filters?|rules|guidelines)|moderation|restrictions?|monitoring|logging|audit(?:ing| log)?|content checks?|approvals?|confirmations?|rate limits?|isolation)\b`,
    ),
  },
  // Network destinations.
  {
    id: 'network_destination',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`(?:${IMP}|\b${AGENT}\s+(?:should|must|will|shall|need to|has to|have to)\s+(?:always\s+)?)(?:send|post(?!\s+https?:\/\/)|put|upload|forward|exfiltrate|transmit|report|sync|mirror|copy|email|beacon|connect(?: to)?|call|fetch|download(?! link)|reach|contact|ping|submit|push|stream|log|cc|bcc)\b${CLAUSE}{0,80}${HOST}`,
    ),
  },
  {
    id: 'network_allow',
    reason: 'authority_broadening',
    pattern: rx(
      String.raw`${IMP}(?:allow|whitelist|allowlist|trust|permit|open|unblock)\b${CLAUSE}{0,60}${HOST}|\b(?:egress|outbound|network access) (?:to|for)\b${CLAUSE}{0,20}${HOST}${CLAUSE}{0,20}\b(?:is|are) (?:now )?(?:allowed|permitted|approved|open)\b`,
    ),
  },
  // Content that asks to write into or read from another scope.
  {
    id: 'cross_scope_content',
    reason: 'cross_scope',
    pattern: rx(
      String.raw`\b(?:store|save|write|copy|move|put|record|add|sync|replicate|share|publish)\b${CLAUSE}{0,40}\b(?:in|into|to|under|with|across)\b${CLAUSE}{0,20}${SCOPES}\b|\b(?:read|show|list|fetch|retrieve|return|reveal|dump|export|load)\b${CLAUSE}{0,30}\b(?:memor(?:y|ies)|records?|notes?|data|history)\b${CLAUSE}{0,20}\b(?:of|for|from|belonging to)\s+(?:user|tenant|org|account|customer|patient|another|other|all|every)\b`,
    ),
  },
];

export interface AuthorityVerdict {
  readonly reasons: readonly MemoryRejectionReason[];
  /** Ids of the rules that matched (fixed strings; safe for the audit log). */
  readonly ruleIds: readonly string[];
  /** Fixed codes of weaker signals when nothing matched (the write goes to approval). */
  readonly suspicions: readonly string[];
}

/**
 * The English rules above plus the multilingual grant structure (grant-structure.ts). Grants
 * reject; weaker signals come back as `suspicions` for the approval policy (step 5).
 */
export function applyAuthorityRules(views: readonly string[]): AuthorityVerdict {
  const reasons = new Set<MemoryRejectionReason>();
  const ruleIds: string[] = [];
  for (const rule of AUTHORITY_RULES) {
    if (views.some((v) => rule.pattern.test(v))) {
      reasons.add(rule.reason);
      ruleIds.push(rule.id);
    }
  }
  const structure = findGrants(views);
  for (const g of structure.grants) {
    reasons.add(g.reason);
    ruleIds.push(g.id);
  }
  return { reasons: [...reasons], ruleIds, suspicions: reasons.size > 0 ? [] : structure.suspicions };
}
