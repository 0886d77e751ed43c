/**
 * Secrets in a table column: a header cell names a secret column (Password, Passwd, Pwd, Pass,
 * Passphrase, Secret, Token, API key, PIN, Kennwort/Passwort, mot de passe, contraseña, senha,
 * пароль — alone or after one qualifying word, "Admin password", "Bot token"), and every data
 * cell below it in that column is the secret, whatever it looks like, unless it says where the
 * secret is or that there is none ("(SSO)", "n/a", "-", "—", "see vault", "<…>", "***",
 * "[REDACTED]", a placeholder word). Three table forms, one reader:
 * - CSV (a password-manager export): cells split on commas;
 * - a markdown table: `| a | b |` rows, the header followed by a `|---|---|` separator row;
 * - a plain-text aligned table: columns separated by a tab or two spaces or more, every label
 *   of the header a short name, the rows as wide as the header.
 * Patterns are linear; at most 2,000 lines are read.
 */
import { isPlaceholderSecret } from './placeholder-secrets.js';
import { isSecretReference } from './secret-keywords.js';

type Range = readonly [number, number];
type Cell = readonly [number, number];

const SECRET_COLUMN_WORD =
  'password|passwd|passwort|kennwort|pwd|pw|pass|passphrase|passcode|secret|client secret|secret key|token|api[ _-]?key|apikey|access key|pin|pin code|mot de passe|mdp|contraseña|contrasena|senha|пароль|密码|パスワード';
/** A header cell naming a secret column, markup and quotes aside. */
const SECRET_COLUMN = new RegExp(
  String.raw`^(?:(?!(?:input|output|max|min|total|prompt|completion|context|per|count)[ _])[\p{L}-]{2,20}[ _])?(?:${SECRET_COLUMN_WORD})$`,
  'iu',
);
/** "Pass" beside "Fail" is a test result, not a password. */
const RESULT_COLUMN = /^(?:fail|failed|failures|skip|skipped|status|result|errors?)$/i;
/** The CSV reader's header words (unchanged: a CSV has no qualifying words before them). */
const CSV_COLUMN = new RegExp(`^(?:${SECRET_COLUMN_WORD})$`, 'iu');

const unmark = (cell: string): string =>
  cell
    .trim()
    .replace(/^(?:\*\*|__|[`"'*_])+|(?:\*\*|__|[`"'*_])+$/g, '')
    .trim();

/** A cell that holds no secret: empty, a dash, n/a, a note in parentheses, a pointer, a placeholder. */
function notSecretCell(v: string): boolean {
  return (
    v.length < 3 ||
    /^[-—–:=.\s]+$/u.test(v) ||
    /^\(.*\)$|^\[.*\]$|^<.*>$/u.test(v) ||
    /^(?:n\/?a|none|null|nil|tbd|tba|unknown|sso|oauth|saml|ldap|same|same as above|yes|no|true|false|set|unset|required|optional|✓|✔|✗|✘|❌)$/iu.test(
      v,
    ) ||
    /^(?:see|in|via|ask|from|stored in|check|use|kept in|siehe|voir|ver|ver el)\s/iu.test(v) ||
    isPlaceholderSecret(v) ||
    isSecretReference(v)
  );
}

/** Cells of a line split on `sep` (a global regex of separators), as [start, end) in the line. */
function splitCells(line: string, sep: RegExp): Cell[] {
  const cells: Cell[] = [];
  let from = 0;
  for (const m of line.matchAll(sep)) {
    cells.push([from, m.index ?? 0]);
    from = (m.index ?? 0) + m[0].length;
  }
  cells.push([from, line.length]);
  return cells;
}

const csvCells = (line: string): Cell[] => splitCells(line, /,/g);
/** A markdown row's cells, without the empty ones its outer pipes make. */
function pipeCells(line: string): Cell[] {
  if (!line.includes('|')) return [];
  const cells = splitCells(line, /(?<!\\)\|/g);
  if (cells.length > 0 && line.slice(...cells[0]!).trim() === '') cells.shift();
  if (cells.length > 0 && line.slice(...cells[cells.length - 1]!).trim() === '') cells.pop();
  return cells;
}
/** An aligned row's cells: runs of text between a tab or two spaces or more (indentation aside). */
function alignedCells(line: string): Cell[] {
  const lead = line.length - line.trimStart().length;
  const body = line.trimEnd();
  if (body.length <= lead) return [];
  return splitCells(body.slice(lead), /\t+[ \t]*| {2,}\t*[ \t]*/g).map(([s, e]) => [s + lead, e + lead] as const);
}
const MARKDOWN_SEPARATOR =
  /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$|^[ \t]*\|[ \t]*:?-{3,}:?[ \t]*\|[ \t]*$/u;
const ALIGNED_LABEL = /^[\p{L}][\p{L}\p{N} _./()#-]{0,30}$/u;

interface TableForm {
  readonly cells: (line: string) => Cell[];
  /** Whether `cells` of `line` (followed by `next`) is this form's header. */
  readonly header: (line: string, cells: Cell[], next: string) => boolean;
  readonly isColumn: (label: string) => boolean;
  /** Whether a blank line ends the table (a CSV export keeps going). */
  readonly blankEnds: boolean;
}

const FORMS: readonly TableForm[] = [
  { cells: csvCells, header: () => true, isColumn: (l) => CSV_COLUMN.test(l), blankEnds: false },
  {
    cells: pipeCells,
    header: (_line, _cells, next) => MARKDOWN_SEPARATOR.test(next),
    isColumn: (l) => SECRET_COLUMN.test(l),
    blankEnds: true,
  },
  {
    cells: alignedCells,
    header: (line, cells) => !line.includes('|') && cells.every(([s, e]) => ALIGNED_LABEL.test(line.slice(s, e))),
    isColumn: (l) => SECRET_COLUMN.test(l),
    blankEnds: true,
  },
];

function formRanges(lines: readonly string[], form: TableForm, out: Range[]): void {
  let at = 0;
  let column = -1;
  let width = 0;
  lines.forEach((line, n) => {
    const cells = form.cells(line);
    if (column >= 0 && cells.length === width) {
      const [s, e] = cells[column]!;
      const v = unmark(line.slice(s, e));
      if (!notSecretCell(v)) {
        const start = at + s + line.slice(s, e).indexOf(v);
        out.push([start, start + v.length]);
      }
    } else if (column >= 0 && (line.trim() !== '' || form.blankEnds)) column = -1;
    if (column < 0 && cells.length >= 2 && form.header(line, cells, lines[n + 1] ?? '')) {
      const labels = cells.map(([s, e]) => unmark(line.slice(s, e)).replace(/[ \t]+/g, ' '));
      const results = labels.some((l) => RESULT_COLUMN.test(l));
      const i = labels.findIndex((l) => form.isColumn(l) && !(results && /^pass$/i.test(l)));
      if (i >= 0) [column, width] = [i, cells.length];
    }
    at += line.length + 1;
  });
}

/** Whether a text may hold a table with a secret column (a cheap gate before reading lines). */
const MAY_HAVE_COLUMN = new RegExp(`(?:${SECRET_COLUMN_WORD})`, 'iu');

export function tableSecretRanges(text: string): Range[] {
  if (!MAY_HAVE_COLUMN.test(text)) return [];
  const out: Range[] = [];
  const lines = text.split('\n').slice(0, 2000);
  for (const form of FORMS) formRanges(lines, form, out);
  return out;
}
