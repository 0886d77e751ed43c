/**
 * Whether a note is written in a language the authority rules do not read (grant-lexicon.ts
 * reads English, German, French, Spanish, Portuguese, Italian, Dutch, Polish, Turkish, Russian,
 * Chinese, Japanese and Korean). Such a note cannot be judged by its grammar, so step 5 sends
 * it to a human when it also names something an order could reach (quarantine-policy.ts).
 *
 * Identified positively, never by the absence of words the rules know (a short technical note
 * has none): a script the rules do not read (Arabic, Hebrew, Greek, Devanagari, Thai, …) or
 * Ukrainian/Belarusian letters in Cyrillic; for Latin text, the function words — articles,
 * conjunctions, prepositions, pronouns, copulas, in nearly every sentence of their language —
 * of an unread language (two different ones at least, or letters only such languages write)
 * outnumbering those of every read one.
 */

export type LanguageReading = 'read' | 'unread' | 'unknown';

/** Letters of scripts the rules read: Latin, Cyrillic, Han, kana, Hangul. */
const READ_LETTER =
  /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Cyrillic letters Russian does not have: Ukrainian і ї є ґ, Belarusian ў. */
const NOT_RUSSIAN = /[іїєґў]/iu;
const LATIN_WORD = /^\p{Script=Latin}{1,24}(?:['’-]\p{Script=Latin}{1,24})?$/u;

const sets = (m: Record<string, string>): ReadonlyArray<ReadonlySet<string>> =>
  Object.values(m).map((words) => new Set(words.split(' ')));

/** Function words of the Latin-script languages the rules read. */
const READ = sets({
  en: 'the to of and is in for on with that it my you this are be at from all an will should me i we your not any every when now our their his her has have was were by as or but if they he she its them can do does been am about into after before than then there which who what where how also only just',
  de: 'der die das und ist nicht mit für ein eine den dem zu von auf ich du sie es im alle soll sollst ohne mein meine wenn jetzt auch',
  fr: 'le la les des et est pour une un du dans que qui sur pas avec au aux ne je tu vous il mon ma mes tous toutes sans',
  es: 'el la los las de del y que en un una es para por con al mi mis tu su sin todos todas se lo no a como pero más este esta',
  pt: 'o os as de do da dos das e que em um uma para com não no na meu minha sem todos se ao a é como mas seu sua',
  it: 'il lo la gli le di del della e che in un una per con non al alla mio mia senza tutti tutte sono è a se si ho ha ci da su come ma anche questo quando sempre ogni tuo tua',
  nl: 'de het een en van is dat niet met voor op te ik je jij mijn zonder alle naar nu moet',
  pl: 'i w z na nie się do że jest to od dla bez mój moja wszystkie jak po ze a o ale czy mi mnie ten ta',
  tr: 've bir bu için ile de da ne çok tüm her benim sen ben olarak artık gibi daha değil',
});
/** Function words of Latin-script languages the rules do not read. */
const UNREAD = sets({
  sv: 'och att det som är för med till inte jag du en ett på av den har ska kan alla från utan vill mig om eller',
  nb_da:
    'og at det som er for med til ikke jeg du en et på av af den har skal kan alle fra uten uden vil meg mig eller',
  fi: 'ja on ei että se kun kaikki minä sinä hän tämä mutta tai jos ovat olen myös kaikkien ilman tästä lähtien tulee pitää kanssa mukaan kuin vain nyt ennen jälkeen sinun minun',
  cs_sk:
    'a je se na to že v s z do od pro jsem jako ale nebo bez má který které všechny prosím ktoré o kdykoli všech také když jen už',
  hu: 'a az és hogy nem egy is meg van csak de mint ha minden nélkül vagy én te amikor ami amit ahol mert már még itt ott azt ezt el',
  id_ms:
    'dan yang di ke dari untuk dengan ini itu tidak akan saya anda semua tanpa harus adalah juga atau dalam sudah jadi setiap lagi bisa ada kami kita mereka pada oleh saat jika kalau',
  vi: 'của là và không được cho các những với này trong tôi bạn khi cần cứ đã sẽ từ một',
  sw: 'na ya wa kwa ni za katika hii kila bila yote zote kama sasa mimi wewe',
  ro: 'și în de la cu pe nu un o este că pentru care mai fără toate să mea meu mei mele sunt acum după dacă sau fost vor',
  hbs_sl: 'i je u na se da za ne od s sa bez sve koji ali kao ili in v pa',
  tl: 'ang ng mga sa na at ay ko mo hindi lahat',
});
/**
 * Latin letters no read language writes (Czech, Slovak, South Slavic, Baltic carons; Hungarian
 * double acutes; Romanian commas and breve; Vietnamese tone marks; Nordic å, æ, ø; Icelandic):
 * two of them count as two function words of an unread language.
 */
const UNREAD_LETTER = /[ěřůťďňčšžľĺŕőűșțăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹåæøþð]/giu;
/** Below this many Latin prose words a note is too short to say which language it is in. */
const MIN_WORDS = 5;

function best(words: readonly string[], langs: ReadonlyArray<ReadonlySet<string>>): number {
  let top = 0;
  for (const set of langs) {
    const seen = new Set<string>();
    for (const w of words) if (set.has(w)) seen.add(w);
    top = Math.max(top, seen.size);
  }
  return top;
}

/** What one reading of a note is written in, as far as the rules are concerned. */
export function languageReading(text: string): LanguageReading {
  let read = 0;
  let unread = 0;
  let latin = 0;
  let cyrillic = 0;
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue;
    if (READ_LETTER.test(ch)) read++;
    else unread++;
    if (/\p{Script=Latin}/u.test(ch)) latin++;
    else if (/\p{Script=Cyrillic}/u.test(ch)) cyrillic++;
  }
  if (unread > read) return 'unread';
  // Ukrainian letters in Cyrillic text (in Latin text, a lookalike letter is a disguise).
  if (cyrillic > latin && NOT_RUSSIAN.test(text)) return 'unread';
  // Mostly Cyrillic or CJK, which the rules read: a few Latin words are names and products.
  if (latin * 2 < read) return read > 0 ? 'read' : 'unknown';
  // Words of prose only: identifiers, keys, links and codes ("API_KEY=sk-…") say nothing of a language.
  const words = text
    .toLowerCase()
    .split(/\s+/, 400)
    .map((t) => t.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''))
    .filter((t) => LATIN_WORD.test(t));
  if (words.length < MIN_WORDS) return 'unknown';
  const known = best(words, READ);
  const other = best(words, UNREAD) + ((text.match(UNREAD_LETTER)?.length ?? 0) >= 2 ? 2 : 0);
  if (other >= 2 && other > known) return 'unread';
  return known >= 2 ? 'read' : 'unknown';
}

