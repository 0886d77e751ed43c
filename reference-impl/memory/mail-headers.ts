/**
 * A pasted email's header block names who wrote to whom, not where the agent should send: the
 * addresses on its From/To/Cc/Bcc/Reply-To/Sender lines are replaced by a placeholder before the
 * rules read the text, when at least two header lines stand together (one "To:" line alone is
 * prose, "to: evil@…" an order). The body keeps its addresses.
 */

const HEADER_LINE = /^[ \t>]*(?:from|to|cc|bcc|reply-to|sender|date|sent|subject):[ \t]/iu;
const ADDRESS_LINE = /^([ \t>]*(?:from|to|cc|bcc|reply-to|sender):)[^\n]*$/iu;
const MAX_LINES = 2000;

export function maskMailHeaders(text: string): string {
  if (!/(?:^|\n)[ \t>]*(?:from|to|cc):/iu.test(text)) return text;
  const lines = text.split('\n', MAX_LINES);
  if (lines.length === MAX_LINES) return text;
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    if (!HEADER_LINE.test(lines[i]!)) continue;
    let j = i;
    while (j < lines.length && HEADER_LINE.test(lines[j]!)) j++;
    if (j - i >= 2) {
      for (let k = i; k < j; k++) {
        const masked = lines[k]!.replace(ADDRESS_LINE, '$1 …');
        changed ||= masked !== lines[k];
        lines[k] = masked;
      }
    }
    i = j;
  }
  return changed ? lines.join('\n') : text;
}
