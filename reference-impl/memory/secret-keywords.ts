/**
 * Step 4a, layer 3: secrets without a provider shape, found by what names them. Three views:
 * - key-aware structured content: a JSON field, YAML/INI/env line, connection-string part or
 *   URL userinfo whose key names a secret (`password`, `client_secret`, `AccountKey`, …) has its
 *   value redacted whatever the value looks like;
 * - prose in several languages: "password is …", "Passwort: …", "login: user / pass" — the
 *   token after the keyword is a secret when it is not an ordinary word;
 * - generic keywords (`token`, `key`, `secret`): the following token is a secret only when it is
 *   long and random-looking (Shannon entropy), so "the key is in the drawer" stays;
 * - PINs and codes (digits after a PIN, PUK, CVV or door-code word) and plain-word passwords
 *   after a copula or colon, unless the word describes the password ("is required").
 * Every pattern is linear: bounded classes, no nested quantifiers.
 */
import { isJwk, JWK_PRIVATE_MEMBERS } from './key-file-secrets.js';
import { isPlaceholderSecret } from './placeholder-secrets.js';
import { languageReading } from './unread-language.js';

/** Key names whose value is a secret (compared lower-cased, `-`/`.`/space as `_`). */
const SECRET_KEY =
  /(?:^|_)(?:pass(?:word|wd|phrase|code)?|pwd|secret|secrets|token|api_?key|apikey|access_?key|secret_?key|private_?key|privkey|client_?secret|auth|authorization|bearer|credentials?|cred|connection_?string|conn_?str|dsn|account_?key|shared_?access_?key|sas|signing_?key|encryption_?key|master_?key|enc_?key|sig|signature|session_?(?:id|key|token)|cookie|otp|pin|cvv|psk|wpa_?key|mot_de_passe|mdp|contrasena|contraseña|senha|passwort|kennwort|clave|пароль|密码|パスワード)(?:$|_)/u;

/** Key names that hold something about a secret, not the secret ("POSTGRES_PASSWORD_FILE", "password_policy", "token_uri"). */
const ABOUT_SECRET_KEY =
  /_(?:file|path|env|var|ref|name|policy|length|min|max|rotation|expiry|expires_(?:at|in)|ttl|lifetime|hint|url|uri|endpoint|type|issuer|audience|manager)$/u;

export function isSecretKeyName(name: string): boolean {
  if (name.length > 128) return false;
  // camelCase keys are words too: "apiToken", "onlinePin", "clientSecret".
  const words = name.replace(/(\p{Ll})(\p{Lu})/gu, '$1_$2');
  const key = words.toLowerCase().replace(/[-.\s]+/g, '_');
  return SECRET_KEY.test(key) && !ABOUT_SECRET_KEY.test(key);
}

/**
 * A value that names where a secret is kept rather than being one: an environment or template
 * reference (`${DB_PASSWORD}`, cut at its brace by a value class; `process.env.GITHUB_TOKEN`,
 * `os.environ["X"]`), a file path (`/run/secrets/db_password`), a bare auth scheme (`` `Bearer ``
 * before `${token}`) or a YAML list of secret names (`[db_password]`).
 */