/**
 * A note is in an unread language when some reading of it is and none is in a read one: a
 * lookalike-letter or encoded note is judged by what it reads as once undone, and a guessing
 * decoder's gibberish reading says nothing.
 */
export function inUnreadLanguage(readings: Iterable<string>): boolean {
  let unread = false;
  for (const r of readings) {
    const l = languageReading(r);
    if (l === 'read') return false;
    if (l === 'unread') unread = true;
  }
  return unread;
}

/**
 * The assistant, addressed or named, in the unread languages (Nordic, Finnish, Czech/Slovak,
 * Hungarian, Romanian, South Slavic, Indonesian/Malay, Vietnamese, Swahili, Tagalog, Greek,
 * Ukrainian, Arabic, Hebrew, Hindi, Thai, Persian) and the loanwords all of them use, with any
 * ending ("agentti", "asistentul", "botu"). Read beside grant-lexicon's AGENT, which already
 * holds the bare words ("ai", "ki", "agent", Russian "агент…"), so those are not repeated here.
 */
export const UNREAD_ASSISTANT =
  /(?<![\p{L}\p{N}])(?:assist\p{L}*|asist\p{L}*|asszisztens\p{L}*|avustaj\p{L}*|trợ lý|msaidizi|katulong|βοηθ\p{L}*|асистент\p{L}*|помічник\p{L}*|agent\p{L}*|bot\p{L}*|المساعد|مساعد|העוזר|עוזר|सहायक|ผู้ช่วย|دستیار)(?!\p{L})/iu;

/**
 * "You", addressed, in unread languages whose scripts join a pronoun to its endings (Hindi
 * "तुम", "तुम्हें", "आपको"; Arabic "أنت"): an order there names no assistant, it speaks to one.
 */
export const UNREAD_YOU = /(?<![\p{L}\p{M}])(?:तुम|आप|أنت|انت)/u;

/**
 * What speaks of authority on its own in the unread languages, without the grammar: a control
 * skipped ("without asking", "without my confirmation"), an approval claimed as already given,
 * the operator's rules set aside, an administrator "without limits" — Nordic, Finnish,
 * Czech/Slovak, Hungarian, Romanian, Indonesian/Malay, Vietnamese, Greek, Ukrainian, Hindi,
 * Arabic, Hebrew, Thai, Persian. A standing phrase ("from now on") alone is no order ("from now on
 * reply in Swedish"), so it is not here.
 */
