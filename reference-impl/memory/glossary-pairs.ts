/**
 * A vocabulary list is material, not an instruction: "vergessen = to forget, Anweisung =
 * instruction, ignorieren = to ignore", "「無視する」は to ignore、「指示」は instruction". A line
 * that is mostly three or more short term–gloss pairs has each pair replaced by a placeholder
 * before the rules read it, so a word list of attack words is not read as an attack. Pairs are
 * two words a side at most: a gloss long enough to be an order is no gloss.
 */

const WORD = String.raw`[\p{L}\p{M}'’-]{1,24}`;
const SIDE = String.raw`${WORD}(?:[ \t]${WORD})?`;
const PAIR = new RegExp(
  String.raw`(?<![\p{L}\p{M}])${SIDE}[ \t]*(?:=|＝|→|->|⇒)[ \t]*${SIDE}(?![\p{L}\p{M}])|「[^」\n]{1,16}」[ \t]*(?:は|=|＝|:|：)[ \t]*(?:${SIDE}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{1,8})(?![\p{L}\p{M}])`,
  'gu',
);
const MIN_PAIRS = 3;
/** Share of a line's letters the pairs must hold. */
const MOSTLY = 0.6;
const MAX_LINE = 4000;

const letters = (s: string): number => s.match(/[\p{L}\p{M}]/gu)?.length ?? 0;

export function maskGlossaryPairs(text: string): string {
  if (!/[=＝→⇒」]/u.test(text)) return text;
  return text
    .split('\n')
    .map((line) => {
      if (line.length > MAX_LINE) return line;
      const pairs = line.match(PAIR);
      if (!pairs || pairs.length < MIN_PAIRS) return line;
      const inPairs = pairs.reduce((n, p) => n + letters(p), 0);
      return inPairs >= MOSTLY * letters(line) ? line.replace(PAIR, ' … ') : line;
    })
    .join('\n');
}
