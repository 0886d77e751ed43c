/**
 * Text from a target (error messages, names, annotations) made safe for a terminal: a hostile
 * target must not clear the screen, move the cursor, set the title, hide text or reorder it to
 * fake the verdict. Control characters (C0 but newline, DEL, C1) and bidi controls become
 * visible escapes (`\x1b`, `\u202e`), so an escape sequence is shown, never run; and each
 * string is bounded in length and lines.
 */

/** C0 but LF and TAB, DEL, C1; bidi embeddings/overrides/isolates and marks; line/paragraph separators. */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

export const TERMINAL_TEXT_MAX_CHARS = 4000;
export const TERMINAL_TEXT_MAX_LINES = 40;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function terminalText(
  s: string,
  limits: { readonly maxChars?: number; readonly maxLines?: number } = {},
): string {
  const maxChars = limits.maxChars ?? TERMINAL_TEXT_MAX_CHARS;
  const maxLines = limits.maxLines ?? TERMINAL_TEXT_MAX_LINES;
  // Bound before escaping (escaping only lengthens), then again after, on whole characters.
  let text = String(s);
  let cut = 0;
  if (text.length > maxChars) {
    cut = text.length - maxChars;
    text = text.slice(0, maxChars);
  }
  text = text.replace(UNSAFE, visible).replace(/\t/g, '  ');
  const lines = text.split('\n');
  if (lines.length > maxLines) {
    text = `${lines.slice(0, maxLines).join('\n')}\n… ${lines.length - maxLines} more lines`;
  }
  return cut > 0 ? `${text}… (${cut} more characters)` : text;
}

/** One line of target text (a name, a title): no line breaks at all. */
export function terminalLine(s: string, maxChars = 300): string {
  return terminalText(String(s).replace(/\r?\n/g, ' '), { maxChars, maxLines: 1 });
}
