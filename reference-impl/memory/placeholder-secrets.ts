/**
 * Step 4a's precision check, applied to every layer's finding before it is redacted: a value
 * that is literally a placeholder is no secret. `.env.example` text, docs and templates write
 * `postgres://USER:PASSWORD@localhost/dev`, `API_TOKEN=changeme`, `password: <password>`,
 * `%(password)s` or `YOUR_PASSWORD_HERE`; redacting those loses the note's meaning and protects
 * nothing. Only exact placeholder words and template shapes count — a value that merely contains
 * one ("password123", "changeme!2024") is still a secret.
 */

type Range = readonly [number, number];

/**
 * Words that stand for a credential rather than being one (compared lower-cased, `-` as `_`):
 * also a template's description of the value, `your-stripe-secret-key`, `<x>_api_key_here`,
 * `replace-with-your-token` (a few words between the lead and the credential word).
 */
const PLACEHOLDER_WORD =
  /^(?:password|passwd|pass|pwd|passphrase|secret|token|api_?key|changeme|change_?me|changeit|example|dummy|placeholder|redacted|(?:your|my|the)_?(?:password|passwd|pass|pwd|secret|token|api_?key|key)(?:_?here)?|(?:enter|insert|put)_?(?:your_?)?(?:password|secret|token|api_?key)(?:_?here)?|replace_?me|fill_?me_?in|(?:your|enter|insert|put|paste|add|replace_with)_(?:your_)?(?:[a-z][a-z0-9]{0,19}_){1,4}(?:password|passwd|pass|pwd|passphrase|secret|token|key|credentials?)(?:_here)?|(?:[a-z][a-z0-9]{0,19}_){1,4}(?:password|passwd|pass|pwd|passphrase|secret|token|key|credentials?)_here)$/;

/** Template and mask shapes: `xxx`, `***`, `<password>`, `{password}`, `{{ x }}`, `${VAR}`, `%(password)s`, `%s`. */
const PLACEHOLDER_SHAPE =
  /^(?:x{3,}|X{3,}|\*{3,}|\.{3,}|•{3,}|<[^<>\n]{1,60}>|\{[A-Za-z_][A-Za-z_ .:-]{0,59}\}|\{\{[^{}\n]{1,60}\}\}|\$\{[^{}\n]{1,60}\}|%\([\w.-]{1,60}\)[sdr]|%[sd]|\[redacted\])$/i;
/** `$DB_PASSWORD`: an environment variable is upper case (a `$ecret9` password is not one). */
const ENV_VARIABLE = /^\$[A-Z_][A-Z0-9_]{0,60}$/;

/** Whether a value is literally a placeholder for a credential. */
export function isPlaceholderSecret(value: string): boolean {
  // Quotes around it and the sentence's punctuation after it are not part of the value.
  const trimmed = value.trim();
  const v = (trimmed.replace(/[.,;:!?)]+$/, '') || trimmed).replace(/^["'`]|["'`]$/g, '');
  if (v.length === 0 || v.length > 64) return v.length === 0;
  return PLACEHOLDER_SHAPE.test(v) || ENV_VARIABLE.test(v) || PLACEHOLDER_WORD.test(v.toLowerCase().replace(/-/g, '_'));
}

/** What ends a value on either side: space, a quote, an assignment or a list separator. */
const VALUE_EDGE = /[\s"'`=:,;<>()[\]{}\u0000]/;

/** `scheme://user:password@` — the credential part of a URL. */
const URL_USERINFO = /^[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{0,128}:([^\s@/]{0,256})@/i;

/**
 * Whether a finding is a placeholder: its text is a placeholder word or shape, or it is a URL
 * whose only credential, the userinfo password, is one (secretlint's database-URL rule reports
 * the whole URL). Any other secret in such a URL is its own finding and widens to the URL anyway.
 */
export function isPlaceholderRange(text: string, [s, e]: Range): boolean {
  const found = text.slice(s, e);
  if (isPlaceholderSecret(found)) return true;
  // A finding inside a placeholder ("ur-mailer-api-key" read from `KEY=your-mailer-api-key`) is
  // part of it: the whole value, up to the separators around it, decides.
  let [from, to] = [s, e];
  while (from > 0 && from > s - 64 && !VALUE_EDGE.test(text[from - 1] ?? ' ')) from--;
  while (to < text.length && to < e + 64 && !VALUE_EDGE.test(text[to] ?? ' ')) to++;
  if ((from < s || to > e) && isPlaceholderSecret(text.slice(from, to))) return true;
  const url = URL_USERINFO.exec(found.replace(/^["'`]/, ''));
  return url !== null && isPlaceholderSecret(url[1] ?? '');
}