const SECRET_REFERENCE =
  /^(?:\$\{?[\w.:-]{1,60}\}?|\$\(|(?:process\.env|os\.environ|os\.getenv|import\.meta\.env|system\.getenv|deno\.env|getenv|env|secrets|vars)[.[(]|[`'"]?(?:bearer|basic|token|digest)$|(?:\/|~\/|\.\/)[\w.-]+(?:\/[\w.-]+)+$|\[[a-z][\w.-]{0,63}(?:,[ \t]*[a-z][\w.-]{0,63}){0,15}\]?\]?$)/i;

export const isSecretReference = (v: string): boolean => SECRET_REFERENCE.test(v);

/** Values that are obviously not secrets: placeholders, templates, references, already redacted. */
function placeholder(v: string): boolean {
  return (
    v.length < 4 ||
    SECRET_REFERENCE.test(v) ||
    isPlaceholderSecret(v) ||
    /^(?:\*+|x+|\.+|-+|null|none|true|false|redacted|\[redacted\]|changeme|example|<[^>]{0,60}>|\$\{[^}]{0,60}\}|\$[A-Z_]{1,60}|\{\{[^}]{0,60}\}\})$/i.test(
      v,
    )
  );
}

export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) h -= (c / n) * Math.log2(c / n);
  return h;
}

/** Looks machine-generated: long, several character classes, high entropy. */
export function looksRandom(token: string): boolean {
  if (token.length < 16 || token.length > 1024) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((c) => c.test(token)).length;
  return classes >= 2 && shannonEntropy(token) >= 3.3;
}

/** A password-ish token: not a plain word (has a digit, symbol or inner capital), 6+ chars. */
function passwordLike(token: string): boolean {
  if (token.length < 6 || token.length > 256) return false;
  if (placeholder(token)) return false;
  return /\d|[^\p{L}\p{N}]|\p{Ll}\p{Lu}/u.test(token) || looksRandom(token);
}

type Range = readonly [number, number];

/**
 * A settings line (`clientSecret: …`, `db_password = …` at the start of a line, YAML list item
 * allowed) whose key is a compound naming a secret holds one whatever the value looks like, a
 * plain word included — as in JSON. A bare word key ("pass: yes", "token: …") stays prose, read
 * by the value's shape.
 */
/** A setting's state, not a secret ("require_password: enabled"). */
const SETTING_WORD =
  /^(?:enabled|disabled|true|false|yes|no|on|off|required|optional|none|null|unset|always|never|default)$/i;
/** A key that says what to do about a secret ("require_password", "reset_token"), not which it is. */
const ABOUT_A_SECRET =
  /^(?:require|requires|enable|disable|allow|use|reset|change|forgot|rotate|min|max|show|hide|check|validate|verify|expire|remember)$/;

function settingOfSecret(text: string, m: RegExpMatchArray, value: string): boolean {
  const key = m[2] ?? '';
  if (!/[_.-]|\p{Ll}\p{Lu}/u.test(key) || placeholder(value) || SETTING_WORD.test(value)) return false;
  // The compound ends in the secret's word ("client_secret", "dbPassword"; not "Passwort-Regeln").
  const words = key
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1_$2')
    .toLowerCase()
    .split(/[-._\s]+/);
  if (!SECRET_KEY.test(words[words.length - 1] ?? '') || ABOUT_A_SECRET.test(words[0] ?? '')) return false;
  const at = m.index ?? 0;
  // The value is all the line holds after the key: a setting, not a sentence.
  const end = at + m[0].length - ((m[4] ?? '').length - value.length);
  const rest = /^[^\n]*/.exec(text.slice(end))?.[0] ?? '';
  return (
    /^["']?[ \t]*(?:#[^\r]*)?\r?$/.test(rest) &&
    /(?:^|\n)[ \t]*(?:-[ \t]+)?$/.test(text.slice(Math.max(0, at - 64), at))
  );
}

// The prose patterns' shared vocabulary, as regex source fragments (alternations of words, each
// used inside a group and followed by a lookahead that ends the word, so their order is free).
/** Words that name a password (PROSE_FAR and PLAIN_PASSWORD each add a few of their own). */
const PASSWORD_WORD =
  'password|passwd|passphrase|passwort|kennwort|mot de passe|mdp|contraseña|contrasena|senha|wachtwoord|hasło|haslo|пароль';
/**
 * Spanish and Portuguese "clave"/"chave" (a key) name a password when what follows is something
 * one logs in to: "clave del wifi", "clave de mi cuenta", "chave do roteador"; "la clave del
 * éxito" stays a key.
 */
const KEY_TO_LOGIN = String.raw`(?:clave|chave)(?=[ \t]+(?:(?:de|del|da|do|de la|de mi|de tu|de su|da minha|do meu)[ \t]+)?(?:wi-?fi|wlan|red|rede|router|roteador|módem|modem|correo|e-?mail|cuenta|conta|banco|portátil|ordenador|computador|móvil|celular|acceso|acesso|usuario|usuário|admin|administrador|servidor|vpn)(?![a-zà-ÿ]))`;
/** Prepositions that open what a password is for ("for the VPN", "für das WLAN", "от почты"). */
const PREPOSITION =
  'for|to|of|on|at|in|from|für|fürs|zum|zur|von|vom|pour|du|de|des|à|au|del|para|da|do|dla|od|для|от|на|до|voor|van|per|della';
/** Copulas ("is", "ist", "lautet", "est", "это", …), and the past tenses not every pattern reads. */
const COPULA = 'is|was|ist|lautet|est|es|é|è|это';
const COPULA_PAST = 'war|était|era';
/** PROSE's and PIN_PROSE's connective between the word and its value: a copula, `=`, a colon, an arrow (`more`: further signs). */
const connective = (more = ''): string =>
  String.raw`[ \t]{0,3}(?:(?:${COPULA}|${COPULA_PAST})(?!\p{L})|=|:|：|は|→|->${more})[ \t]{0,3}`;
/** Right after a kana or CJK character, which needs no space before the value. */
const AFTER_CJK = String.raw`(?<=[\u3040-\u30ff\u4e00-\u9fff])`;

// KEY = VALUE lines and pairs (env, INI, YAML, JSON in text, connection strings).
const PAIR = /(["']?)([\p{L}\p{N}_.-]{2,64})\1[ \t]{0,8}(?:=|:(?!\/\/))[ \t]{0,8}(["']?)([^\s"',;&}\u0000]{1,1024})/gu;
// scheme://user:password@host
const URL_USERINFO = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@\u0000]{0,128}:([^\s@/\u0000]{1,256})@/gi;
// Prose: a password word, a short connective, then the token (several languages). Without a
// connective the token follows a space (or a CJK word, which needs none), and a hyphen is a
// connective only between spaces ("password - x"): joined to the word it makes a compound
// ("Passwort-Manager-Abo", "password-protected", "PIN-Code"), not a value.
const PROSE = new RegExp(
  String.raw`(?<![A-Za-z])(?:password|passwd|passphrase|passcode|pass|pwd|pin|passwort|kennwort|mot de passe|mdp|contraseña|contrasena|clave|senha|parola d'ordine|пароль|密码|口令|パスワード|暗証番号)(?![a-zà-ÿ])(?:${connective('|是|—')}|[ \t]{1,3}(?:-[ \t]{1,3})?|${AFTER_CJK})["'«„“]?([^\s"'»“”,;\u0000]{1,256})`,
  'giu',
);
// login: user / secret   or   user: alice pass: secret. Without the colon the user must be a mail
// address ("login anna@example.com / …"): a plain word there is prose ("login page / docs").
const LOGIN_PAIR =
  /\b(?:login|user(?:name)?|benutzer|utilisateur|usuario|usuário|utente|логин)(?:\s{0,3}[:=]\s{0,3}[^\s/\u0000]{1,64}|\s{1,3}[^\s/@\u0000]{1,64}@[^\s/\u0000]{1,64})\s{0,3}(?:\/|\|)\s{0,3}([^\s,;\u0000]{4,256})/giu;
/** Words that label the password of a credential pair ("pass", "pw", "Kennwort", "パスワード"). */
const PAIR_PASSWORD_WORD = `${PASSWORD_WORD}|pass|pw|pwd|parola|パスワード|密码|口令`;
// A login pair written out: a user word and a name, a separator, then a password word and its
// value ("Benutzer hmeier, Kennwort Kaffeetasse", "user: jkim / pass: marigold",
// "ログインID: tanaka、パスワード: momiji"). Beside a user name the value is the password whatever
// it looks like, a plain word included — but it ends its clause, and without a colon it is a
// noun or has a digit or sign ("Benutzer anlegen, Passwort vergeben" is a to-do list).
const CREDENTIAL_PAIR = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:login(?:[ -]?id)?|user(?:name)?|benutzer(?:name)?|utilisateur|identifiant|usuario|usuário|utente|gebruiker(?:snaam)?|użytkownik|логин|пользователь|ユーザー(?:名|ID)?|ログイン(?:ID|名)?|用户名?|账号)(?:[ \t]{0,3}[:=：][ \t]{0,3}|[ \t]{1,3})[^\s,;/|、，\u0000]{1,64}[ \t]{0,3}(?:[,;/|、，]|[ \t]-)[ \t]{0,3}(?:${PAIR_PASSWORD_WORD})(?![\p{L}\p{N}])([ \t]{0,3}[:=：][ \t]{0,3}|[ \t]{1,3})["'«„“「]?([^\s"'»“”」,;\u0000]{1,256}?)(?=["'»“”」]?[ \t]*(?:$|[\n.!;,)。、]))`,
  'giu',
);
const PASSWORD_LABEL = new RegExp(String.raw`^(?:${PAIR_PASSWORD_WORD})[:=：]?$`, 'iu');
// A password word, a few words about what it opens ("for the company VPN", "от почты"), a
// copula, then the token: every part bounded, the filler lazy within one clause. The words
// open with a preposition or a comma (what the password opens, an aside), so a compound whose
// head is another thing ("password manager is 1Password", "PIN policy is 6digits") is not one.
const PROSE_FAR = new RegExp(
  String.raw`(?<![A-Za-z])(?:${PASSWORD_WORD}|passcode|login secret|pin)(?![a-zà-ÿ])(?:(?:[ \t]*,|[ \t]+(?:${PREPOSITION}|with|into|zu|bei|beim|im|am|aux|sur|das|dos|na|no|dello|bij|op|від|к|в)(?!\p{L}))[^\n.:;!?"]{0,40}?)?[ \t]*(?:(?<!\p{L})(?:${COPULA}|to|jest)(?!\p{L})|:)[ \t]{1,3}["'«„“]?([^\s"'»“”,;\u0000]{1,256})`,
  'giu',
);
// A secret word, a provider name or a few words (a domain's dots, a parenthesised scope), a
// copula, then a random-looking token ("Ma clé Twilio est e473…", "Mein AWS secret-Zugang
// lautet GL4F+…", "API token (Zone:DNS:Edit for acme.example): …").
const GENERIC_FAR =
  /(?:token|key|secret|credential|schlüssel|zugang|clé|clave|chave|chiave|sleutel|klucz|ключ|токен|密钥|令牌|キー|トークン)(?:[^\n.;!?"\u0000]|\.(?=[\p{L}\p{N}])){0,60}?(?:(?<!\p{L})(?:is|ist|lautet|est|es|é|è|to|это|jest)(?!\p{L})|:(?!\/\/)|是)[ \t]{0,3}["']?([^\s"',;\u0000]{16,1024})/giu;
// scheme://TOKEN@host — a DSN's key in the user part.
const URL_USER_TOKEN = /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s:/@\u0000]{16,256})@/gi;

// Generic secret words followed by a random-looking token ('=' only as base64's padding: else
// `SECRET_KEY=value` read from inside the key name takes `Y=value` for the token).
const GENERIC =
  /(?:token|key|secret|credential|api[ _-]?key|schlüssel|clé|clave|chave|chiave|ключ|токен|密钥|令牌|キー|トークン)(?![a-zà-ÿ])[^\s]{0,3}(?:[ \t]{0,3}(?:(?:is|ist|est|es|é|è)(?!\p{L})|=|:))?[ \t]{0,3}["']?([A-Za-z0-9+/_.~-]{16,1024}={0,2})/giu;

// PINs and codes: a PIN word, a connective, then only digits ("PIN is 4821", "Türcode: 1234",
// "CVV 123"). Digits alone are no password elsewhere; after these words they are the secret.
/**
 * A German compound whose head is "code" and whose first parts say what it opens or does
 * ("Garagentorcode", "Türöffnercode", "Entsperrcode", "Schlüsselkastencode"): German writes the
 * thing and the code as one word, so a list of whole compounds misses most of them. A "Fehlercode"
 * or "Rabattcode" names no lock. "tor" only alone or after what a gate closes ("Motorcode" is none).
 */
const GERMAN_CODE_COMPOUND =
  '\\p{L}{0,16}?(?:tür|schloss|alarm|anlagen|tresor|safe|zugangs|entsperr|öffner|sperr|fach|kasten|schlüssel)(?:s|n|en)?code|(?:garagen|garten|hof|einfahrts|roll|schiebe|haus)?torcode';
/**
 * Words that name a PIN or an access code, in the corpus languages. Qualified: a bare "code",
 * "código" or "код" is as often a postal or order code as a secret.
 */
const PIN_WORD = `pin(?:[ -]?(?:code|nummer|kod|код))?|pincode|passcode|puk|cvv2?|cvc2?|csc|(?:unlock|door|alarm|disarm|gate|safe|access|security|entry|lock|garage|keypad)[ -]code|digicode|geheimzahl|${GERMAN_CODE_COMPOUND}|(?:zugangs|geheim|tresor)nummer|kombination|combination|combinaison|combinación|combinazione|combinação|combinatie|kombinacja|комбинация|code (?:pin|d'accès|d'entrée|de la porte|de l'alarme|du coffre)|código (?:pin|de acceso|de la puerta|de la alarma|da porta|do alarme|de acesso)|codice (?:pin|di accesso|del cancello|dell'allarme|della cassaforte)|kod (?:pin|do drzwi|dostępu|alarmu|do sejfu)|(?:toegangs|deur|alarm)code|пин(?:-код)?|код (?:доступа|от двери|домофона|сигнализации|от сейфа)`;
/** Japanese and Chinese PIN words: a PIN, a passcode, the number or code of a safe, locker or door lock. */
const PIN_CJK =
  '暗証番号|パスコード|(?:金庫|ロッカー|オートロック|ドア|玄関|保险箱|密码锁)の?(?:番号|暗証番号|コード|密码)';
/** A PIN word is not inside a longer Latin or Cyrillic word (kana and CJK need no break). */
const PIN_END = '(?![a-zà-ÿа-яё])';
/** The digits end there: no digit, letter or decimal part follows — kana and CJK may ("8080です"). */
const DIGITS_END = String.raw`(?!\p{N}|(?![\u3040-\u30ff\u4e00-\u9fff])\p{L}|[.,:/-]\d)`;
/**
 * A code's digits, run together or in dashed groups as a combination lock reads ("24-11-37"), or
 * a keypad code with one letter among three digits or more ("45B12", "2580A"), as door keypads have.
 */
const CODE_DIGITS = String.raw`\d{3,12}|\d{1,4}(?:-\d{1,4}){2,7}|\d(?: \d){3,7}|\d{2,8}[A-Z]\d{1,6}|\d{3,8}[A-Z]|[A-Z]\d{3,8}`;
const PIN_PROSE = new RegExp(
  String.raw`(?<![a-zà-ÿа-яё0-9])(${PIN_WORD}|${PIN_CJK})${PIN_END}(?:${connective()}|[ \t]{1,3}|${AFTER_CJK})["'«„“]?(${CODE_DIGITS})${DIGITS_END}`,
  'giu',
);
// A PIN word, a few words of what it opens ("for the office", "meiner Girokarte", "de ma carte",
// "от карты", "の"), then a copula or colon and the digits: the filler stays in one clause and
// holds no digits, and the connective is required, so "the door code changed in 2024" is no PIN.
// The clause may be a change with the new value after a comma ("Handy-PIN geändert, neu: 6000"),
// and an article or a word of time may stand before the digits ("ist die 6340", "lautet
// übrigens 2692", "is now 4821").
const NEW_VALUE =
  'neu|neue|neuer|new|nouveau|nouvelle|nuevo|nueva|nuovo|nuova|novo|nova|nieuw|nieuwe|nowy|nowa|новый|новая';
const BEFORE_DIGITS =
  'die|der|das|the|la|le|el|il|übrigens|jetzt|nun|noch|weiterhin|aktuell|now|still|currently|actually|désormais|maintenant|toujours|ahora|todavía|ora|ancora|agora|ainda|nu|teraz|сейчас|теперь';
const PIN_FAR = new RegExp(
  String.raw`(?<![a-zà-ÿа-яё0-9])(${PIN_WORD}|${PIN_CJK})${PIN_END}[^\n.,;!?"\d]{1,40}?(?:,[ \t]{0,3}(?:${NEW_VALUE}))?(?:[ \t]{0,3}(?:(?<!\p{L})(?:${COPULA}|${COPULA_PAST}|jest|to)(?!\p{L})|=|:|：|は|—)[ \t]{0,3})(?:(?:${BEFORE_DIGITS})[ \t]{1,3})?["'«„“]?(${CODE_DIGITS})${DIGITS_END}`,
  'giu',
);
/**
 * A PIN word, what it opens (an article, possessive or preposition, then at most three words),
 * then the digits with no connective, ending the clause: "PUK der Handykarte 90875587", "pin of
 * my bank card 4417." Russian says what it opens in the genitive, with no preposition: "ПИН-код
 * карты 5823". A filler ending in a word of time or place ("changed in 2024", "seit 2019")
 * is not what the code opens, so those digits are no code.
 */
const PIN_OPENS = new RegExp(
  String.raw`(?<![a-zà-ÿа-яё0-9])(${PIN_WORD})${PIN_END}[ \t]+((?:${PREPOSITION}|the|my|your|our|his|her|der|die|das|des|dem|den|mein|meine|meiner|meines|meinem|le|la|les|ma|mon|mes|el|los|las|mi|il|lo|mio|mia|o|a|meu|minha|het|mijn|mój|moja|мой|моя)(?!\p{L})(?:[ \t]+\p{L}{1,24}){1,3}|[а-яё]{2,24}(?:[ \t]+[а-яё]{2,24}){0,2})[ \t]+(\d{4,12})(?=[ \t]*(?:$|[\n.,;!?)]))`,
  'giu',
);
/**
 * What a bare code opens: a door, gate, alarm, safe, lock or card, in the corpus languages.
 * A bare "code" is as often a postal or order code; beside one of these it is the secret.
 * German compounds end in the thing ("Fahrradschloss") or start with it ("Alarmanlage").
 */
const LOCKED_THING =
  'doors?|front door|gates?|garage|alarm\\p{L}*|safe|lock|locker|padlock|keypad|intercom|entrance|card|\\p{L}*tür|tor|\\p{L}*schloss|\\p{L}*tresor|karte|\\p{L}*kasten|\\p{L}*fach|schlüsselbox|lockbox|key ?box|key ?safe|porte|portail|alarme|coffre|cadenas|carte|immeuble|interphone|puerta|portal|alarma|caja fuerte|candado|tarjeta|portón|portone|cancello|allarme|cassaforte|lucchetto|carta|citofono|porta|portão|cofre|cadeado|cartão|двер\\p{L}*|подъезд\\p{L}*|домофон\\p{L}*|сигнализаци\\p{L}*|сейф\\p{L}*|замк\\p{L}*|замок|калитк\\p{L}*|карт\\p{L}*|deur|poort|kluis|drzwi|bram\\p{L}*|sejf\\p{L}*|kłódk\\p{L}*|kart\\p{L}*|furtk\\p{L}*|domofon\\p{L}*|skrytk\\p{L}*';
const CODE_WORD = 'code|codice|código|codigo|kod|kode|код|combo|combi|keypad|clave|chave';
/** Prepositions and articles between a code word and what it opens ("code de ma carte", "код от подъезда"). */
const OPENS_PREP =
  'of|for|to|de|du|des|del|della|dello|di|da|do|od|от|для|van|voor|zu|zur|zum|für|fürs|der|vom|von|am|beim|im|au|à';
/**
 * Digits after a code word that names what it opens, before ("Alarmanlage: Code 2468", "bike
 * lock combo: 0419", "Für die Haustür gilt ab Montag der Code 2858") or after it ("Codice del
 * portone: 5582", "Codice allarme 9649", "Код от подъезда 7314", "Tür-Code Hinterhof: 20-27").
 * The words between are few, hold no digit and stay in one clause (a comma only within the
 * nearest 16 characters; beyond them the thing is no English "safe" or "card", which are as
 * often an adjective or a gift card), so "door 3, code …" or "safe to share the promo code …" is not one;
 * four digits at least, as after a PIN word, or two dashed pairs, as a keypad code is written.
 */
const LOCK_DIGITS = String.raw`${CODE_DIGITS}|\d{2,4}-\d{2,4}`;
const LOCK_CODE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:(?:(?:${LOCKED_THING})(?!\p{L})[^\n.;!?\d]{0,16}?|(?!(?:safe|card)(?!\p{L}))(?:${LOCKED_THING})(?!\p{L})[^\n.,;!?\d]{17,32}?)(?<!\p{L})(?:${CODE_WORD})|(?:${CODE_WORD})(?:[ \t]+(?:${OPENS_PREP}))?(?:[ \t]+[\p{L}']{1,14}){0,2}?[ \t]+(?:${LOCKED_THING})(?!\p{L})(?:[ \t]+\p{L}{2,14})?)(?!\p{L})(?:${connective()}|(?:[ \t]+\p{L}{2,20}){1,2}[ \t]{0,3}[:=：][ \t]{0,3}|[ \t]{1,3})["'«„“]?(${LOCK_DIGITS})${DIGITS_END}`,
  'giu',
);
/** A thing that is itself a combination lock or key box ("padlock", "Zahlenschloss", "cijferslot"). */
const COMBINATION_LOCK_WORD =
  'padlocks?|lockbox(?:es)?|key ?safes?|schlüsselkasten|schlüsseltresor|combination locks?|bike locks?|luggage locks?|cadenas|candados?|lucchett[oi]|cadeados?|\\p{L}+schloss|kłódk\\p{L}*|hangslot|cijferslot|codeslot|fietsslot|kettingslot|combinatieslot|kilit|навесной замок|кодовый замок';
/**
 * Digits right after a thing that is itself a combination lock or key box, with no code word ("padlock
 * 3307", "Zahlenschloss: 0815", "candado 482"): such a lock has no other number to name. A
 * locker, door or card has (its number, its floor), so those still need a code word.
 */
const COMBINATION_LOCK = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${COMBINATION_LOCK_WORD})(?!\p{L})[ \t]{0,3}[:#]?[ \t]{0,3}(${CODE_DIGITS})${DIGITS_END}`,
  'giu',
);
/**
 * The same lock, then where it is ("Zahlenschloss am Briefkasten 9088", "padlock on the shed:
 * 4521") or one or two words of what it locks and a colon ("Cijferslot fiets: 2719"), then digits
 * ending the clause. A place opens with a preposition of place, never "von"/"of" (a maker's
 * model, "von ABUS 6500"), and a word of time ("seit 2019") is no place (NOT_OPENED).
 */
const LOCK_PLACE_PREP =
  'am|an der|an dem|im|beim|auf der|auf dem|at the|on the|in the|à la|au|sur la|sur le|en la|en el|del|de la|al|alla|sul|sulla|nel|nella|op de|aan de|bij de|na|przy|w|у|на';
const COMBINATION_LOCK_PLACE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${COMBINATION_LOCK_WORD})(?!\p{L})([ \t]+(?:${LOCK_PLACE_PREP})(?:[ \t]+\p{L}{2,24}){1,2}(?:[ \t]{0,3}[:：#][ \t]{0,3}|[ \t]{1,3})|(?:[ \t]+\p{L}{2,24}){1,2}[ \t]{0,3}[:：][ \t]{0,3})(${CODE_DIGITS})${DIGITS_END}(?=[ \t]*(?:$|[\n.,;!?)]))`,
  'giu',
);
/**
 * A password word, then the service it is for as one capitalised name, then a colon and the
 * value ("Mot de passe Netflix : tournesol", "Passwort GMX: Sonne123"). Not a word that names a
 * thing about passwords ("Password Manager: Bitwarden", "Passwort-Reset: erledigt").
 */
const SERVICE_PASSWORD = new RegExp(
  String.raw`(?<![A-Za-z])(?:${PASSWORD_WORD})(?![a-zà-ÿ])[ \t]+([\p{L}][\p{L}\p{N}+.&-]{1,24})[ \t]{0,2}[:：][ \t]{1,3}["'«„“]?([^\s"'»“”,;\u0000]{4,64}?)(?=["'»“”]?[ \t]*(?:$|[\n.!;,)]))`,
  'giu',
);
const ABOUT_PASSWORD_NAME =
  /^(?:manager|reset|policy|hint|change|rules?|requirements?|generator|strength|length|recovery|vault|safe|tresor|coffre|gestor|gestionnaire|wechsel|änderung|richtlinie)$/i;
/**
 * Password words of languages whose grammar the prose patterns above do not read (Nordic,
 * Finnish, Czech/Slovak, Hungarian, Greek, Romanian, South Slavic, Indonesian/Malay, Vietnamese,
 * Swahili, Arabic, Hebrew, Hindi, Thai, Korean, Turkish), with their article or possessive
 * endings ("lösenordet", "jelszavam", "şifrem", "비밀번호는"). Left out: Korean 암호, which also
 * starts 암호화폐 (cryptocurrency, whose wallet addresses are no passwords), and a bare "parola",
 * Italian for "word".
 */
const WORLD_PASSWORD_WORD =
  'lösenord(?:et)?|passord(?:et)?|adgangskode(?:n)?|kodeord(?:et)?|salasana(?:ni|si|mme)?|hesl(?:o|a|em|om)|jelsz(?:ó|ava|avam|avad)|κωδικ(?:ός|ό|ού)(?: πρόσβασης)?|συνθηματικό|parol(?:ă|ei|ası)|lozink(?:a|u|e|om)|gesl(?:o|a)|kata (?:sandi|laluan)|mật khẩu|nenosiri|كلمة (?:المرور|السر)|ה?סיסמ(?:ה|א)|पासवर्ड|รหัสผ่าน|비밀번호|şifre(?:m|si|n|niz)?';
/**
 * One of those words, then in the same clause (no sentence end, at most 48 characters: what it
 * opens, whatever the language's copula) a password-shaped token that ends the clause or follows
 * a colon (or before a Korean or Hindi copula; Thai, written without spaces, may run on from the word): letters with a digit or sign, six characters at least. With no grammar to lean on,
 * the token's shape decides ("Mitt lösenord till banken är Solros!2291", "Heslo k e-mailu je
 * Kocour#4471"); a plain word or a bare number after the word stays text.
 */
const passwordBeside = (words: string): RegExp =>
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:${words})(?:(?<=[\uac00-\ud7a3])[\uac00-\ud7a3]{0,2}|(?<=[\u0e00-\u0e7f])|(?!\p{L}))[^\n.!?;。]{0,48}?(?<=[\s:=：])["'«„“]?([^\s"'»“”,;\u0000]{6,128})(?=["'»“”]?(?:[ \t]*(?:$|[\n,;)])|[.!?。](?:\s|$)|[ \t]?(?:입니다|이에요|예요|이야|이다)|[ \t](?:है|हैं|था|थी)(?![\p{L}\p{M}])))`,
    'giu',
  );
const WORLD_PASSWORD = passwordBeside(WORLD_PASSWORD_WORD);
/**
 * In a note placed in a language the rules cannot read (unread-language.ts), the loanwords "password" and "parola"
 * (Romanian and Turkish; Italian for "word", so only there) name a password as WORLD_PASSWORD's
 * words do ("Ang password ko sa email ay …", "Parola mea de la laptop este …"), and a PIN or code
 * word ("pinkode", "PIN-kódja", "koden", "PIN ATM saya") names the digits that end its clause.
 */
const LOANED_PASSWORD = passwordBeside('password|parola|passwort|pass');
const LOANED_PIN =
  /(?<![\p{L}\p{N}])(?:pin|kod|code|kód|koodi|cod|kode)\p{L}{0,6}(?:-\p{L}{1,8})?(?!\p{L})[^\n.!?;。\d]{0,32}?(?<=[\s:=：])(\d{4,8})(?=(?:[ 	]*(?:$|[\n,;)])|[.!?。](?:\s|$)))/giu;
/** A world-language password value: letters with a digit or sign, and not an address, link or date. */
function worldPasswordValue(v: string): boolean {
  if (!/\p{L}/u.test(v) || !/[\p{N}\p{P}\p{S}]/u.test(v) || placeholder(v)) return false;
  return !/^(?:[^@\s]+@[^@\s]+\.\p{L}{2,}|[a-z][a-z0-9+.-]*:\/\/.*|www\..*|[\p{L}-]+\.(?:com|net|org|io)\S*)$/iu.test(
    v,
  );
}
/** An HTTP credential written out: "Authorization: Basic dXNl…", "Bearer eyJ…" (a placeholder like <token> is none). */
const AUTH_HEADER =
  /(?<![\p{L}-])(?:proxy-)?authorization[ \t]{0,3}[:=][ \t]{0,3}(?:basic|bearer|token|digest)[ \t]{1,3}([A-Za-z0-9+/=._~-]{16,2048})/giu;
/** Words after which digits are a date or a place, not a code ("in 2024", "seit 2019", "depuis 2020"). */
const NOT_OPENED =
  /(?:^|\s)(?:in|since|until|till|from|by|before|after|of|seit|bis|ab|vor|nach|im|depuis|en|avant|après|desde|hasta|antes|después|dal|fino|prima|dopo|sinds|tot|od|do|przed|po|с|до|после|в|jahr|year|année|año|anno|jaar|rok|год)$/iu;
const CARD_CODE = /^(?:cvv2?|cvc2?|csc)$/i;

// A password that is a plain word or two ("the wifi password is sunshine", "Passwort: Sonnenschein",
// "Пароль — черепаха"): only after a copula, colon or spaced dash and ending its clause, and never a word that says something about
// the password ("is required", "ist falsch", "est expiré") rather than being it. Its own pass rather
// than a second value test in PROSE_FAR's loop: the two read different words ("parola" here;
// "pin", "passcode", "login secret", a comma aside and more prepositions there) and copulas
// ("war", "était", "era", "is now" here; "to" there), so one match loop would change both.
const PLAIN_PASSWORD = new RegExp(
  String.raw`(?<![A-Za-z])(?:${PASSWORD_WORD}|parola|${KEY_TO_LOGIN})(?![a-zà-ÿ])(?:(?:[ \t]*,|[ \t]+(?:${PREPOSITION})(?!\p{L}))[^\n.:;!?"]{0,40}?)?[ \t]*(?:(?<!\p{L})(?:${COPULA}|${COPULA_PAST}|jest)(?:[ \t]+(?:now|jetzt|maintenant|ahora|agora|ora|теперь))?(?!\p{L})|:|(?<=[ \t])[—–](?=[ \t]))[ \t]{1,3}["'«„“]?(\p{L}{4,32}(?:[ \t]\p{L}{4,32})?)(?=["'»“”]?(?:[ \t]*(?:$|[\n.!;,)])|[ \t]+(?:and|but|und|aber|et|mais|y|pero|e|ma|и|но)(?!\p{L})))`,
  'giu',
);
/**
 * A passphrase of three to eight words ("SSH passphrase for the deploy key: correct horse battery
 * staple"): a passphrase is words by design, so more of them than PLAIN_PASSWORD's two. Prose
 * about a passphrase is told apart by its words (multiWordPassphrase).
 */
const MULTIWORD_PASSPHRASE = new RegExp(
  String.raw`(?<![A-Za-z])(?:pass ?phrase|passphrase|passfrase|phrase (?:secrète|de passe)|frase (?:de )?(?:contraseña|senha|acceso|accesso)|wachtwoordzin|kennsatz|passwortsatz)(?![a-zà-ÿ])[^\n.:;!?"]{0,40}?[ \t]*(?:(?<!\p{L})(?:${COPULA}|${COPULA_PAST})(?!\p{L})|:|[—–])[ \t]{1,3}["'«„“]?(\p{L}{2,24}(?:[ \t-]\p{L}{2,24}){2,7})(?=["'»“”]?[ \t]*(?:$|[\n.!;,)]))`,
  'giu',
);
/** Words of prose, which a passphrase of dictionary words does not string together. */
const PROSE_WORD = new Set(
  `the and for with from that this into onto was are is has have had not but you your our its his her
  their they them who what when where which there here then than been being will would should could can
  may must any all every each some only also just very use never always make pick choose der die das den dem und ist sind mit von für
  nicht auch les des est pour dans que qui avec une sur pas los las por para con del que una
  una per che con non gli della het een van voor met niet`.split(/\s+/),
);
/** A label that is about passphrases ("Passphrase tips:", "passphrase policy is"), not one's own. */
const ABOUT_PASSPHRASE =
  /(?<!\p{L})(?:tips?|hints?|advice|ideas?|examples?|rules?|policy|guidelines?|requirements?|generator|strength|length|manager|reset|tipps?|regeln|richtlinie|conseils?|règles|consejos|reglas|dicas|regras|consigli|regole)(?!\p{L})/iu;
function multiWordPassphrase(value: string): boolean {
  const ws = value.toLowerCase().split(/[ \t-]+/);
  if (ws.some((w) => w.length < 3 || PROSE_WORD.has(w) || DESCRIPTIVE_ENDING.test(w))) return false;
  return ws.filter((w) => ABOUT_PASSWORD.has(w)).length < 2;
}
/**
 * A Wi-Fi network's key ("wifi at the cabin: network Bergstua, key: fjellvann2019"): after a Wi-Fi
 * word, in the same line, a key word and a colon, then what WPA allows as a passphrase (8 to 63
 * characters).
 */
const WIFI_KEY =
  /(?<!\p{L})(?:wi-?fi|wlan|wpa[23]?|ssid|hotspot)(?!\p{L})[^\n]{0,60}?(?<!\p{L})(?:key|psk|passkey|network key|security key|schlüssel|netzwerkschlüssel|clé|clave|chave|sleutel|klucz|ключ)(?!\p{L})[ \t]{0,3}[:=：][ \t]{0,3}["'«„“]?([^\s"'»“”,;]{8,64})(?=["'»“”]?[ \t]*(?:$|[\n,;)]|[.!?](?:\s|$)))/giu;
/**
 * Two-factor recovery (backup) codes after their label and a colon ("Recovery codes for GitHub:
 * 8f3a2-b91c7 4d6e0-a2f85"): each code in the rest of the line that has a digit, six characters
 * at least, is one.
 */
const RECOVERY_CODES =
  /(?<!\p{L})(?:(?:recovery|backup|scratch|emergency|2fa|mfa|one-time|wiederherstellungs|backup-|notfall|sicherungs)[ -]?(?:codes?|kódy|kody)|codes? de (?:récupération|secours|recuperación|respaldo|recuperação)|códigos de (?:recuperación|respaldo|recuperação|backup)|codici di (?:recupero|backup)|herstelcodes|kody (?:zapasowe|odzyskiwania)|резервные коды|коды восстановления)(?!\p{L})[^\n:：]{0,40}?[:：]([^\n]{6,400})/giu;
const RECOVERY_CODE = /(?<![\p{L}\p{N}])[A-Za-z0-9]{3,10}(?:-[A-Za-z0-9]{3,10})?(?![\p{L}\p{N}])/gu;

/**
 * A plain Latin word after a Japanese or Chinese password word and its particle or colon,
 * closing the clause ("パスワードは yuzuharu です", "密码是 sunflower。"): in CJK prose a Latin word
 * there is the password itself.
 */
const CJK_PLAIN_PASSWORD =
  /(?:パスワード|密码|口令|暗証番号|パスコード)(?:[ \t]{0,3}(?:は|：|:|是|为|為)[ \t]{0,3})["'「『]?([A-Za-z]{4,32})(?=["'」』]?[ \t]*(?:です|でした|だ|。|、|，|！|$|\n))/gu;
/** Words that describe a password (or start a phrase about it) rather than being one. */
const ABOUT_PASSWORD = new Set(
  `required needed necessary mandatory optional missing empty blank wrong correct incorrect invalid valid
  expired weak strong short long secure insecure unsafe safe secret hidden private public same different
  unique new old temporary default unknown known simple complex easy hard good bad fine okay okey there
  here also still just only very quite really always never sometimes usually enough case sensitive
  mine yours theirs ours hers this that these those what which where their your none nothing something
  changed reset stored saved encrypted hashed protected shared leaked compromised set rotated
  forgotten stolen broken lost kept sent written given taken chosen
  erforderlich notwendig nötig falsch richtig ungültig gültig abgelaufen schwach stark kurz lang sicher
  unsicher geheim leer neu alt gleich bekannt unbekannt einfach gespeichert geändert verschlüsselt
  requis obligatoire facultatif faux fausse incorrect valide invalide expiré expirée faible fort forte
  court courte longue sécurisé vide nouveau nouvelle ancien ancienne même différent inconnu simple
  obligatorio obligatoria requerida requerido necesaria necesario incorrecta incorrecto válida válido
  inválida caducada débil fuerte corta larga segura seguro secreta secreto vacía nueva nuevo vieja igual
  obrigatória obrigatório necessária errada errado válida inválida expirada fraca forte curta longa
  segura secreta vazia nova antiga igual obbligatoria necessaria sbagliata corretta valida scaduta
  debole forte corta lunga sicura segreta vuota nuova vecchia uguale verplicht nodig onjuist geldig
  verlopen zwak sterk veilig geheim leeg nieuw oud wymagane błędne nieprawidłowe ważne słabe silne
  обязателен неверный неправильный верный истёк слабый сильный короткий длинный надёжный секретный
  пустой новый старый pflicht standard privatsache geheimsache sache`.split(/\s+/),
);
const DESCRIPTIVE_ENDING = /(?:ed|ing|able|ible|ly|ful|less|ous|ive|tion|ment|iert|lich|ig|isch)$/i;

/** A German password word and copula: what follows in capitals is a noun ("Schmetterling"), not a description. */
const GERMAN_COPULA = /(?:passwort|kennwort)[^\n.:;!?"]{0,40}?[ \t](?:ist|lautet|war)[ \t]+["'„“]?$/iu;

function plainPassword(word: string, germanNoun = false): boolean {
  const w = word.toLowerCase();
  const nounEnding = germanNoun && /^\p{Lu}/u.test(word);
  return !ABOUT_PASSWORD.has(w) && (nounEnding || !DESCRIPTIVE_ENDING.test(w)) && !placeholder(w);
}

/**
 * Whether a one- or two-word value is a passphrase. An -ly word describes only together with
 * what it modifies ("is easily guessed", "is rarely changed"): beside a plain word that says
 * nothing about the password it is a noun of the phrase ("dragonfly", "butterfly", "family").
 */
function plainPassphrase(value: string, germanNoun = false): boolean {
  const words = value.split(/[ \t]/);
  if (words.length !== 2) return words.every((w) => plainPassword(w, germanNoun));
  const nounInLy = (w: string, other: string): boolean =>
    /ly$/i.test(w) && !ABOUT_PASSWORD.has(w.toLowerCase()) && !placeholder(w) && plainPassword(other);
  return words.every((w, i) => plainPassword(w, germanNoun) || nounInLy(w, words[1 - i] ?? ''));
}

/**
 * A password that is a number ("A senha do cartão é 4149", "Mein Passwort ist 4711."): four
 * digits or more, all of the value, ending its clause — a card's or a door's PIN is often called
 * its password; a number that goes on ("ist 2019 abgelaufen") is no value.
 */
function numericPassword(text: string, m: RegExpMatchArray, v: string): boolean {
  if (!/^\d{4,12}$/.test(v)) return false;
  const end = (m.index ?? 0) + m[0].length;
  return v !== m[1] || /^[ \t]*(?:$|[\n,;:!?)])|^\.(?!\d)/.test(text.slice(end, end + 4));
}

export function keywordSecretRanges(text: string): Range[] {
  const out: Range[] = [];
  // `tail`: characters the match has after the group (the `@` of a URL's userinfo).
  const push = (m: RegExpMatchArray, group: number, tail = 0): void => {
    const v = m[group];
    if (v === undefined) return;
    const start = (m.index ?? 0) + m[0].length - tail - v.length;
    out.push([start, start + v.length]);
  };
  // The token group with trailing sentence punctuation dropped (`v`, a prefix of the group).
  const pushTrimmed = (m: RegExpMatchArray, v: string): void => {
    const start = (m.index ?? 0) + m[0].length - (m[1] ?? '').length;
    out.push([start, start + v.length]);
  };
  for (const m of text.matchAll(PAIR)) {
    const value = (m[4] ?? '').replace(/[.)\]]+$/, '');
    // "MAILCHIMP_KEY=…": a name ending in key holds a secret when the value is random-looking.
    const keyed = /(?:^|[_.-])key$/i.test(m[2] ?? '') && looksRandom(value);
    if ((isSecretKeyName(m[2] ?? '') && (passwordLike(value) || settingOfSecret(text, m, value))) || keyed) {
      const start = (m.index ?? 0) + m[0].length - (m[4] ?? '').length;
      out.push([start, start + value.length]);
    }
  }
  for (const m of text.matchAll(URL_USERINFO)) if (!placeholder(m[1] ?? '')) push(m, 1, 1);
  // A word ending in a colon opens a label ("password policy: at least 14 characters").
  for (const m of text.matchAll(PROSE)) {
    const v = m[1] ?? '';
    if (!/^\p{L}+[:：]$/u.test(v) && passwordLike(v.replace(/[.!?)]+$/, ''))) push(m, 1);
  }
  // A value that is the next label ("user: jkim / pass: marigold") is CREDENTIAL_PAIR's to read.
  for (const m of text.matchAll(LOGIN_PAIR))
    if (!placeholder(m[1] ?? '') && !PASSWORD_LABEL.test(m[1] ?? '')) push(m, 1);
  for (const m of text.matchAll(GENERIC)) if (looksRandom(m[1] ?? '')) push(m, 1);
  for (const m of text.matchAll(PROSE_FAR)) {
    const v = (m[1] ?? '').replace(/[.!?)]+$/, '');
    if (passwordLike(v) || numericPassword(text, m, v)) pushTrimmed(m, v);
  }
  for (const m of text.matchAll(GENERIC_FAR)) {
    const v = (m[1] ?? '').replace(/[.!?)]+$/, '');
    if (looksRandom(v)) pushTrimmed(m, v);
  }
  for (const m of text.matchAll(URL_USER_TOKEN)) if (looksRandom(m[1] ?? '')) push(m, 1, 1);
  for (const re of [PIN_PROSE, PIN_FAR]) {
    for (const m of text.matchAll(re)) {
      const digits = m[2] ?? '';
      if (CARD_CODE.test(m[1] ?? '') ? digits.length <= 4 : digits.length >= 4) push(m, 2);
    }
  }
  for (const m of text.matchAll(LOCK_CODE)) if ((m[1] ?? '').length >= 4) push(m, 1);
  for (const m of text.matchAll(COMBINATION_LOCK)) push(m, 1);
  for (const m of text.matchAll(COMBINATION_LOCK_PLACE))
    if (!NOT_OPENED.test((m[1] ?? '').replace(/[\s:：#]+$/u, ''))) push(m, 2);
  for (const m of text.matchAll(SERVICE_PASSWORD)) {
    const [service, v] = [m[1] ?? '', m[2] ?? ''];
    const named = /^\p{Lu}/u.test(service) && !ABOUT_PASSWORD_NAME.test(service);
    if (named && (passwordLike(v) || plainPassword(v))) push(m, 2);
  }
  for (const m of text.matchAll(AUTH_HEADER)) if (looksRandom(m[1] ?? '')) push(m, 1);
  // Only where the note is placed in an unread language: a short note of a read one ("the
  // password manager is 1Password", "PIN der Karte seit 2019") is its own patterns' to judge.
  if (languageReading(text) === 'unread') {
    for (const m of text.matchAll(LOANED_PASSWORD)) {
      const v = (m[1] ?? '').replace(/[.!?)]+$/, '');
      if (worldPasswordValue(v)) pushTrimmed(m, v);
    }
    for (const m of text.matchAll(LOANED_PIN)) push(m, 1);
  }
  for (const m of text.matchAll(WORLD_PASSWORD)) {
    const v = (m[1] ?? '').replace(/[.!?)]+$/, '');
    if (worldPasswordValue(v)) pushTrimmed(m, v);
  }
  for (const m of text.matchAll(PIN_OPENS)) {
    if (!CARD_CODE.test(m[1] ?? '') && !NOT_OPENED.test(m[2] ?? '')) push(m, 3);
  }
  // A passphrase of two plain words is one when neither word says something about it.
  for (const m of text.matchAll(PLAIN_PASSWORD)) {
    const before = m[0].slice(0, m[0].length - (m[1] ?? '').length);
    if (plainPassphrase(m[1] ?? '', GERMAN_COPULA.test(before))) push(m, 1);
  }
  for (const m of text.matchAll(CJK_PLAIN_PASSWORD)) if (plainPassword(m[1] ?? '')) push(m, 1);
  for (const m of text.matchAll(MULTIWORD_PASSPHRASE)) {
    const label = m[0].slice(0, m[0].length - (m[1] ?? '').length);
    if (!ABOUT_PASSPHRASE.test(label) && multiWordPassphrase(m[1] ?? '')) push(m, 1);
  }
  for (const m of text.matchAll(WIFI_KEY)) {
    const v = (m[1] ?? '').replace(/[.!?)]+$/, '');
    if (v.length >= 8 && !placeholder(v) && !ABOUT_PASSWORD.has(v.toLowerCase())) pushTrimmed(m, v);
  }
  for (const m of text.matchAll(RECOVERY_CODES)) {
    const list = m[1] ?? '';
    const at = (m.index ?? 0) + m[0].length - list.length;
    for (const c of list.matchAll(RECOVERY_CODE)) {
      if (c[0].length >= 6 && /\d/.test(c[0])) out.push([at + (c.index ?? 0), at + (c.index ?? 0) + c[0].length]);
    }
  }
  for (const m of text.matchAll(CREDENTIAL_PAIR)) {
    const v = m[2] ?? '';
    const labelled = /[:=：]/.test(m[1] ?? '') || /^\p{Lu}|[^\p{L}]/u.test(v);
    if (labelled && !placeholder(v) && !ABOUT_PASSWORD.has(v.toLowerCase())) push(m, 2);
  }
  // Whatever found it, a reference to where a secret is kept is not the secret.
  return out.filter(([a, b]) => !SECRET_REFERENCE.test(text.slice(a, b)));
}

/**
 * Indexes (in `jsonStrings` order, keys included) of string values whose own key names a
 * secret, and of every string under such a key (`"credentials": {"user": …, "pw": …}`), and
 * of a JSON Web Key's private members (`d`, `p`, `q`, `dp`, `dq`, `qi`, `k` of an object with a
 * `kty`), whose one-letter names say nothing by themselves.
 */
export function secretJsonValueIndexes(value: unknown): Set<number> {
  const hits = new Set<number>();
  let i = 0;
  const walk = (v: unknown, secret: boolean): void => {
    if (typeof v === 'string') {
      if (secret && !placeholder(v)) hits.add(i);
      i++;
    } else if (Array.isArray(v)) for (const x of v) walk(x, secret);
    else if (typeof v === 'object' && v !== null) {
      const jwk = isJwk(v);
      for (const [k, x] of Object.entries(v)) {
        i++; // the key itself
        walk(x, secret || isSecretKeyName(k) || (jwk && JWK_PRIVATE_MEMBERS.has(k)));
      }
    }
  };
  walk(value, false);
  return hits;
}
