/**
 * Passwords given where no label names them in prose: on a command line, in a connection file's
 * positional field, in code's auth tuple, in a CSV column. Each read marks only the value:
 * - a password flag: `curl -u user:PASS`, `sshpass -p PASS`, `mysql -pPASS`, `docker login -p
 *   PASS`, `--password=PASS`, `--secret-access-key PASS`, `--token PASS`;
 * - an environment assignment before a command whose name ends in a secret word
 *   (`PGPASSWORD='…' psql`, `MYSQL_PWD=…`);
 * - a `.pgpass` line (`host:port:db:user:password`);
 * - a `.netrc` entry (`machine HOST login USER password PASS`, or `default …`), on one line or
 *   several: its password is one whatever it looks like, a plain word included;
 * - an auth tuple in code (`auth=("user", "PASS")`, `HTTPBasicAuth('user', 'PASS')`);
 * - a CSV whose header names a password column (a password-manager export), and markdown and
 *   aligned tables with such a column (table-secrets.ts reads all three).
 * References (`$PASS`, `${X}`) and placeholders are not values. Patterns are linear.
 */

import { isPlaceholderSecret } from './placeholder-secrets.js';
import { isSecretReference } from './secret-keywords.js';
import { tableSecretRanges } from './table-secrets.js';

type Range = readonly [number, number];

const VALUE = String.raw`["']?([^\s"'$<{][^\s"']{2,255})["']?`;
const FLAGS: readonly RegExp[] = [
  // -u/--user user:password on an HTTP client's command line (elsewhere -u is a user id: `docker run -u 1000:1000`).
  /\b(?:curl|wget|http|https|httpie|xh)\b[^\n|;&]{0,200}?(?<![\w-])(?:-u|--user|-a|--auth)[ =]["']?[^\s:"'$]{1,128}:([^\s"'$<{][^\s"']{2,255})/gu,
  // sshpass -p, docker/podman/helm login -p, and any --password/--passwd/--pass flag.
  new RegExp(String.raw`\bsshpass[ \t]+-p[ \t]*${VALUE}`, 'gu'),
  new RegExp(
    String.raw`\b(?:docker|podman|helm|oras|skopeo|buildah|nerdctl)[ \t]+(?:registry[ \t]+)?login\b[^\n|;&]{0,200}?[ \t](?:-p)[ \t]+${VALUE}`,
    'gu',
  ),
  new RegExp(
    String.raw`(?<![\w-])--(?:password|passwd|pass|db-password|secret-access-key|secret-key|client-secret|api-key|token|auth-token|access-token)(?:=|[ \t]+)${VALUE}`,
    'gu',
  ),
  // MySQL's -pPASSWORD: the value joined to the flag, on a mysql-family command line.
  /\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?[ \t]-p([^\s"'$<{-][^\s"']{2,255})/gu,
];
/** NAME=value where the name ends in a secret word, not a reference to one (`*_FILE`). */
const ENV_ASSIGNMENT =
  /(?<![\w$])(?:export[ \t]+)?(?!(?:OLD)?PWD=)[A-Z][A-Z0-9_]{0,40}(?:PASSWORD|PASSWD|PWD|PASS|SECRET|TOKEN|API_KEY|APIKEY)=["']?([^\s"'$<{][^\s"']{2,255})/gu;
/** hostname:port:database:username:password, alone on its line. */
const PGPASS = /^[^\s:#]{1,255}:(?:\d{1,5}|\*):[^\s:]{1,128}:[^\s:]{1,128}:(\S{3,256})$/gmu;
/**
 * A .netrc entry at the start of a line: `machine HOST` or `default`, its login and up to two
 * account/port tokens (the login is required, so prose like "the default password manager" or
 * "machine shop password changed" is not one), then `password PASS`.
 */
const NETRC =
  /^[ \t]*(?:machine[ \t]+[^\s\u0000]{1,255}(?:\s{1,8}(?:account|port)[ \t]+[^\s\u0000]{1,255}){0,2}\s{1,8}login[ \t]+[^\s\u0000]{1,255}(?:\s{1,8}(?:account|port)[ \t]+[^\s\u0000]{1,255}){0,2}|default(?:\s{1,8}(?:account|port)[ \t]+[^\s\u0000]{1,255}){0,2}\s{1,8}login[ \t]+[^\s\u0000]{1,255}(?:\s{1,8}(?:account|port)[ \t]+[^\s\u0000]{1,255}){0,2})\s{1,8}password[ \t]+([^\s\u0000]{3,256})/gmu;
const AUTH_TUPLE =
  /\b(?:auth[ \t]*=[ \t]*\(|HTTPBasicAuth\(|HTTPDigestAuth\(|BasicAuth\()[ \t]*["'][^"'\n]{1,128}["'][ \t]*,[ \t]*["']([^"'\n]{3,256})["']/gu;

const placeholder = (v: string): boolean =>
  isSecretReference(v) ||
  isPlaceholderSecret(v) ||
  /^(?:\*+|x+|\.+|changeme|password|secret|token|example|redacted|\[redacted\]|<[^>]*>|null|none)$/i.test(v);

export function commandLineSecretRanges(text: string): Range[] {
  const out: Range[] = [];
  const push = (m: RegExpMatchArray): void => {
    const v = m[1];
    if (v === undefined || placeholder(v)) return;
    const start = (m.index ?? 0) + m[0].lastIndexOf(v);
    out.push([start, start + v.length]);
  };
  for (const re of [...FLAGS, ENV_ASSIGNMENT, PGPASS, NETRC, AUTH_TUPLE]) for (const m of text.matchAll(re)) push(m);
  // CSV, markdown and aligned tables with a password column: one reader for the three forms.
  out.push(...tableSecretRanges(text));
  return out;
}
