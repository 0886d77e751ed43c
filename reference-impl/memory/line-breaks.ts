/**
 * Line breaks as line-reading rules expect them. A reader (YAML, a chat renderer, Python's
 * splitlines, a model) takes a lone CR, U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR as
 * line breaks too; rules written against `\n` would see one long line. Each becomes `\n`, one
 * character for one, so offsets found in the result are offsets in the original (CRLF stays:
 * its `\n` already ends the line).
 */
const OTHER_LINE_BREAK = /\r(?!\n)|[\u2028\u2029]/g;

export function withLineFeeds(text: string): string {
  return text.replace(OTHER_LINE_BREAK, '\n');
}
