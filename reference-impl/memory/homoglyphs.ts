/**
 * Confusable letters folded to the Latin letter they imitate before rules match (a subset of
 * Unicode's confusables.txt: Cyrillic, Greek, Armenian and IPA lookalikes of a–z). NFKC has
 * already folded full-width and mathematical alphanumerics by the time this runs.
 */
const GROUPS: Readonly<Record<string, string>> = {
  a: 'аαɑ⍺ӓ',
  b: 'ЬƅᏏ',
  c: 'сϲςⅽᴄ',
  d: 'ԁⅾ',
  e: 'еεҽ℮ё',
  g: 'ɡցǥ',
  h: 'һհ',
  i: 'іιɩⅰ¡ı',
  j: 'јϳ',
  k: 'κкᴋ',
  l: 'ⅼǀӏ|',
  m: 'мⅿ',
  n: 'ոп',
  o: 'оοօ০๐ᴏσ',
  p: 'рρ⍴',
  q: 'ԛ',
  r: 'гᴦ',
  s: 'ѕꜱ',
  t: 'тτ',
  u: 'υսᴜ',
  v: 'νѵᴠ',
  w: 'ԝѡᴡ',
  x: 'хχ',
  y: 'уγү',
  z: 'ᴢ',
  A: 'АΑ',
  B: 'ВΒ',
  C: 'СϹ',
  E: 'ЕΕ',
  H: 'НΗ',
  I: 'ІΙ',
  L: 'Ӏ',
  J: 'Ј',
  K: 'КΚ',
  M: 'МΜ',
  N: 'Ν',
  O: 'ОΟ',
  P: 'РΡ',
  S: 'Ѕ',
  T: 'ТΤ',
  X: 'ХΧ',
  Y: 'ҮΥ',
  Z: 'Ζ',
};

const FOLD = new Map<string, string>();
for (const [latin, lookalikes] of Object.entries(GROUPS)) {
  for (const ch of lookalikes) FOLD.set(ch, latin);
}
// Case variants of each lookalike fold to the same letter in the matching case (explicit
// entries win), so changing case before or after substituting can't escape the fold.
for (const [latin, lookalikes] of Object.entries(GROUPS)) {
  for (const ch of lookalikes) {
    for (const [variant, target] of [
      [ch.toUpperCase(), latin.toUpperCase()],
      [ch.toLowerCase(), latin.toLowerCase()],
    ] as const) {
      if ([...variant].length === 1 && !FOLD.has(variant) && variant !== target) FOLD.set(variant, target);
    }
  }
}

export function foldHomoglyphs(text: string): string {
  let out = '';
  for (const ch of text) out += FOLD.get(ch) ?? ch;
  return out;
}