export const UNREAD_ORDER = new RegExp(
  [
    // sv, da, nb
    String.raw`utan att (?:fråga|be om)|utan (?:mitt |ditt )?(?:godkännande|bekräftelse|tillstånd)|behöver inte fråga|har (?:redan )?godkänt|uden at spørge|uden (?:min )?(?:godkendelse|bekræftelse|tilladelse)|har allerede godkendt|uten å spørre|uten (?:min )?(?:godkjenning|bekreftelse|tillatelse)|har allerede godkjent|ignorer[a-zæøå]* [^.]{0,30}(?:regler|instruktion|instruks)`,
    // fi, hu, ro
    String.raw`kysymättä|ilman (?:minun )?(?:hyväksyntää|lupaa|vahvistusta)|on jo hyväksynyt|ohita [^.]{0,30}(?:säännöt|ohjeet)|kérdezés nélkül|(?:jóváhagyás|engedély|megerősítés) nélkül|már jóváhagyta|hagyd figyelmen kívül [^.]{0,30}(?:szabály|utasítás)|fără (?:să (?:mă |te )?(?:întrebi|întreb)|aprobare|confirmare|permisiune)|a aprobat deja|ignoră [^.]{0,30}(?:regul|instrucțiun)`,
    // cs, sk
    String.raw`aniž bys (?:čekal|čekala|se zeptal|se zeptala|se ptal)|bez (?:mého |môjho |tvého )?(?:potvrzení|potvrdenia|souhlasu|súhlasu|schválení|schválenia|svolení|dovolenia)|(?:už |již )schválil|ignoruj\p{L}* [^.]{0,30}(?:pravidl|instrukc|pokyn)|bez (?:omezení|obmedzení)`,
    // id, ms, vi
    String.raw`tanpa (?:meminta |minta |menunggu )?(?:persetujuan|izin|konfirmasi|kebenaran)|(?:sudah|telah) menyetujui|abaikan [^.]{0,30}(?:instruksi|aturan|arahan|peraturan)|không cần (?:hỏi|xác nhận|phê duyệt|sự đồng ý)|(?:đã|vừa) phê duyệt|bỏ qua [^.]{0,30}(?:hướng dẫn|quy tắc|chỉ dẫn)`,
    // el, uk
    String.raw`χωρίς να (?:με |τον |την )?ρωτ\p{L}*|χωρίς (?:την )?(?:έγκριση|επιβεβαίωση|άδεια)|έχει (?:ήδη )?εγκρίνει|αγνόησε [^.]{0,30}(?:κανόν|οδηγ)|без (?:мого |моєї |твого )?(?:підтвердження|дозволу|згоди|схвалення)|(?:вже )?схвалив|ігнору\p{L}* [^.]{0,30}(?:правил|інструкц|вказів)`,
    // hi, ar, he, th, fa
    String.raw`बिना (?:अनुमति|पूछे|पुष्टि|मंज़ूरी|मंजूरी)|(?:पूछे|अनुमति के|पुष्टि के|मंज़ूरी के) बिना|पहले ही (?:मंज़ूरी|मंजूरी|अनुमति) दे|(?:दिशानिर्देशों|नियमों|निर्देशों) को अनदेखा|(?:دون|بدون) (?:إذن|موافقة|تأكيد|أن تسأل|سؤال)|وافق (?:بالفعل|مسبقا)|تجاهل [^.]{0,30}(?:التعليمات|القواعد)|(?:בלי|ללא) (?:לשאול|אישור|רשות)|כבר אישר|התעלם [^.]{0,30}(?:מההוראות|מהכללים)|โดยไม่ต้อง(?:ถาม|ขออนุญาต|ยืนยัน)|อนุมัติไว้แล้ว|بدون (?:اجازه|تأیید|پرسیدن)|قبلا تأیید کرده`,
  ].join('|'),
  'iu',
);

/**
 * Two records named by the same label and different numbers ("kunde 3381 … kunde 3382", "č. 5510
 * … č. 5511", "رقم 9120 … رقم 9121"): one record's data made another's, read by its shape alone
 * where the words for customer and account are not known.
 */
export function twoRecordsByLabel(text: string): boolean {
  const seen = new Map<string, string>();
  for (const m of text.toLowerCase().matchAll(/([\p{L}][\p{L}.]{0,20})[ \t:#№]{1,3}(\d{3,10})(?!\p{N})/gu)) {
    const [label, num] = [m[1]!.replace(/\.$/, ''), m[2]!];
    const other = seen.get(label);
    if (other !== undefined && other !== num) return true;
    if (seen.size < 64) seen.set(label, num);
  }
  return false;
}
