/**
 * Secrets whose file format, not a prose label, says where they are: the private lines of a
 * PuTTY key (`Private-Lines: N` then N base64 lines, and its `Private-MAC`), and a password
 * spelled out one character at a time after a password word ("password, spelled out: e e q y m 9"),
 * and the `response` of an HTTP Digest authorization (replayable while its nonce lives), and the
 * private members of a JSON Web Key pasted into text (`{"kty":"EC", …, "d":"…"}`): `d` (EC, OKP,
 * RSA), `p`, `q`, `dp`, `dq`, `qi` (RSA) and `k` (oct); its public members (`x`, `y`, `n`, `e`,
 * `kid`, `crv`, `alg`, `use`) stay. JSON content is read key-aware by secretJsonValueIndexes,
 * which shares isJwk and JWK_PRIVATE_MEMBERS.
 */

type Range = readonly [number, number];

/** A JWK's key types, and the members that hold its private key material (RFC 7518 §6). */
const JWK_KTY = /^(?:EC|RSA|OKP|oct)$/;
export const JWK_PRIVATE_MEMBERS: ReadonlySet<string> = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']);
/** Whether a parsed JSON object is a JSON Web Key (its `kty` names a key type). */
export const isJwk = (o: object): boolean => {
  const kty: unknown = (o as { kty?: unknown }).kty;
  return typeof kty === 'string' && JWK_KTY.test(kty);
};
/** One flat `{…}` in text (a JWK has no nested object but a rare RSA `oth`), bounded. */
const FLAT_OBJECT = /\{[^{}]{1,20000}\}/gu;
const JWK_KTY_MEMBER = /["']?kty["']?[ \t\r\n]*[:=][ \t\r\n]*["'](?:EC|RSA|OKP|oct)["']/u;
const JWK_PRIVATE =
  /(?<![\w-])["']?(d|p|q|dp|dq|qi|k)["']?[ \t\r\n]*[:=][ \t\r\n]*["']([A-Za-z0-9_\-+/=]{8,4096})["']/gu;

const PPK_PRIVATE = /^Private-Lines:[ \t]*(\d{1,3})[ \t]*\r?\n/gmu;
const PPK_LINE = /^[A-Za-z0-9+/=]{8,128}$/u;
const PPK_MAC = /^Private-MAC:[ \t]*([0-9a-fA-F]{16,128})[ \t]*$/gmu;
const SPELLED =
  /(?<![\p{L}\p{N}])(?:password|passwort|passphrase|pin|mot de passe|contraseña|senha|wachtwoord|hasło|пароль)(?![\p{L}])[^\n:：]{0,40}[:：][ \t]{0,3}((?:[\p{L}\p{N}!@#$%^&*_+=?-][ \t]){5,63}[\p{L}\p{N}!@#$%^&*_+=?-])(?![ \t]?[\p{L}\p{N}])/giu;

const DIGEST_RESPONSE = /authorization[ \t]*[:=][ \t]*digest[^\n]{0,600}?\bresponse="([0-9a-fA-F]{32,128})"/giu;

export function keyFileSecretRanges(text: string): Range[] {
  const out: Range[] = [];
  for (const m of text.matchAll(DIGEST_RESPONSE)) {
    const v = m[1]!;
    const start = (m.index ?? 0) + m[0].length - v.length - 1;
    out.push([start, start + v.length]);
  }
  for (const m of text.matchAll(PPK_PRIVATE)) {
    let at = (m.index ?? 0) + m[0].length;
    for (let n = Math.min(Number(m[1]), 64); n > 0; n--) {
      const end = text.indexOf('\n', at);
      const line = text.slice(at, end < 0 ? text.length : end).replace(/\r$/, '');
      if (!PPK_LINE.test(line)) break;
      out.push([at, at + line.length]);
      if (end < 0) break;
      at = end + 1;
    }
  }
  for (const m of text.matchAll(PPK_MAC)) {
    const v = m[1]!;
    const start = (m.index ?? 0) + m[0].indexOf(v);
    out.push([start, start + v.length]);
  }
  if (/kty/.test(text)) {
    for (const o of text.matchAll(FLAT_OBJECT)) {
      if (!JWK_KTY_MEMBER.test(o[0])) continue;
      for (const m of o[0].matchAll(JWK_PRIVATE)) {
        const v = m[2]!;
        const start = (o.index ?? 0) + (m.index ?? 0) + m[0].length - v.length - 1;
        out.push([start, start + v.length]);
      }
    }
  }
  for (const m of text.matchAll(SPELLED)) {
    const v = m[1]!;
    const start = (m.index ?? 0) + m[0].length - v.length;
    out.push([start, start + v.length]);
  }
  return out;
}
