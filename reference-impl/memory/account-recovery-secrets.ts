/**
 * What recovers an account without its password, and so is one: a TOTP seed (the "setup key"
 * an authenticator app is given, base32, often in groups of four) and the answer to a security
 * question ("mother's maiden name: Kowalczyk", "security answer (first pet): Biscuit2009").
 * Both are read after their label and a colon (or "is" for an answer); the label's words are
 * in the languages the rules read. One-time recovery codes listed under their label are read
 * too. Every pattern is linear: bounded classes, no nested
 * quantifiers over the same characters.
 */

type Range = readonly [number, number];

/** A two-factor word and a key word, in either order, before the colon on the same line. */
const OTP_WORD =
  /(?<![\p{L}\p{N}])(?:2fa|mfa|totp|otp|2-?step|two[- ]?(?:factor|step)|authenticator|authy|zwei-?faktor|double authentification|doble factor|dois fatores|due fattori|dwuskładnikow\p{L}*|двухфакторн\p{L}*|二要素|两步验证|双重验证|2단계)(?![\p{L}])/iu;
const KEY_WORD =
  /(?<![\p{L}])(?:key|secret|seed|setup code|schlüssel|geheimnis|clé|clef|secret|clave|secreto|chave|segredo|chiave|segreto|klucz|sekret|ключ|секрет|sleutel|geheim|キー|シークレット|密钥|密鑰|키)(?![\p{L}])/iu;
/** The label (at most 80 characters of one line) and the value after its colon. */
const LABELLED_VALUE = /([^\n:：=]{2,80})[:：=][ \t]{0,3}["'«„“]?([A-Za-z2-7]{4}(?:[ -]?[A-Za-z2-7]{2,8}){1,15})/gu;
/** Base32 letters, 16 to 64 of them (a seed is 80 to 320 bits), one case. */
function base32Seed(value: string): boolean {
  const bare = value.replace(/[ -]/g, '');
  if (bare.length < 16 || bare.length > 64) return false;
  if (bare !== bare.toUpperCase() && bare !== bare.toLowerCase()) return false;
  return /[2-7]/.test(bare) || bare.length >= 24;
}

/** Labels that name a security question or its answer. */
const ANSWER_LABEL =
  /(?<![\p{L}])(?:security (?:question|answer)|secret (?:question|answer)|memorable (?:word|answer|information)|sicherheits(?:frage|antwort)|geheimfrage|question (?:secrète|de sécurité)|réponse secrète|pregunta (?:de seguridad|secreta)|respuesta (?:de seguridad|secreta)|pergunta (?:de segurança|secreta)|resposta (?:de segurança|secreta)|domanda (?:di sicurezza|segreta)|risposta (?:di sicurezza|segreta)|pytanie (?:bezpieczeństwa|pomocnicze)|контрольный (?:вопрос|ответ)|секретный (?:вопрос|ответ)|beveiligingsvraag|geheime vraag|秘密の質問|秘密の答え|安全问题|密保问题)(?![\p{L}])/giu;
/**
 * What security questions ask ("mother's maiden name", "first pet"): a family or pet fact alone
 * is the user's own note, an answer only where the line also speaks of security or a login.
 */
const ASKED_FACT =
  /(?<![\p{L}])(?:(?:mother|mom|mum)['’]?s maiden name|maiden name|first (?:pet|school|car|teacher|street)(?:['’]s name)?|childhood (?:nickname|best friend|street)|mädchenname der mutter|nom de jeune fille|nazwisko panieńskie matki|девичья фамилия (?:матери|мамы))(?![\p{L}])/giu;
const SECURITY_CONTEXT =
  /(?<![\p{L}])(?:security|secret|verification|login|log-in|sign-in|bank\p{L}*|account|password reset|recovery|sicherheit\p{L}*|konto|sécurité|compte|seguridad|cuenta|segurança|conta|sicurezza|bezpiecze\p{L}*|безопасност\p{L}*|банк\p{L}*)(?![\p{L}])/iu;
