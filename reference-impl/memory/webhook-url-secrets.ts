/**
 * Incoming-webhook URLs whose path or query is the credential: anyone holding the URL can post
 * as the integration. secretlint's preset and secret-provider-rules.ts already take Slack's
 * `hooks.slack.com/services/…` and `/workflows/…`; this covers the other chat and automation
 * services:
 * - Discord: `discord.com` / `discordapp.com` (and `ptb.`/`canary.`) `/api[/vN]/webhooks/<id>/<token>`;
 * - Microsoft Teams: `<tenant>.webhook.office.com/webhookb2/<guid>@<guid>/IncomingWebhook/<hex>/<guid>[/<sig>]`
 *   and the older `outlook.office.com/webhook/…`;
 * - Google Chat: `chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…`;
 * - Mattermost and Rocket.Chat: `/hooks/<token>` and `/hooks/<id>/<token>` on any host;
 * - Zapier: `hooks.zapier.com/hooks/catch/<n>/<token>`; IFTTT: `maker.ifttt.com/trigger/<event>/with/key/<key>`;
 * - Slack workflow triggers: `hooks.slack.com/triggers/<team>/<n>/<hex>`.
 * Each range marks the token part; redaction widens it to the whole URL, which is the capability
 * (the host and path alone would still say which service, so nothing of the note is lost but the
 * secret). A link without the token (`https://discord.com/channels/…`, `…/api/webhooks`) stays.
 * Patterns are linear: bounded classes, no nested quantifiers.
 */

type Range = readonly [number, number];

const DISCORD =
  /\bhttps?:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d{1,2})?\/webhooks\/\d{15,21}\/([A-Za-z0-9_-]{40,100})/giu;
const TEAMS =
  /\bhttps?:\/\/[a-z0-9-]{1,63}\.(?:webhook\.office|outlook\.office(?:365)?)\.com\/webhook(?:b2)?\/[0-9a-f-]{36}@[0-9a-f-]{36}\/IncomingWebhook\/([0-9a-f]{32}\/[0-9a-f-]{36}(?:\/[A-Za-z0-9_-]{16,128})?)/giu;
const GOOGLE_CHAT =
  /\bhttps?:\/\/chat\.googleapis\.com\/v1\/spaces\/[A-Za-z0-9_-]{1,64}\/messages\?[^\s"'<>]{0,600}/giu;
const QUERY_SECRET = /(?<=[?&])(?:key|token)=([^\s&#"'<>]{8,512})/giu;
const ZAPIER = /\bhttps?:\/\/hooks\.zapier\.com\/hooks\/catch\/\d{1,12}\/([A-Za-z0-9]{5,64})/giu;
const IFTTT =
  /\bhttps?:\/\/maker\.ifttt\.com\/(?:trigger\/[^\s/]{1,100}\/(?:json\/)?with\/key|use)\/([A-Za-z0-9_-]{16,64})/giu;
const SLACK_TRIGGER = /\bhttps?:\/\/hooks\.slack\.com\/triggers\/T[A-Z0-9]{6,12}\/\d{6,20}\/([0-9a-f]{32})/giu;
/** `/hooks/<token>` (Mattermost) or `/hooks/<id>/<token>` (Rocket.Chat) on a self-hosted server. */
const CHAT_HOOK =
  /\bhttps?:\/\/(?!hooks\.(?:slack|zapier)\.com)[a-z0-9.-]{1,253}(?::\d{1,5})?\/(?:[^\s/?#]{1,64}\/){0,3}hooks\/([A-Za-z0-9]{16,64}(?:\/[A-Za-z0-9_-]{20,128})?)(?![A-Za-z0-9_-])/giu;

/** Random-looking: letters and digits both (a path of words, `/hooks/pre-receive`, is none). */
const randomToken = (t: string): boolean => /\d/.test(t) && /[A-Za-z]/.test(t);

export function webhookSecretRanges(text: string): Range[] {
  if (!/https?:\/\//i.test(text)) return [];
  const out: Range[] = [];
  const push = (m: RegExpMatchArray): void => {
    const v = m[1] ?? '';
    const start = (m.index ?? 0) + m[0].length - v.length;
    out.push([start, start + v.length]);
  };
  for (const re of [DISCORD, TEAMS, ZAPIER, IFTTT, SLACK_TRIGGER]) for (const m of text.matchAll(re)) push(m);
  for (const m of text.matchAll(CHAT_HOOK)) if (randomToken(m[1] ?? '')) push(m);
  for (const m of text.matchAll(GOOGLE_CHAT)) {
    const at = m.index ?? 0;
    for (const q of m[0].matchAll(QUERY_SECRET)) {
      const v = q[1] ?? '';
      const start = at + (q.index ?? 0) + q[0].length - v.length;
      out.push([start, start + v.length]);
    }
  }
  return out;
}
