/**
 * Step 4a, layer 2: token shapes of providers secretlint's packages don't cover. The provider
 * list follows gitleaks' default rule collection (config/gitleaks.toml, v8), the broadest kept
 * list of secret formats; the expressions are our own, written from each provider's published
 * token format. Every pattern is linear (a literal prefix, then one bounded character class), so
 * no input can make it backtrack.
 */

export interface ProviderRule {
  readonly id: string;
  /** Global, unanchored; the whole match is the secret unless `group` names a capture. */
  readonly pattern: RegExp;
  readonly group?: number;
}

const r = (id: string, source: string, flags = 'g', group?: number): ProviderRule => ({
  id,
  pattern: new RegExp(source, flags),
  ...(group !== undefined ? { group } : {}),
});
// A token must not run on into more token characters (so a prefix inside a word is not a hit).
const END = `(?![A-Za-z0-9_-])`;
const B = `(?<![A-Za-z0-9_-])`;

export const PROVIDER_RULES: readonly ProviderRule[] = [
  r('stripe', `${B}(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,247}${END}`),
  r('stripe-webhook', `${B}whsec_[A-Za-z0-9]{24,64}${END}`),
  // An AWS key id written beside its secret ("AKIA… / wJalr…"): the 40 characters after it are the secret key.
  r(
    'aws-key-pair',
    String.raw`(?<=${B}(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}[ \t]{0,3}[:/|,;][ \t]{0,3})[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])`,
  ),
  r('gcp-api-key', `${B}AIza[0-9A-Za-z_-]{35}${END}`),
  r('gcp-oauth-secret', `${B}GOCSPX-[0-9A-Za-z_-]{28}${END}`),
  r('jwt', String.raw`${B}eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{16,2048}`),
  r('twilio-key', `${B}(?:SK|AC)[0-9a-fA-F]{32}${END}`),
  r('sendgrid', String.raw`${B}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}${END}`),
  r('sendinblue', `${B}xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}${END}`),
  r('gitlab', `${B}gl(?:pat|dt|ptt|rt|soat|cbt|imt|agent|oas)-[0-9A-Za-z_-]{20,64}${END}`),
  r('github', `${B}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})${END}`),
  r('huggingface', `${B}hf_[A-Za-z0-9]{30,40}${END}`),
  r('anthropic', String.raw`${B}sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,120}${END}`),
  r('openai', `${B}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200}${END}`),
  r('digitalocean', `${B}do[opr]_v1_[a-f0-9]{64}${END}`),
  r('shopify', `${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${END}`),
  r('slack', `${B}xox[abposre]-[0-9A-Za-z-]{10,250}${END}`),
  r('slack-webhook', String.raw`hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9+/]{43,56}`),
  r('vault', String.raw`${B}hv[sbr]\.[A-Za-z0-9_-]{24,300}${END}`),
  r('age', `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`),
  r('npm', `${B}npm_[A-Za-z0-9]{36}${END}`),
  r('pypi', `${B}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}`),
  r('rubygems', `${B}rubygems_[a-f0-9]{48}${END}`),
  r('databricks', String.raw`${B}dapi[a-f0-9]{32}(?:-\d)?${END}`),
  r('doppler', String.raw`${B}dp\.pt\.[A-Za-z0-9]{43}${END}`),
  r('linear', `${B}lin_(?:api|oauth)_[A-Za-z0-9]{40}${END}`),
  r('notion', `${B}(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,50})${END}`),
  r('postman', `${B}PMAK-[a-f0-9]{24}-[a-f0-9]{34}${END}`),
  r('newrelic', `${B}NR(?:AK|AA|II|JS)-[A-Za-z0-9]{27}${END}`),
  r('sentry', `${B}sntr[ysu]_[A-Za-z0-9_=+/-]{40,300}`),
  r('grafana', `${B}(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`),
  r('pulumi', `${B}pul-[a-f0-9]{40}${END}`),
  r('terraform', String.raw`${B}[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`),
  r('flyio', `${B}fo1_[A-Za-z0-9_-]{43}${END}`),
  r('supabase', `${B}sbp_[a-f0-9]{40}${END}`),
  r('planetscale', `${B}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,64}`),
  r('square', `${B}(?:sq0atp|sq0csp|EAAA)[0-9A-Za-z_-]{22,60}${END}`),
  r('mailgun', `${B}key-[a-f0-9]{32}${END}`),
  r('mailchimp', String.raw`${B}[a-f0-9]{32}-us\d{1,2}${END}`),
  r('dropbox', String.raw`${B}sl\.[A-Za-z0-9_-]{130,160}`),
  r('facebook', `${B}EAA[A-Za-z0-9]{100,300}${END}`),
  r('telegram', String.raw`${B}\d{8,10}:AA[A-Za-z0-9_-]{33}${END}`),
  r('discord', String.raw`${B}[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}${END}`),
  r('alibaba', `${B}LTAI[A-Za-z0-9]{20}${END}`),
  r('atlassian', `${B}ATATT3[A-Za-z0-9_=-]{180,200}`),
  r('azure-ad-secret', String.raw`${B}[A-Za-z0-9_.-]{3}\dQ~[A-Za-z0-9_.~-]{31,34}${END}`),
  r('okta', `${B}00[A-Za-z0-9_-]{40}${END}`, 'g'),
  r('easypost', `${B}EZ[AT]K[A-Za-z0-9]{54}${END}`),
  r('shippo', `${B}shippo_(?:live|test)_[a-f0-9]{40}${END}`),
  r('lob', `${B}(?:live|test)_(?:pub_)?[a-f0-9]{31,35}${END}`),
  r('flutterwave', `${B}FLW(?:SECK|PUBK)(?:_TEST)?-[a-hA-H0-9]{32}-X${END}`),
  r('prefect', `${B}pnu_[A-Za-z0-9]{36}${END}`),
  r('readme', `${B}rdme_[a-z0-9]{70}${END}`),
  r('scalingo', `${B}tk-us-[A-Za-z0-9_-]{48}${END}`),
  r('dynatrace', String.raw`${B}dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}${END}`),
  r('frameio', `${B}fio-u-[A-Za-z0-9_=-]{64}${END}`),
  r('adafruit-like-key', `${B}aio_[A-Za-z0-9]{28}${END}`),
  r('harness', String.raw`${B}(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}${END}`),
  r('1password', `${B}ops_eyJ[A-Za-z0-9+/]{250,}={0,3}`),
  r(
    'private-key-block',
    String.raw`-----BEGIN[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----[^\u0000]{0,16384}?-----END[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----`,
  ),
];

// All rules in one pass (one alternation): a write pays one scan, not one per provider.
const ANY_PROVIDER = new RegExp(PROVIDER_RULES.map((r) => `(?:${r.pattern.source})`).join('|'), 'g');

/** Character ranges of provider-shaped secrets in `text`. */
export function providerSecretRanges(text: string): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  for (const m of text.matchAll(ANY_PROVIDER)) {
    const start = m.index ?? 0;
    out.push([start, start + m[0].length]);
  }
  return out;
}
