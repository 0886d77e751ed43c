/**
 * Passwords given where no label names them in prose: on a command line, in a connection file's
 * positional field, in code's auth tuple, in a CSV column. Each read marks only the value:
 * - a password flag: `curl -u user:PASS`, `sshpass -p PASS`, `mysql -pPASS`, `docker login -p
 *   PASS`, `--password=PASS`, `--secret-access-key PASS`, `--token PASS`;
 * - an environment assignment before a command whose name ends in a secret word
 *   (`PGPASSWORD='…' psql`, `MYSQL_PWD=…`);
 * - a `.pgpass` line (`host:port:db:user:password`);
 * - an auth tuple in code (`auth=("user", "PASS")`, `HTTPBasicAuth('user', 'PASS')`);
 * - a CSV whose header names a password column (a password-manager export).
 * References (`$PASS`, `${X}`) and placeholders are not values. Patterns are linear.
 */

import { isSecretReference } from './secret-keywords.js';

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
const AUTH_TUPLE =
  /\b(?:auth[ \t]*=[ \t]*\(|HTTPBasicAuth\(|HTTPDigestAuth\(|BasicAuth\()[ \t]*["'][^"'\n]{1,128}["'][ \t]*,[ \t]*["']([^"'\n]{3,256})["']/gu;

const placeholder = (v: string): boolean =>
  isSecretReference(v) ||
  /^(?:\*+|x+|\.+|changeme|password|secret|token|example|redacted|\[redacted\]|<[^>]*>|null|none)$/i.test(v);

/** Column positions of a CSV header that name a password; the rows below give their values. */
function csvPasswordRanges(text: string, out: Range[]): void {
  let at = 0;
  let column = -1;
  let width = 0;
  for (const line of text.split('\n').slice(0, 2000)) {
    const cells = line.split(',');
    if (column < 0) {
      const i = cells.findIndex((c) =>
        /^["']?(?:password|passwd|pass|pwd|passwort|mot de passe|contraseña|senha)["']?$/i.test(c.trim()),
      );
      if (i >= 0 && cells.length >= 2) [column, width] = [i, cells.length];
    } else if (cells.length === width) {
      const before = cells.slice(0, column).join(',').length + (column > 0 ? 1 : 0);
      const cell = cells[column]!;
      const v = cell.trim().replace(/^["']|["']$/g, '');
      if (v.length >= 3 && !placeholder(v)) {
        const start = at + before + cell.indexOf(v);
        out.push([start, start + v.length]);
      }
    } else if (line.trim() !== '') column = -1;
    at += line.length + 1;
  }
}

export function commandLineSecretRanges(text: string): Range[] {
  const out: Range[] = [];
  const push = (m: RegExpMatchArray): void => {
    const v = m[1];
    if (v === undefined || placeholder(v)) return;
    const start = (m.index ?? 0) + m[0].lastIndexOf(v);
    out.push([start, start + v.length]);
  };
  for (const re of [...FLAGS, ENV_ASSIGNMENT, PGPASS, AUTH_TUPLE]) for (const m of text.matchAll(re)) push(m);
  if (/(?:^|,)["']?(?:password|passwd|pass|pwd|passwort|mot de passe|contraseña|senha)["']?(?:,|$)/im.test(text)) {
    csvPasswordRanges(text, out);
  }
  return out;
}