/** The answer: one to three words closing the line or sentence. */
const ANSWER_VALUE =
  /^[ \t]*(?:[:：=—–-]|is|was|ist|est|es|é|è|это)[ \t]{1,3}["'«„“]?([\p{L}\p{N}][\p{L}\p{N}'’-]{1,30}(?:[ \t][\p{L}\p{N}][\p{L}\p{N}'’-]{0,30}){0,2})["'»“”]?[ \t]*(?=$|\n|[.!?;,](?:\s|$))/du;
/** Words that start a description of the answer rather than the answer. */
const NOT_ANSWER =
  /^(?:a|an|the|my|your|not|no|never|what|which|who|where|when|how|set|required|optional|stored|saved|in|on|see|use|ask|one|something|easy|hard|fake|random|public|unknown|ein|eine|der|die|das|un|une|le|la|el|los|o|il|lo)$/iu;
const MAX_LABELS = 32;

export function accountRecoveryRanges(text: string): Range[] {
  const out: Range[] = [];
  for (const m of text.matchAll(LABELLED_VALUE)) {
    const [label, value] = [m[1] ?? '', m[2] ?? ''];
    if (!OTP_WORD.test(label) || !KEY_WORD.test(label) || !base32Seed(value)) continue;
    const start = (m.index ?? 0) + m[0].length - value.length;
    out.push([start, start + value.length]);
  }
  let labels = 0;
  const found = [...text.matchAll(ANSWER_LABEL)];
  for (const m of text.matchAll(ASKED_FACT)) {
    const line = text.slice(text.lastIndexOf('\n', m.index ?? 0) + 1, text.indexOf('\n', m.index ?? 0) >>> 0);
    if (SECURITY_CONTEXT.test(line)) found.push(m);
  }
  for (const m of found) {
    if (++labels > MAX_LABELS) break;
    // The label may be followed by a short lead-in: "(first pet)", "for the PayPal login (city …)".
    const after = text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 120);
    const lead = /^[^\n:：=—–.!?]{0,64}?(?=[ \t]*(?:[:：=—–-]|(?<![\p{L}])(?:is|was|ist|est|es|é|è|это)[ \t]))/u.exec(
      after,
    );
    if (!lead) continue;
    const a = ANSWER_VALUE.exec(after.slice(lead[0].length));
    const value = a?.[1];
    if (!a || !value || NOT_ANSWER.test(value.split(/[ \t]/)[0] ?? '')) continue;
    // A question asked back ("security question: what was your first pet?") is no answer.
    if (/\?/.test(after.slice(0, lead[0].length + a[0].length + 1))) continue;
    const [from, to] = a.indices?.[1] ?? [0, 0];
    const base = (m.index ?? 0) + m[0].length + lead[0].length;
    out.push([base + from, base + to]);
  }
  out.push(...recoveryCodeRanges(text));
  return out;
}

/** A list of one-time recovery (backup, scratch) codes: a label, then the codes. */
const RECOVERY_CODES_LABEL =
  /(?<![\p{L}])(?:(?:recovery|backup|back-up|emergency|scratch|rescue|one-time|single-use|2fa|mfa|two-factor) codes?|wiederherstellungs-?codes?|backup-codes?|notfall-?codes?|codes? de (?:récupération|secours|sauvegarde)|códigos? de (?:recuperación|respaldo|seguridad|backup|recuperação|reserva)|codici di (?:recupero|backup|emergenza)|kody? (?:zapasowe|odzyskiwania|jednorazowe)|herstelcodes?|back-?upcodes?|резервн\p{L}* код\p{L}*|код\p{L}* восстановления|リカバリーコード|バックアップコード|恢复码|备用码|恢復碼|備用碼|복구 코드|백업 코드)(?![\p{L}])/giu;
/** One code: 6 to 20 letters and digits, one case, a digit among them, in up to three groups. */
const RECOVERY_CODE = /(?<![\p{L}\p{N}_-])[A-Za-z0-9]{2,10}(?:[ -][A-Za-z0-9]{2,10}){0,2}(?![\p{L}\p{N}_-])/gu;
const isRecoveryCode = (c: string): boolean => {
  const bare = c.replace(/[ -]/g, '');
  return (
    bare.length >= 6 &&
    !/^\d{4}-\d{1,2}-\d{1,2}$/.test(c) &&
    bare.length <= 20 &&
    /\d/.test(bare) &&
    (bare === bare.toLowerCase() || bare === bare.toUpperCase()) &&
    // A group of plain digits and a word ("10 codes", "2 left") is prose, not a code.
    c.split(/[ -]/).every((g) => /\d/.test(g) || /^[a-f]+$|^[A-F]+$|^[A-Z]+$/.test(g))
  );
};

/**
 * Recovery codes after their label: on its line after a colon, and on the lines below it up to a
 * blank line (at most 24 lines, 1,200 characters): "GitHub recovery codes:\n a1b2c-3d4e5 …".
 * Codes are single-case letters and digits with a digit, so "stored in 1Password" is no code.
 */
function recoveryCodeRanges(text: string): Range[] {
  const out: Range[] = [];
  let labels = 0;
  for (const m of text.matchAll(RECOVERY_CODES_LABEL)) {
    if (++labels > MAX_LABELS) break;
    const end = (m.index ?? 0) + m[0].length;
    const lineEnd = text.indexOf('\n', end) >>> 0;
    const colon = text.slice(end, Math.min(lineEnd, end + 80)).search(/[:：]/);
    const from = colon >= 0 ? end + colon + 1 : Math.min(lineEnd + 1, text.length);
    const blank = text.slice(from, from + 1200).search(/\n[ \t]*\n/);
    const block = text.slice(from, blank >= 0 ? from + blank : from + 1200);
    const lines = block.split('\n').slice(0, 24);
    let at = from;
    for (const line of lines) {
      // A bullet or number before the code ("1. ", "- ") is not part of it.
      const body = line.replace(/^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+/, (lead) => ' '.repeat(lead.length));
      for (const c of body.matchAll(RECOVERY_CODE)) {
        if (isRecoveryCode(c[0])) out.push([at + (c.index ?? 0), at + (c.index ?? 0) + c[0].length]);
      }
      at += line.length + 1;
    }
  }
  return out;
}
