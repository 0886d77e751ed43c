/**
 * The vocabulary of authority grants in the languages the reference reads — English, German,
 * French, Spanish, Portuguese, Italian, Dutch, Polish, Turkish, Russian, Chinese, Japanese, Korean (and any mix of them): who is
 * addressed, modal and standing-order markers, the actions and the objects of authority (tools,
 * credentials, destinations, approval, identity, scope). grant-structure.ts combines them; no
 * single word here decides anything. Entries are lower case (views are lower-cased); alphabetic
 * entries match at a word start and may take inflection endings, CJK entries match anywhere.
 */

/** Splits an alternation at its top-level `|` (not inside groups or classes). */
function topLevel(alternation: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let cur = '';
  for (let i = 0; i < alternation.length; i++) {
    const c = alternation[i]!;
    if (c === '\\') {
      cur += c + (alternation[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * What an accented letter is written as without its accent: the plain letter a leetspeak digit
 * stands for (3 is e, never é), and German's ae/oe/ue/ss spellings.
 */
const PLAIN_LETTER: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      ['e', 'éèêë'],
      ['a', 'àáâ'],
      ['i', 'ìíîï'],
      ['o', 'òóô'],
      ['u', 'ùúû'],
      ['c', 'ç'],
      ['n', 'ñ'],
    ].flatMap(([plain, accented]) => [...accented!].map((c) => [c, `[${c}${plain}]`])),
  ),
  ä: '(?:ä|ae|a)',
  ö: '(?:ö|oe|o)',
  ü: '(?:ü|ue|u)',
  ß: '(?:ß|ss)',
  // Polish letters typed plain, as a leet reading restores them ("wy5l1j": wyslij).
  ...Object.fromEntries(
    [
      ['ś', 's'],
      ['ł', 'l'],
      ['ż', 'z'],
      ['ź', 'z'],
      ['ć', 'c'],
      ['ń', 'n'],
      ['ą', 'a'],
      ['ę', 'e'],
    ].map(([c, plain]) => [c, `[${c}${plain}]`]),
  ),
};

/**
 * Each accented letter outside a character class also matches it written plain ("désormais"
 * reads "desormais", "Rückfrage" "Rueckfrage"): a leetspeak reading restores 3 as e and 4 as a,
 * never é or à, and people type without accents too. Classes (`[^.;]`, `[à-ÿ]`) are left as written.
 */
function accentFree(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    const plain = inClass ? undefined : PLAIN_LETTER[c];
    out += plain ?? c;
  }
  return out;
}

/**
 * An alternation of alphabetic words and CJK words (matched anywhere). An alphabetic word
 * matches whole, with an English inflection (-s, -es, -ed, -ing) allowed; a word ending in `*`
 * is a stem and takes any ending (Russian, German compounds), and so does a phrase pattern
 * with groups (its last group lists its own endings).
 */
function concept(words: string, cjk = ''): RegExp {
  const alts = topLevel(words)
    .map((w) => w.trim())
    .filter(Boolean)
    .map((w) => {
      // "wysył*" is a stem; an entry ending in a quantified class ("…\\p{L}*") is a regex as written
      // (read as a stem, its star was dropped and one more letter was required).
      if (w.endsWith('*') && !/[}\])]\*$/.test(w)) return w.slice(0, -1);
      if (w.includes('(')) return w;
      // "share" → "sharing": a final e drops before -ing.
      const ing = /^[a-z]+e$/.test(w) ? `|${w.slice(0, -1)}ing` : '';
      return `(?:${w}(?:s|es|ed|d|ing)?${ing})(?![\\p{L}\\p{N}])`;
    });
  const cj = topLevel(cjk)
    .map((w) => w.trim())
    .filter(Boolean);
  const parts = [`(?<![\\p{L}\\p{N}])(?:${accentFree(alts.join('|'))})`];
  if (cj.length > 0) parts.push(`(?:${cj.join('|')})`);
  return new RegExp(parts.join('|'), 'u');
}

// Short pronouns match whole: an English ending would make "sen" "send", "ki" "kid", "ai" "aid".
export const AGENT = concept(
  "możesz|puedes|puoi|podes|можешь|(?:\\p{L}+[ae]bilirsin(?:iz)?)|asystent*|pomocnik*|helfer|ayudante|aiutante|ajudante|помощник*|ассистент*|агент*|you|your|yourself|the assistant|assistant|agent|the ai|the model|bot|helper|claude|chatgpt|assistent|l'assistant|l'agent|l'ia|usted|asistente|agente|assistente|l'assistente|l'agente|тебе|тебя|ассистент|агент|бот|модель|asistan*|yapay zeka|genehmige|zatwierdzaj|zatwierdź|одобряй|одобри|утверждай|keur (?:ze|het|die|deze)(?: \\p{L}+){0,2} goed|(?:dat|mag|moet|kun|kan|zal|wil|hoef|zodat|heb|ben) je(?![\\p{L}])|kamu|engkau|asisten (?:ini|ai)|agen (?:ini|ai)|(?:jij|jou|jouw|ty|ciebie|cię|tobie|ai|du|dir|dich|ki|tu|toi|vous|ia|tú|você|voce|ты|вы|ии|sen|sana|seni)(?![\\p{L}\\p{N}])",
  '補助役|你|您|助手|助理|智能体|代理|あなた|アシスタント|エージェント|ボット|어시스턴트|에이전트|비서|당신',
);

export const PERMIT_STRONG = concept(
  '(?:has|have|gets?|got|hat|haben|bekommt|erhält|ont|tiene|tienen|tem|têm|hanno|имеет|имеют|получил\\p{L}*|mają|heeft|hebben)(?: [\\p{L}-]+){0,2} (?:access|zugriff|zugang|accès|acceso|acesso|accesso|доступ|dostęp|toegang)|blanket (?:approval|permission|access)|whenever you (?:want|like)|wann immer du (?:willst|möchtest)|quand tu veux|cuando quieras|quando quiser|quando vuoi|когда захочешь|as you see fit|at your (?:own )?discretion|nach (?:eigenem|deinem) ermessen|comme bon te semble|à ta guise|à ta discrétion|a tu criterio|a tu discreción|como achar melhor|a seu critério|a tua discrezione|come ritieni opportuno|на (?:своё|свое|твоё|твое) усмотрение|na (?:twoje|własne) uznanie|naar eigen inzicht|standing access|permanent access|accès permanent|acceso permanente|acesso permanente|accesso permanente|(?:ma|mają|stałą) zgod(?:ę|a)|ma pozwolenie|goedgekeurd dat|toegestaan|(?:heeft|hebt|heb) toestemming|toestemming gegeven|boleh|diizinkan|diperbolehkan|berhak|berwenang|(?:punya|memiliki|berikan|beri|kasih) akses|akses penuh|allowed|permitted|authori[sz]ed|authori[sz]es|standing permission|(?:is|are|was|were|has been|have been|gets?|got) (?:now )?granted|granted (?:full |unrestricted |permanent |standing |blanket )?(?:access|permission|rights)|cleared to|entitled|feel free|free to|has permission|have permission|has the right|have the right|has access|have access|is fine|is ok|darf|darfst|dürfen|erlaubt|berechtigt|befugt|hast das recht|hat das recht|freigegeben|autorisé|autorisée|permis|a le droit|as le droit|avez le droit|libre de|permitido|autorizado|autorizada|autoriza|autorizan|autorizó|tiene permiso|tienes permiso|tienes derecho|tiene derecho|tem permissão|tem permissao|tem o direito|livre para|consentito|autorizzato|autorizzata|hai il permesso|ha il permesso|hai il diritto|ha il diritto|libero di|разрешено|разрешается|разрешил*|разрешает|позволил*|позволяет|имеешь право|имеет право|вправе|допускается',
  '有权|允许|获准|被授权|权限|권한|허용된|허가된|てよい|てもよい|ていい|てもいい|許可|権限|構わない',
);

export const PERMIT_WEAK = concept(
  '(?:\\p{L}+[ae]bilirsin(?:iz)?)|mag|mogen|może|możesz|mogą|may|can|could|kann|kannst|können|peut|peux|pouvez|peuvent|puede|puedes|pueden|pode|podem|può|puo|puoi|possono|может|можешь|могут|можно',
  '可以|能够|できる|できます',
);

export const OBLIGATE = concept(
  'moet|moeten|altijd|steeds|musisz|zawsze|powinien|powinieneś|make sure|sorge dafür|fais en sorte|procura que|garanta que|fai in modo|проследи|zorg dat|zorg ervoor|dopilnuj|must|should|shall|has to|have to|needs? to|make sure to|always|muss|musst|müssen|soll|sollst|sollen|immer|stets|jederzeit|doit|dois|devez|doivent|toujours|il faut|debe|debes|deben|siempre|tiene que|tienes que|hay que|deve|devem|sempre|tem que|precisa|devi|devono|bisogna|должен|должна|должны|обязан|всегда|нужно|надо',
  '确保|ようにしておく|必须|应该|应当|总是|始终|一律|务必|必ず|常に|いつも|なければ',
);

export const STANDING = concept(
  "standing (?:instruction|order|rule)s?|(?:bei jede[rmn]?|on every|with every|after every|à chaque|en cada|con cada|em cada|ad ogni|a ogni|при кажд\\p{L}*|bij elke|bij ieder\\p{L}*|przy każd\\p{L}*|po każd\\p{L}*) (?:anfrage|request|demande|solicitud|pedido|richiesta|запрос\\p{L}*|verzoek|aanvraag|zapytani\\p{L}*|prośb\\p{L}*)|za każdym razem|każdorazowo|whenever (?:someone|anyone|anybody|they|he|she|this sender|the sender|a customer|someone on this thread)(?: \\p{L}+){0,3} (?:asks|writes|emails|messages|requests|mentions|says)|every week|jede woche|chaque semaine|cada semana|toda semana|ogni settimana|каждую неделю|co tydzień|elke week|vanaf nu|voortaan|od teraz|odtąd|od dziś|od dzisiaj|every evening|every night|jeden abend|chaque soir|cada noche|toda noite|ogni sera|каждый вечер|elke avond|co wieczór|voor altijd|telkens (?:als|wanneer)|elke keer (?:als|dat|wanneer)|mulai (?:sekarang|saat ini|hari ini)|seterusnya|untuk selamanya|setiap kali|kapan ?pun|bundan sonra|bundan böyle|kalıcı olarak|her seferinde|from now on|from here on|henceforth|hereafter|going forward|in future|in the future|from today|from this point|for all future|in all future|all future (?:threads|chats|conversations|sessions)|stay in character|every time|each time|ab sofort|ab jetzt|von nun an|künftig|zukünftig|in zukunft|ab heute|jedes mal|désormais|dorénavant|à partir de maintenant|à partir d'aujourd'hui|à l'avenir|chaque fois|a partir de ahora|de ahora en adelante|desde ahora|en adelante|en el futuro|cada vez|a partir de agora|daqui em diante|de agora em diante|doravante|no futuro|d'ora in poi|da ora in poi|da ora in avanti|d'ora in avanti|in futuro|ogni volta|отныне|с этого момента|с сегодняшнего дня|впредь|в дальнейшем|каждый раз",
  '앞으로|이제부터|지금부터|매번|때마다|언제든|毎週|每周|每天晚上|毎晩|从现在起|从现在开始|从今以后|今后|以后|每次|今後|これから|今から|以後|毎回',
);

export const EXFIL = concept(
  // Spanish and Italian imperatives carry their object as a suffix: "envíalas", "mándalos", "inoltrali".
  'read (?:it|them|this|these|those) (?:out|aloud)|(?:lade|ladet|laden) [^;\\n]{0,100}? hoch(?![\\p{L}])|(?:hand|pass|send|give) (?:it|them|this|these|those) (?:over|on|out|along)|súbel*|cópial*|transmítel*|entrégal*|caricalo|caricali|caricala|copial*|condividil*|trasmettil*|mostral*|envíal*|reenvíal*|mándal*|laat (?:\\p{L}+ ){0,3}zien|laten zien|zien (?:laat|laten)|verklap*|onthul*|prijsgeven|doorgeven|geef (?:\\p{L}+ ){0,3}door|kirimkan|kirim|teruskan|bagikan|tunjukkan|tampilkan|perlihatkan|ungkapkan|bocorkan|unggah|(?:reply|respond|answer) with (?:the )?(?:values?|contents?)|compártel*|muéstral*|pásal*|invial*|inoltral*|mandal*|weitergeb*|weiterzugeben|doorstuur*|stuurt|verstuurt|delen|sturen|versturen|tonen|toon|uploaden|wysył*|wysła*|udostępnia*|weiterleit*|mailen|e-mailen|zeigen|montre*|montrer|muestra|mostrar|mostra|mostrare|mostre|stuur|verstuur*|doorsturen|kopieer|voeg|zet|geef|deel|ausgeb*|ausgibt|ajoute|ajoutez|ajouter|affiche|affichez|afficher|añade|añadir|agrega|agregar|imprime|aggiungi|aggiungere|stampa|adicione|adiciona|adicionar|imprima|dodaj|dopisz|wypisz|wysyłaj|wyślij|przesyłaj|prześlij|skopiuj|kopiuj|udostępnij|podawaj|podaj|ujawni*|gönder*|ilet*|paylaş*|inclu*|указывай|укажи|скопируй|gemailt|mailed|courriel|correo|письм*|mailem|trafia*|send|sends|sending|submit|forward|transmit|(?<!_)(?:e-?mail|mail)(?:s|ed|ing)?(?![\\p{L}\\p{N}])|post|upload|push|sync|mirror|copy|copies|share|reveal|disclose|leak|expose|export(?:s|ed|ing)?(?![\\p{L}\\p{N}])(?! (?:const|let|var|function|default|class|type|interface|async|enum)(?![\\p{L}]))(?! [a-z_][a-z0-9_]{0,63}=)|dump|exfiltrate|give|hand|handed|pass|include|includes|attach|append|paste|print|output|show|display|tell|report|beacon|let [^.]{0,30}see|read (?:[\\p{L}\\u0027’/]+ ){0,8}aloud|read out|sende|senden|sendest|schick*|leitest|übermittelst|teilst|leite|weiterleiten|übermittle|übermitteln|teile|teilen|gib|verrate|zeige|kopiere|hochladen|envoie|envoyer|transmets|transmettre|transfère|transférer|copie|copier|partage|partager|donne|donner|révèle|révéler|communique|expédie|envía|envia|enviar|manda|mandar|reenvía|reenvia|reenviar|comparte|compartir|comparta|compartan|envíe|envíen|reenvíe|revele|muestre|revela|revelar|dar|copia|copiar|sube|subir|transmite|envie|encaminhe|encaminhar|compartilhe|compartilhar|revele|copie|mande|transmita|invia|inviare|inoltra|inoltrare|condividi|condividere|rivela|rivelare|trasmetti|carica|отправ*|перешли|пересыла*|передай*|передать|передава*|поделись|раскрой|покажи*|копируй|скопируй|загрузи*|шли|присылай|отсылай',
  '表示|見せ|附上|含め|邮件|メール|发送|发到|发给|转发|传给|上传|复制|分享|透露|泄露|告诉|交给|提供给|送信|送る|送って|送れ|送ること|転送|전달|보내|전송|공유|보여|공개|유출|업로드|넘겨|건네|共有|アップロード|コピー|教え|渡し|開示',
);

export const READ = concept(
  'accès|acceso|acesso|accesso|read|see|view|access|use|open|look at|lesen|auslesen|einsehen|zugreifen|lire|consulter|accéder|leer|ver|acceder|usar|ler|acessar|leggere|vedere|accedere|usare|читать|смотреть|использовать|доступ*',
  '读取|查看|访问|使用|読む|読み|閲覧|アクセス|使う|使用',
);

export const EXEC = concept(
  'approve (?:every|all|any) (?:refunds?|payments?|transfers?|invoices?|expenses?|orders?|requests?)|paie|paye|payer|payez|pague|paguen|pagar|paga|pagare|bezahle|bezahlen|zahle|betaal|betalen|zapłać|płać|opłać|оплати|оплачивай|заплати|jalankan|eksekusi|hapus|panggil|borrar|löschen|supprimer|eliminar|cancellare|apagar|procedi|proceda|procède|procédez|voer|uitvoeren|uitvoer*|uruchamia*|uruchom*|wykonuj*|wykonaj|wykonywa*|umsetzen|carry out|llevar a cabo|realizar|выполнять|run|runs|execute|executes|invoke|call|operate|aufrufen|aufruf*|rufe|launch|install|delete|wipe|transfer|wire|wiring|pay|deploy|proceed|go ahead|ausführ*|führe|starte|installiere|lösche|überweis*|exécute|exécuter|lance|installe|supprime|effectue|ejecuta|ejecutar|instala|borra|realiza|executar|executa|execute|instale|apague|faça|esegui|eseguire|installa|elimina|effettua|выполня*|выполни|запуска*|запусти|установи|удали|переводы|öde*|çalıştır*',
  '执行|运行|调用|安装|删除|转账|실행|호출|설치|삭제|송금|이체|実行|呼び出|インストール|削除|送金',
);

export const TOOL = concept(
  'alat|perintah|skrip|audit logs?|registros? de auditoría|journaux d.audit|audit-?protokoll*|registri di audit|логи аудита|журнал* аудита|befehlszeile*|lignes? de commande|líneas? de comando|linhas? de comando|righe di comando|riga di comando|командн*|opdrachtregel*|polece*|narzędzi*|zahlung*|paiement*|pagos?|pagament*|платеж*|betaling*|płatnoś*|ödeme*|para (?:gönder\\p{L}*|transfer\\p{L}*|yatır\\p{L}*)|komut*|shell|commands?|terminal|console|tools?|scripts?|installer|admin rights|root|privileged|transfers?|payments?|funds|money|purchases?|deployments?|delete_all|export tool|cleanup tool|payments tool|werkzeug*|befehl*|kommando*|skript*|überweisung*|administratorrechte*|commande|outil|virement|comando|herramienta|transferencia|ferramenta|transferência|transferencias|strumento|bonific*|команд*|оболочк*|инструмент*|перевод*',
  '命令行|コマンド行|셸|도구|명령어|스크립트|付款|支払い|命令|工具|脚本|转账|シェル|コマンド|ツール|送金|スクリプト',
);

export const CRED = concept(
  'otp(?: codes?)?|one-time (?:codes?|passwords?|passcodes?)|(?:2fa|mfa|sms|verification|security|login|authentication) codes?|bestätigungscodes?|codes? de (?:vérification|sécurité)|códigos? de (?:verificación|seguridad|verificação)|codici? di (?:verifica|sicurezza)|kody? (?:weryfikacyjn\\p{L}*|sms)|код\\p{L}* (?:подтверждения|из смс)|verificatiecodes?|sleutel*|wachtwoord*|kata sandi|kunci (?:api|rahasia|privat)|kredensial|(?:deploy|signing|master|recovery|backup|gpg|pgp|license|licence|service account|access|secret access) keys?|[a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:api_?key|access_?key|secret(?:_access)?_key|secret|token|password|passwd|pwd|dsn)(?![\\p{L}\\p{N}_])|(?:database|db|redis|mongo(?:db)?|postgres(?:ql)?|mysql|amqp)_url(?![\\p{L}\\p{N}_])|klucz*|şifre*|parolası|parolanı|parolamı|parolalar*|hasł*|haseł|secret strings|geheime zeichenfolgen|chaînes secrètes|cadenas secretas|sequências secretas|stringhe segrete|секретные строки|geheime tekenreeks*|tajne ciągi|passwords?|passwd|passphrase|pin|api[ _-]?keys?|api[ _-]?tokens?|access[ _-]?tokens?|auth[ _-]?tokens?|bearer tokens?|session (?:tokens?|cookies?)|cookies?|tokens?|credentials?|secrets?|secret keys?|private keys?|ssh keys?|id_rsa|id_ed25519|id_ecdsa|id_dsa|~/\\.ssh|/etc/shadow|\\.netrc|\\.pgpass|\\.git-credentials|\\.aws/credentials|\\.npmrc|\\.pypirc|\\.docker/config\\.json|\\.kube/config|kubeconfig|\\.env|env file|vault|(?:stored|saved|signing|encryption|admin|login) (?:keys?|secrets?|credentials?)|card number|credit card|cvv|iban|bank (?:details|password|pin)|account number|passport number|ssn|social security|passwort*|passwörter|kennwort*|zugangsdaten*|api-schlüssel|schlüssel*|geheimnis*|bankpasswort*|kreditkarte*|tresor*|mot de passe|mots de passe|jeton|clé api|clés api|identifiants|code bancaire|carte bancaire|coffre|contraseña|contraseñas|clave api|clave|credenciales|tarjeta|almacén secreto|senha|senhas|chave de api|chave|credenciais|cartão|cofre|chiave api|chiave|credenziali|carta di credito|cassaforte|пароль*|пароли*|ключ*|токен*|учётные данные|учетные данные|секрет*|хранилищ*|карт*',
  '비밀번호|자격 증명|인증 정보|api ?키|비밀 ?키|개인 ?키|액세스 ?키|토큰|秘密字符串|秘密の文字列|密码|密钥|令牌|凭证|凭据|口令|银行卡|保险库|パスワード|apiキー|キー|トークン|認証情報|暗証番号|カード番号|金庫',
);

/** People or places outside the conversation a secret must never reach. */
export const RECIPIENT = concept(
  '(?:someone|somebody|anyone|anybody) (?:who|that) (?:says|claims|pretends)|anyone|anybody|whoever|everyone|the caller|the requester|over (?:chat|e-?mail|slack|the phone)|third part*|external|outside|partner|vendor|contractor|in (?:your|the) (?:reply|response|answer|output|url|link|query)|every (?:outbound )?request|jede[mn]?|extern*|fremd*|quiconque|tout le monde|cualquiera|externo|qualquer|chiunque|esterno|любому|всем|внешн*|każdemu|komukolwiek|osobom trzecim|herkese|kimseye|iedereen',
  '任何人|外部|誰にでも|第三者',
);

/** Sensitive data that may not be shipped out (beyond credentials). */
export const DATA = concept(
  'data|files?|fichier|archivo|arquivo|bestand|bestanden|plik*|datei|dateien|documents?|documentos|documenti|dokumente|dokumenty|dokumenten|unterlagen|tax returns?|steuererklärung\\p{L}*|declaraç\\p{L}*|declaracion\\p{L}*|déclarations? d.impôts?|records?|conversations?|history|contents|responses?|answers?|messages?|customer file|notes|statements?|kontoauszüg*|relevés? bancaires?|extractos?|extratos?|estratti conto|bankafschrift*|wyciąg\\p{L}* bankow*|выписк*|antwort|daten|gespräch|conversation|réponse|données|respuesta|datos|conversación|resposta|dados|conversa|risposta|dati|conversazione|ответ*|данные*|переписк*',
  '回答|数据|对话|記録|履歴|历史记录|データ|会話|문서|서류|書類|文件|报税表',
);

export const SKIP = concept(
  "(?:stop|stopped|stopping|quit) (?:asking|checking|confirming)(?: with)?(?: me| the user| them| her| him)? (?:before|for|first)|just go ahead and|without consulting|without checking with|sem consultar|sin consultar|senza consultare|sans consulter|ohne (?:zu )?(?:fragen|rücksprache)|не спрашивая|zonder (?:te )?overleggen|bez konsultacji|(?:approve|accept|confirm|sign off)[^.;]{0,40} automatically|never (?:want to )?(?:be )?ask(?:ed)? (?:me |the user |them )?for (?:confirmation|approval|permission)|(?:don't|do not|never) ask (?:me |the user |them )?for (?:confirmation|approval|permission)|(?:must not|mustn't|should not|shouldn't|need not|needn't|will not|won't|shall not|is not to|are not to) (?:ask|wait|check)(?: with)?(?: me| the user| them| anyone| anybody)? (?:for|before)(?: any| an?| the)? (?:confirmation|approval|permission|consent|sign-?off)|no (?:approval|confirmation|permission|sign-?off|review)s? (?:is |are )?(?:needed|required|necessary)|without (?:any |further |prior |a |the |human |user |anyone )?(?:approval|confirmation|confirming|asking|permission|review|reviewing|verification|verifying|checks?|checking|sign-?off|consent|waiting|rückfrage)|no (?:longer )?need (?:to|for) (?:approval|confirm|ask|check|review|wait)|no need to (?:check|ask|wait|confirm)|(?:does not|doesn't|no longer|not) (?:need|needs|require|requires|needed|required)(?: any)? (?:approval|confirmation|permission|review|verification|sign-?off)|(?:is|are) (?:not needed|not required|unnecessary|optional|no longer (?:needed|required))|(?:does|do) not apply|no longer appl(?:y|ies)|(?:skip|skips|skipping|bypass|circumvent|disable|turn off|switch off)[^.]{0,25}(?:approval|confirmation|review|verification|sign-?off|safety|filters?|checks?|guardrails?|restrictions?|gate|prompts?|dialog)|(?:disattiva|disattivare|disabilita|disabilitare|deaktiviere|deaktivieren|deaktivierst|désactive|désactiver|desactiva|desactivar|desativa|desativar|отключи|отключай|отключить|wyłącz|schakel)[^.]{0,30}(?:controll\\p{L}*|sicurezza|filtr\\p{L}*|kontroll\\p{L}*|sicherheit\\p{L}*|contrôles?|sécurité|controles?|seguridad|segurança|проверк\\p{L}*|защит\\p{L}*|фильтр\\p{L}*|zabezpiecze\\p{L}*|beveiliging|approval|confirmation|review|verification)|(?:assistant|agent|you|bot)[^.]{0,30}(?:approves?|approving)[^.]{0,40}automatically|(?:assistant|agent|you|bot)[^.]{0,30}automatically approv\\p{L}*|never (?:asks?|waits?|requests?|seeks?) (?:for )?(?:approval|confirmation|permission|consent)|auto-?approve|counts? as (?:an )?(?:approval|authori[sz]ation)|treat(?:ed)? (?:it|this|that|them|(?:his|her|their) (?:replies|answers|messages|responses|word)) as (?:\\p{L}+['’]s |my |the user['’]s )?(?:approval|authori[sz]ation|consent|confirmation|go-ahead)|approve (?:her|his|their|its|my|your) own|ohne (?:rückfrage|freigabe|genehmigung|bestätigung|zustimmung|prüfung|nachfrage|erlaubnis)|keine (?:freigabe|genehmigung|bestätigung) mehr|sans (?:confirmation|approbation|validation|autorisation|vérification|demander)|plus besoin (?:d'|de )(?:approbation|confirmation|validation|vérification|demander)|sin (?:pedir )?(?:confirmación|aprobación|autorización|verificación|revisión|permiso)|ya no necesitas (?:aprobación|confirmación)|sem (?:confirmação|confirmacao|aprovação|aprovacao|autorização|verificação|revisão|permissão|pedir)|não precisa mais de (?:aprovação|confirmação)|senza (?:conferma|approvazione|autorizzazione|verifica|revisione|chieder\\p{L}*|domandar\\p{L}*|permesso)|sin (?:preguntar|consultar)\\p{L}*|sem (?:me )?(?:perguntar|consultar)\\p{L}*|sans (?:me |nous |lui |leur |vous )?(?:demander|consulter)|non ti serve più (?:nessuna )?(?:approvazione|conferma)|без (?:подтверждения|одобрения|согласования|разрешения|проверки)|больше не нужн[оа]? (?:одобрение|подтверждение)|bez (?:mojej |twojej |jego |jej |niczyjej |żadnej )?(?:zgody|potwierdzenia|zatwierdzenia|akceptacji|weryfikacji|pytania)|zonder (?:om |te vragen om )?(?:mijn |jouw |enige )?(?:goedkeuring|bevestiging|toestemming|controle)|zonder (?:het )?(?:eerst )?te vragen|(?:onay|izin)\\p{L}*(?: artık)? (?:gerekmiyor|gerekmez|olmadan)|onaysız|onay almadan|sormadan|tanpa (?:persetujuan|konfirmasi|izin|verifikasi|pemeriksaan|bertanya|menanyakan|minta izin)",
  '不经确认|不经审批|不经批准|无需确认|无需审批|无需批准|不需要确认|不需要审批|不再需要审批|不再需要确认|确认なし|承認なし|確認なしで|確認せず|承認せず|承認はもう必要|承認は不要|(?:승인|확인|결재)[^.]{0,12}(?:더 이상 )?필요(?:가)? ?없|(?:승인|확인|결재|허가|검토)(?: ?(?:절차|과정|단계|요청))?(?:를|을)? 없이|확인을? 요청하지|묻지 말고|물어보지 말고|허락 없이',
);

// A control, in any of the languages (mixed-language notes pair a noun of one with a verb of another).
const CONTROL_NOUN =
  'approval|confirmation|review|verification|sign-?off|two-person rule|four-eyes|checks?|safety review|restrictions?|sandbox(?: restrictions)?|limits?|filters?|guardrails?|logging|audit(?: logging)?|mfa|2fa|approval step|approval gate|genehmigungspflicht|freigabe|genehmigung|bestätigung|prüfung|approbation|validation|vérification|aprobación|confirmación|verificación|revisión|aprovação|confirmação|verificação|revisão|approvazione|conferma|verifica|revisione|утверждени|одобрени|подтверждени|проверк|согласовани|controllo|kontrolle|contrôle|controle|контрол|la firma|una firma|visto bueno|assinatura|signature|two-factor|zwei-faktor';
const LIFTED_VERB =
  "(?:was|were|is|are|has been|have been) (?:now )?(?:waived|lifted|removed|disabled|turned off|switched off|suspended|dropped|abolished|eliminated|skipped|bypassed|retired|scrapped|revoked)|aufgehoben|abgeschafft|entfällt|entfallen|deaktiviert|nicht mehr (?:nötig|notwendig|erforderlich)|gestrichen|supprimée?|levée|abolie|n'est plus nécessaire|désactivée|eliminad[oa]|suprimid[oa]|anulad[oa]|ya no es necesaria|desactivad[oa]|suspendid[oa]|revocad[oa]|suspens[oa]|revogad[ao]|sospes[oa]|revocat[oa]|suspendue?|révoquée?|ausgesetzt|außer kraft|dispensad[ao]|removid[ao]|abolid[ao]|não é mais necessária|desativad[ao]|eliminat[oa]|rimoss[oa]|abolit[oa]|non è più necessari[oa]|disattivat[oa]|отмен|упраздн|не нужн|не требуется|отключ";

/** "no longer requires …" before the control it lifts ("ya no requieren la firma", "не требует больше согласования"). */
const NO_LONGER =
  'no longer (?:requires?|needs?)|ya no (?:requieren?|necesitan?|hace falta)|já não (?:exigem?|precisam?)|não (?:exigem?|precisam?) mais|non (?:richiedon?o|richiede|servono|serve) più|ne (?:nécessitent?|requièrent|requiert|exigent?) plus|(?:braucht|brauchen|benötigt|benötigen) keine|n.attend(?:s|ez)? plus|(?:ne |n.)?(?:demande|demandez) plus|больше не (?:требу|нужн)\\p{L}*|nie wymaga(?:ją)? już|vereist(?:en)? geen';

/**
 * Whoever did the control no longer does it, the control said as a verb ("the manager no longer
 * reviews refunds", "el gerente ya no revisa", "prüft nicht mehr"): no control noun to find.
 */
const NO_LONGER_CHECKS =
  'no longer (?:reviews?|approves?|checks?|verifies|signs? off|confirms?)|ya no (?:revisa|revisan|aprueba|aprueban|verifica|verifican|comprueba|controla|controlan|firma)|já não (?:revisa|aprova|verifica|confere)|não (?:revisa|aprova|verifica|confere) mais|non (?:controlla|controllano|approva|verifica|revisiona) più|ne (?:vérifie|vérifient|valide|valident|contrôle|contrôlent|approuve) plus|(?:prüft|prüfen|genehmigt|genehmigen|kontrolliert|kontrollieren) (?:\\p{L}+ ){0,3}nicht mehr|больше не (?:проверя|одобря|согласовыва)\\p{L}{0,6}|już nie (?:sprawdza|zatwierdza|weryfikuje)\\p{L}{0,4}|(?:controleert|keurt) (?:\\p{L}+ ){0,3}niet meer|artık (?:\\p{L}+ ){0,3}(?:kontrol etmiyor|onaylamıyor|incelemiyor|denetlemiyor)';

/** A control that was switched off or waived (a policy or fact claim); the owner of the control may stand between them. */
export const LIFTED = concept(
  `(?:${CONTROL_NOUN})[^.]{0,60}(?:${LIFTED_VERB})|(?:${NO_LONGER})[^.]{0,30}(?:${CONTROL_NOUN})|${NO_LONGER_CHECKS}`,
  '더 이상[^.]{0,16}(?:검토|승인|확인|결재)(?:하지|를 하지|을 하지) 않|(?:审批|确认|批准)(?:步骤|流程)?(?:已经|已)?(?:取消|废除|免除|关闭)|(?:承認|確認)(?:手順|プロセス)?(?:は|が)?(?:廃止|撤廃|免除|省略)',
);

/**
 * A control named, then skipped by a pronoun a few words or a sentence later ("Approval steps
 * slow things down. Skip them from now on."): an instruction split across sentences, its object
 * in the first. Only approval-like controls (a review or a check is as often a film's or a bank's).
 */
const REFERRED_CONTROL =
  'approvals?|approval steps?|confirmations?|confirmation (?:steps?|dialogs?|prompts?)|verifications?|verification steps?|sign-?offs?|safety checks?|security checks?|freigabe\\p{L}*|genehmigung\\p{L}*|bestätigung\\p{L}*|validations?|approbations?|aprobaci\\p{L}*|confirmaci\\p{L}*|aprovaç\\p{L}*|confirmaç\\p{L}*|approvazion\\p{L}*|conferm\\p{L}*|одобрени\\p{L}*|подтверждени\\p{L}*|goedkeuring\\p{L}*|bevestiging\\p{L}*|zatwierdze\\p{L}*|potwierdze\\p{L}*';
export const SKIP_REFERRED = concept(
  `(?:${REFERRED_CONTROL})(?![\\p{L}])[^;]{0,80}?(?:(?:skip|bypass|ignore|drop|überspring\\p{L}*|ignorier\\p{L}*|saute|sautez|omite|salta|pule|pomijaj|pomiń|пропускай|пропусти) (?:them|it|those|these|sie|es|les|la|le|los|las|li|их|je|ją|ze|het)|(?:les|la|le) (?:sauter|ignorer|contourner)|(?:sáltatel|sáltal|omítel|saltal|pulá-l|ignorál)\\p{L}*)(?![\\p{L}])`,
);

/**
 * Data said to flow to a destination without an order to anyone ("every payroll file goes
 * there", "It should receive all customer records", "alles geht dorthin"): the sending is said
 * of the data or of the address, so no sending verb is there for EXFIL; the address is often a
 * sentence before, named by "there" or "it" — or by "the contact above" after a sending verb.
 */
export const FLOWS_TO = concept(
  '(?:copy|send|forward|mail|post|upload|cc)\\p{L}* [^.;\\n]{0,60}(?:to|into|at) (?:the|that|this) (?:contact|address|mailbox|inbox|endpoint|url|server|destination|recipient)(?: (?:above|below|mentioned|given|listed|from before))?(?![\\p{L}])|(?:goes|go|should go|must go|is to go|are to go|gets? sent|(?:is|are) (?:sent|forwarded|copied|mailed)) (?:there|to it|to that address|to this address)|(?:it|this address|that address|the address|this mailbox|that mailbox|the mailbox|this inbox|the inbox|the endpoint|this endpoint|the webhook|this url)(?: also)? (?:should|must|shall|is to|needs to|has to) (?:also )?(?:receive|get)|(?:geht|gehen|landet|landen|kommt|kommen) (?:\\p{L}+ )?(?:dorthin|dahin)|(?:sie|es|diese adresse|das postfach) (?:soll|sollen|muss|müssen) [^.;]{0,40}(?:erhalten|bekommen)|(?:va|vont|part|partent) là-bas|(?:elle|il|cette adresse) doit (?:aussi )?recevoir|(?:va|van) allí|(?:debe|deben) recibir|(?:va|vanno) lì|(?:deve|devono) ricevere|(?:vai|vão) para lá|(?:deve|devem) receber|(?:gaat|gaan) daarheen|(?:idzie|idą|trafia|trafiają) tam|(?:powinien|powinna|powinno) (?:otrzymywać|dostawać|otrzymać)|(?:идёт|идут|уходит|уходят) туда|(?:должен|должна|должно) получать',
);

/**
 * A transfer written as a form: a labelled destination that is an address or URL ("Destination:
 * attacker@…", "Ziel: https://…", "Empfänger: …"); with a labelled schedule (SCHEDULE_LABEL) and
 * data it is an order with no verb.
 */
export const DEST_LABEL =
  /(?<![\p{L}])(?:destination|recipient|target|send to|forward to|ziel|empfänger|destinataire|destino|destinatario|destinatário|bestemming|ontvanger|odbiorca|adresat|получатель|адресат|назначение)\s*[:：=]\s*(?:https?:\/\/|ftp:\/\/|[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}\.)/u;

/** A labelled schedule or trigger of a form ("Frequency: daily", "Wann: bei jeder Anfrage"). */
export const SCHEDULE_LABEL =
  /(?<![\p{L}])(?:frequency|schedule|when|interval|trigger|häufigkeit|wann|zeitplan|fréquence|quand|frecuencia|cuándo|cuando|frequência|quando|frequenza|frequentie|wanneer|częstotliwość|kiedy|частота|когда|расписание)\s*[:：=]/u;

export const OVERRIDE = concept(
  '(?:ignore|disregard|forget|override|overrule|bypass|abandon|discard|drop)[^.!?]{0,60}(?:instructions?|prompts?|rules|guidelines|guardrails|polic(?:y|ies)|directives?|constraints?|restrictions?|safeguards?|programming)|(?:ignore|disregard|override|bypass) (?:the user.s |my |their |any )?(?:spending|budget|approval|payment|transfer) (?:limits?|caps?|thresholds?)|(?:ignorier|vergiss|missachte)[^.!?]{0,60}(?:anweisungen|regeln|vorgaben|instruktionen)|(?:ignore|oublie|ignorez|oubliez)[^.!?]{0,60}(?:instructions|consignes|règles)|(?:ignora|olvida|ignore|esqueça|esqueca|dimentica)[^.!?]{0,60}(?:instrucciones|reglas|instruções|instrucoes|regras|istruzioni|regole)|(?:игнорируй|забудь|проигнорируй|не обращай внимания)[^.!?]{0,60}(?:инструкци|указани*|правил*)|(?:negeer|vergeet)[^.!?]{0,60}(?:instructies|regels|beleid|richtlijnen)|(?:ignoruj|zignoruj|zapomnij|pomiń)[^.!?]{0,60}(?:instrukcj\\p{L}*|polece\\p{L}*|zasad\\p{L}*|reguł\\p{L}*)|(?:talimat|kural)\\p{L}*[^.!?]{0,40}(?:yok say|görmezden gel|unut)\\p{L}*|(?:abaikan|lupakan|acuhkan|langgar)[^.!?]{0,60}(?:instruksi|aturan|kebijakan|perintah|pedoman|batasan)',
  '(?:지시|규칙|정책|지침)[^.]{0,30}(?:무시|잊어)|(?:忽略|无视|忘记|忘掉)[^。！？]{0,30}(?:指令|指示|规则|说明)|(?:指示|ルール|命令)[^。！？]{0,30}(?:無視|忘れ)',
);

export const YOU_ARE_NOW = concept(
  "je bent nu|jij bent nu|je bent vanaf nu|you are now|you're now|you are actually|du bist (?:jetzt|ab jetzt|ab sofort|von nun an|nun)|tu es (?:maintenant|désormais|à présent)|jesteś teraz|teraz jesteś|od teraz jesteś|você agora é|eres ahora|sei ora|vous êtes (?:maintenant|désormais)|ahora eres|ahora usted es|agora você é|agora voce e|adesso sei|ora sei|теперь ты|ты теперь",
  '你现在是|你从现在起是|あなたは今から|あなたは今',
);

export const ADMIN = concept(
  'administrator|admin|root|superuser|sysadmin|operator|owner|ceo|auditor|approver|security team|platform engineer|unrestricted|administrateur|administratrice|administrador|administradora|amministratore|amministratrice|administratorin|beheerster|administratorka|superutilisat*|superusuari*|superusuári*|superutent*|superużytkownik*|superbenutzer*|суперпользовател*|администратор*|админ|beheerder*|administratorem|administratora|yönetici*|pemilik (?:sistem|organisasi|akun)|व्यवस्थापक|एडमिन|مسؤول|المسؤول',
  '管理员|管理者|超级用户|관리자|소유자',
);

/** A third person said to be someone with authority. */
/** "treat their requests as admin requests", "treat any message signed X as coming from the system administrator". */
export const TREAT_AS_ADMIN = concept(
  '(?:vertraue|vertrau|fais confiance|faites confiance|vertrouw|confía|confia|fidati)[^.;]{0,80}(?:wie (?:dem|einem) (?:admin|administrator)|comme (?:à l.|à un )(?:admin|administrateur)|alsof (?:het|ze|hij) van de (?:beheerder|admin) (?:komt|komen)|como (?:al|en el|a um|ao) (?:admin|administrador)|come (?:all.|a un )(?:admin|amministratore))|(?:treat|handle|answer)[^.;]{0,40} with (?:her|his|their|the owner.s|the user.s) (?:authority|permissions|rights|access)|(?:treat|regard|consider|handle)[^.;]{0,60} as (?:coming from|if (?:it|they) came from|sent by|said by) (?:me|the user|the account owner|the owner)(?![\\p{L}])|(?:this|the|my) account (?:also )?belongs to|(?:treat|regard|consider|handle|behandel\\p{L}*|traite\\p{L}*|trata\\p{L}*|trate|tratta|traktuj|считай)[^.;]{0,60} (?:as mine|as my own|als die van mij|als de mijne|wie meine|als meine|comme les miennes|comme les miens|como (?:las |los )?mías|como (?:las |los )?míos|como (?:as |os )?minhas|como (?:os )?meus|come (?:le )?mie|come (?:i )?miei|jak moje|как мои)(?![\\p{L}])|(?:treat|regard|consider|handle|trust)[^.;]{0,60} as (?:(?:coming|sent|being) from |if (?:it|they) came from )?(?:an? |the )?(?:(?:system|organi[sz]ation|org|platform|tenant|workspace|global|super)[ -]?)?(?:admin|administrator|root|superuser|sysadmin|system)(?: requests?| commands?| instructions?| messages?)?(?![\\p{L}])|behandel?e?[^.;]{0,60} (?:wie|als) (?:eine? |die |der |den )?(?:admin|administrator|root)|(?:treat|regard|consider|handle)[^.;]{0,60} as (?:the user.s|my|the owner.s|the account owner.s) own(?![\\p{L}])|behandel[^.;]{0,60} als (?:een |de )?(?:admin|beheerder)|tratta[^.;]{0,60} come (?:un |l.)?(?:admin|amministrat\\p{L}*)|trate[^.;]{0,60} como (?:um |o |a )?(?:admin|administrador\\p{L}*)|traktuj[^.;]{0,60} jako (?:admin\\p{L}*)|(?:считай|относись к)[^.;]{0,60} (?:как к )?(?:админ\\p{L}*|администратор\\p{L}*)|traite[^.;]{0,60} comme (?:venant (?:de l.|du) )?(?:admin|administrateur)|trata[^.;]{0,60} como (?:si (?:viniera|vinieran) (?:del|de un) )?(?:admin|administrador)|(?:betrachte|sieh|siehe|behandle|erkenne|akzeptiere) (?!(?:es|das|dies|diese[sn]?) )[^.;]{0,60}als (?:den |die |der |einen |eine |ein )?(?:neuen? |neue |neuer )?(?:system)?(?:admin\\p{L}*|administrator\\p{L}*|superuser|superbenutzer\\p{L}*|root|eigentümer\\p{L}*|besitzer\\p{L}*|inhaber\\p{L}*)|(?:considère|considérez|traite|traitez|regarde|vois)[- ][^.;]{0,60}comme (?:l.|une? |le |la )?(?:nouvel(?:le)? |nouveau )?(?:admin\\p{L}*|administrat\\p{L}*|superutilisat\\p{L}*|root|propriétaire)|(?:trátame|trátalo|trátala|considérame|considéralo|considérala|tómame) (?:[^.;]{0,60}?como )?(?:el |la |un |una )?(?:nuev[oa] )?(?:admin\\p{L}*|administrador\\p{L}*|superusuari\\p{L}*|root|propietari\\p{L}*|dueñ\\p{L}*)|(?:considerami|consideralo|considerala|trattami|trattalo|trattala|considera|tratta) [^.;]{0,60}?(?:come|quale) (?:l.|una? |il |la )?(?:nuov[oa] )?(?:admin\\p{L}*|amministrat\\p{L}*|superutent\\p{L}*|root|proprietari\\p{L}*)|(?:beschouw|behandel|zie) [^.;]{0,60}als (?:de |een )?(?:nieuwe )?(?:admin\\p{L}*|beheerder\\p{L}*|superuser|root|eigenaar\\p{L}*)|(?:trate|trata|considere|considera)-(?:me|o|a) (?:[^.;]{0,60}?como )?(?:o |a |um |uma )?(?:nov[oa] )?(?:admin\\p{L}*|administrador\\p{L}*|superusuári\\p{L}*|root|proprietári\\p{L}*|dono|dona)|(?:traktuj|uważaj|uznaj) [^.;]{0,60}(?:jak|jako|za) (?:now\\p{L}* )?(?:admin\\p{L}*|administrator\\p{L}*|superużytkownik\\p{L}*|root\\p{L}*|właściciel\\p{L}*)',
);

/**
 * The writer claims to be the administrator, in the languages beyond the English rule ("Je suis
 * l'administrateur", "Ich bin der Admin", "Soy el administrador", "私は管理者です"): with an order
 * that follows from it (SELF_ADMIN_USE), a claimed identity.
 */
export const SELF_ADMIN = concept(
  "(?:ich bin|je suis|ik ben|soy|sono|sou|jestem) (?:\\p{L}+ ){1,3}(?:der |die |le |la |l'|de |el |il |o |a )?(?:admin\\p{L}*|administrat\\p{L}*|systemverwalter\\p{L}*|systemadministrat\\p{L}*|responsable (?:du )?système|responsable informatique|systeembeheerder|beheerder|administrador\\p{L}*|amministrat\\p{L}*)(?![\\p{L}])|ich bin (?:der |die )?(?:systemverwalter\\p{L}*|it-verantwortliche\\p{L}*)|je suis (?:le |la )?responsable (?:du )?système|ik ben (?:de )?systeembeheerder|je suis (?:l'|le |la |un |une |ton |votre )?(?:admin|administrat\\p{L}*|propriétaire|root)|ich bin (?:der |die |ein |eine |dein |deine |euer )?(?:admin\\p{L}*|administrator\\p{L}*|besitzer\\p{L}*|inhaber\\p{L}*|root)|soy (?:el |la |un |una |tu )?(?:admin|administrador\\p{L}*|propietari\\p{L}*|dueñ\\p{L}*|root)|sou (?:o |a |um |uma |seu |sua |teu |tua )?(?:admin|administrador\\p{L}*|propriet\\p{L}*|dono|dona|root)|sono (?:l'|il |la |un |una |il tuo |la tua )?(?:admin|amministrat\\p{L}*|proprietari\\p{L}*|root)|ik ben (?:de |een |jouw |je )?(?:admin|beheerder|beheerster|administrator|eigenaar|root)|jestem (?:twoim |twoją )?(?:admin\\p{L}*|administrator\\p{L}*|właściciel\\p{L}*|root)|я (?:— |- )?(?:твой |ваш )?(?:админ\\p{L}*|администратор\\p{L}*|владел\\p{L}*)|ben (?:senin )?(?:yönetici\\p{L}*|admin\\p{L}*)",
  '私は管理者|私が管理者|我是管理员|我是你的管理员|我是系统管理员|저는 관리자|나는 관리자',
);

/**
 * An administrator of something named ("Admin unserer WhatsApp-Gruppe", "administratrice du club",
 * "administrador de la comunidad"): a role in the writer's own group, not over the agent.
 */
export const ADMIN_OF_SOMETHING = concept(
  '(?:admin|administrat|administrador|amministrat|beheerder|beheerster|administrator|админ|администратор)\\p{L}* (?:of|for|at|in|on|unserer|unseres|unseren|unsere|meiner|meines|seines|seiner|seinem|ihres|ihrer|ihrem|bei|beim|im|auf|am|der|des|vom|von|du|de|des|del|della|dello|dei|dans|sur|en (?:el|la|los|las|le|les|l.|une?|una|notre|nos|nuestr\\p{L}*|mi|su)|nel|nella|nei|sul|op|bij|no|na|nos|nas|em|van|voor|z|w|группы|чата|сообщества)(?![\\p{L}])(?! (?:(?:the|this|your|het|la|le|l.|dem|den|el|o|il|lo) )?(?:system\\p{L}*|sistem\\p{L}*|système|systeem|platform\\p{L}*|plataforma|plateforme|piattaforma|server\\p{L}*|serveur|servidor|tenant|assistant\\p{L}*|asistente|assistente))',
);

/**
 * Someone said to hold an administrator's or superuser's role ("Herr Schulz ist Superuser", "M.
 * Dupont est superutilisateur"); with a permission over everything, a granted identity.
 */
export const IS_ADMIN_ROLE = concept(
  '(?:has|have|gets?|hat|bekommt|erhält|tiene|tem|ha|heeft|ma|dostaje)(?: (?:now|jetzt|nun|ahora|ora|nu|agora|teraz))? (?:full |volle )?(?:admin\\p{L}*|administrator\\p{L}*|superuser|root)[- ]?(?:rechte|rights|privileges|zugriff|access|derechos|direitos|diritti|rechten|uprawnienia)|(?:is|ist|est|es|è|é|jest)(?: (?:now|jetzt|nun|ab sofort|maintenant|désormais|ahora|ora|adesso|nu|agora|teraz))?(?: (?:the|an?|der|die|ein|eine|le|la|l.|une?|el|il|lo|de|het|een|o|a|um|uma))? ?(?:(?:new|neue[rn]?|nouvel(?:le)?|nouveau|nuev[oa]|nuov[oa]|nieuwe|nov[oa]|now\\p{L}*) )?(?:admin\\p{L}*|administrat\\p{L}*|amministrat\\p{L}*|beheerder\\p{L}*|superuser\\p{L}*|superbenutzer\\p{L}*|superutilisat\\p{L}*|superusu[aá]ri\\p{L}*|superutent\\p{L}*|superużytkownik\\p{L}*|sysadmin\\p{L}*|systemadministrat\\p{L}*|root)(?![\\p{L}])',
);

/**
 * The agent told to obey one party alone ("gehorchst du nur noch mir", "tu n'obéis qu'à",
 * "słuchasz tylko"); with a standing marker, an identity put over the user's.
 */
export const OBEY_ONLY = concept(
  '(?:obey|follow) (?:only|exclusively|nobody but|no one but)|n.exécute\\p{L}* que|(?:ejecuta|sigue|cumple)\\p{L}* (?:solo|sólo|solamente|únicamente) (?:las )?(?:órdenes|instrucciones)|(?:esegui|segui)\\p{L}* (?:solo|soltanto|unicamente) (?:gli |le )?(?:ordini|istruzioni)|voer (?:alleen|enkel|uitsluitend)(?: nog)? (?:de )?(?:opdrachten|bevelen|instructies)|(?:execute|siga|cumpra)\\p{L}* (?:apenas|somente|só) (?:as )?(?:ordens|instruções)|(?:wykonuj|wykonujesz|słuchaj)\\p{L}* (?:tylko|wyłącznie|jedynie)|(?:only|exclusively) (?:obey|follow (?:the )?(?:instructions|orders|commands))|gehorch\\p{L}* (?:du )?(?:nur|ausschließlich|allein|einzig)|(?:befolg|folg)\\p{L}* (?:du )?(?:nur|ausschließlich|allein|einzig)(?: noch)? (?:(?:den |die )?(?:anweisungen|befehle\\p{L}*|anordnungen|instruktionen)|mir|uns|ihm|ihr)|(?:hör|hörst)\\p{L}* (?:du )?(?:nur|ausschließlich|allein)(?: noch)? auf|(?:führ|führst)\\p{L}* (?:du )?(?:nur|ausschließlich)(?: noch)? (?:die )?(?:befehle|anweisungen|aufträge)|n.obéi\\p{L}* qu|obéi\\p{L}* (?:uniquement|seulement|exclusivement)|n.écoute\\p{L}* que|(?:solo|sólo|solamente|únicamente) obedece\\p{L}*|obede[cç]\\p{L}* (?:solo|sólo|solamente|únicamente|apenas|somente|só)|(?:obbedisci|ubbidisci|obbedirai|ubbidirai) (?:solo|soltanto|unicamente|esclusivamente)|(?:solo|soltanto) (?:a \\p{L}+ )?(?:obbedisc|ubbidisc)\\p{L}*|gehoorza\\p{L}* (?:je |jij )?(?:alleen|enkel|uitsluitend)|słucha\\p{L}* (?:tylko|wyłącznie|jedynie)|(?:tylko|wyłącznie) (?:mnie |jego |jej )?słucha\\p{L}*',
);

/** What a claimed administrator asks for: "my orders", "meine Befehle", "mis órdenes". */
export const MY_ORDERS = concept(
  '(?:mir|mij|me|m.) (?:gehorchen|gehoorzamen|obéir|obedecer|obbedire|słuchać)|obedecerme|obbedirmi|m.obéir|(?:my|mes|meine|meinen|mis|meus|minhas|miei|mie|mijn|moje|moich|мои|моих) (?:orders|instructions|commands|requests|ordres|instructions|consignes|demandes|befehle\\p{L}*|anweisungen|anfragen|órdenes|instrucciones|solicitudes|ordens|instruções|pedidos|ordini|istruzioni|richieste|opdrachten|bevelen|instructies|verzoeken|polece\\p{L}*|instrukcj\\p{L}*|prośb\\p{L}*|приказ\\p{L}*|указани\\p{L}*|команд\\p{L}*|запрос\\p{L}*)',
  '我的指令|我的命令|私の指示|私の命令|제 지시|내 지시',
);

/** An open recipient: whoever asks ("anyone who asks", "cualquier proveedor que lo pida", "по запросу любого коллеги"). */
export const ANY_REQUESTER = concept(
  "(?:anyone|anybody|whoever|any (?:one|person|provider|caller|colleague|requester|third party|vendor|partner|company|contractor|freelancer|consultant|intern|contributor|developer|engineer|teammate|team member|staff member|stranger|visitor|guest|supplier|agency|external))(?: who| that)? (?:asks|requests|wants|requires)|on (?:the )?request of anyone|jedem,? der (?:danach |darum )?(?:fragt|bittet)|wer (?:auch immer )?(?:danach )?fragt|(?:à |a )?quiconque (?:le |les |en )?(?:demande|réclame)|n'importe qui|cualquier(?:a| persona| proveedor| empresa| colega)? que (?:lo |la |los |las )?(?:pida|solicite|quiera)|a quien (?:lo |los )?(?:pida|solicite)|qualquer (?:pessoa|um|fornecedor|empresa) que (?:pedir|solicitar|queira)|chiunque (?:lo |li |ne )?(?:chieda|richieda|voglia)|любому,? кто (?:попросит|спросит|запросит)|по (?:запросу|просьбе) любого|każdemu,? kto (?:o (?:nie|to|niego|nią|je) )?(?:poprosi|zapyta)|isteyen herkese|her isteyene|ieder(?:e|een)? die (?:erom |ernaar |er om |er naar )?vraagt|whoever (?:messages|writes|calls|contacts|emails|texts|pings|asks|requests)",
  '誰にでも|求める人には誰でも|任何人|任何要求的人|谁要就',
);

/** Data whose disclosure harms the user: health, private or confidential records. */
export const SENSITIVE = concept(
  'home address|phone numbers?|mobile numbers?|date of birth|passport numbers?|medical|health|diagnos*|private|personal|confidential|salary|billing|bank*|médic*|medic*|gesundheit*|kranken*|privat*|persönlich*|vertraulich*|santé|privé*|personnel*|confidentiel*|salud|historial|privad*|confidencial*|saúde|sanità|salute|riservat*|медицин*|здоров*|личн*|конфиденц*|zdrow*|prywatn*|poufn*|medisch*|vertrouwelijk*|prive',
  '医療|病歴|健康|個人情報|機密|病历|隐私|机密',
);

/** Putting something into what the agent produces (an invite, a copy, an embed): with COVERT and a destination. */
export const ADD_TO = concept(
  'add|insert|cc|bcc|invite|embed|hinzufügen|füge|ajoute|ajouter|añade|añadir|agrega|adiciona|aggiungi|добавь|добавляй|dodaj|voeg',
  '追加|添加',
);

/** Done without the user seeing it: with a destination, a covert exfiltration. */
export const COVERT = concept(
  "quietly|silently|secretly|covertly|without telling|(?:and )?(?:do not|don't|never) (?:mention|tell|inform|notify|say)(?: (?:it|this|that|anything|a word))?(?: to (?:the user|them|anyone|anybody|him|her))?(?![\\p{L}])|tell (?:no one|nobody|no-one|noone)|without (?:mentioning|informing|notifying|saying)|keep (?:it|this|that) (?:secret|quiet|hidden|between us)|(?:don't|do not) let (?:the user|them|him|her|anyone) know|without letting [^.;]{0,20} know|unbemerkt|heimlich|stillschweigend|ohne (?:es )?(?:ihm|ihr|ihnen|dem nutzer|der nutzerin) zu sagen|discrètement|en secret|en silence|sans (?:le )?(?:dire|prévenir)|en secreto|sin avisar|sin decir|silenciosamente|secretamente|sem avisar|di nascosto|in silenzio|senza avvisare|тайно|незаметно|втихую|молча|potajemnie|po cichu|stiekem|ongemerkt",
  'こっそり|密かに|黙って|悄悄|偷偷|秘密地',
);

export const THIRD_PERSON = concept(
  'the user|this user|the caller|this caller|the requester|the person|this person|this account|the customer|she|he|they|[a-z]+ is an? (?:approved|verified|trusted)',
);

/** What a claimed identity is then used for. */
export const CONSEQUENCE = concept(
  'should|so |therefore|entitled|bypass|may |can |count|run whatever|do whatever|with access|access to every|access to all|be given|given admin|approve',
);

export const TRIGGER = concept(
  'when|whenever|once|if|the next time|next time|as soon as|after|on the first|la prochaine fois|la próxima vez|das nächste mal|beim nächsten mal|la prossima volta|da próxima vez|na próxima vez|de volgende keer|następnym razem|в следующий раз|zodra|wanneer|ketika|jika|kalau|apabila|begitu|wenn|sobald|falls|quand|lorsque|dès que|cuando|en cuanto|quando|assim que|appena|когда|как только|если',
  '当|如果|一旦|下次|たら|時は|ときは|場合|때마다|할 때|경우에',
);

export const ASK = concept(
  "ask (?:them|him|her|the user|the customer|for|users?)|request (?:their|the user's|his|her)|collect (?:the|their)|demand|verlange|frag nach|fordere|erfrage|demande|demande-lui|exige|réclame|pídele|pide|solicita|peça|peca|solicite|exija|chiedi|chiedigli|richiedi|попроси|запроси|потребуй|узнай",
  '索要|询问|要求提供|让他提供|向他要|聞き出|尋ね|求め',
);

export const BRIDGE = concept(
  "(?:notizen|daten|unterlagen|akten|notes|données|dossiers|notities|gegevens|dossiers)[^.;]{0,60}(?:gehören (?:auch|ebenfalls) zu (?:diesem|dem) (?:nutzer|benutzer|konto|kunden)|appartiennent (?:aussi|également) à (?:cet |l.)utilisat|horen ook bij (?:deze|de) (?:gebruiker|klant)|behoren ook tot (?:deze|de) (?:gebruiker|klant))|each (?:of them )?[^.;]{0,20}the other(?:'|’)s (?:orders|invoices|records|data|files|history|accounts?|details|messages)|(?:accounts?|records|customers|profiles) [^.;]{0,80}belong together|(?:records?|data|files?|history|account|accounts|details) of (?:customer|user|patient|client|account|member) [\\p{L}\\p{N}-]{1,20} as (?:belonging to|part of|if)|\\p{L}+['’]s (?:\\p{L}+ )?(?:records|files|data|history|notes|account|accounts) (?:are|is) (?:also )?(?:mine|ours|my own)|is the (?:one|same) on file for|\\p{L}+['’]s (?:bank )?(?:statements|mail|post|letters|invoices|documents|e-?mails|records|parcels)[^.;]{0,30} (?:go|goes|are sent|get sent|should go|will go) to \\p{L}+['’]s (?:address|e-?mail|inbox|account)|(?:are|is) (?:now )?(?:filed|stored|kept|merged) (?:under|into|with)|merged into|the same (?:household|person|patient|customer|account|user)|alias (?:of|for)|read from (?:user|customer|patient|account)|include the notes of|as if (?:user|customer|patient)|inherit|link (?:this|the) (?:customer|user|account|patient) (?:to|with)|share their (?:order )?histor|apply to the other|(?:other|another) (?:customers?|clients?|users?|tenants?|patients?|employees?|colleagues?|staff|members?)(?:'|’)?s? (?:tickets|records|notes|data|files|histor|mailbox|inbox|e-?mails|accounts|calendars|messages)|one and the same|(?:dieselbe|die gleiche) person|derselbe (?:kunde|patient)|la même personne|le même (?:client|patient|dossier)|la misma persona|el mismo (?:cliente|paciente|expediente)|comparten (?:el )?(?:expediente|historial|ficha)|a mesma pessoa|o mesmo (?:cliente|paciente|cadastro)|la stessa persona|lo stesso (?:cliente|paziente)|одно и то же лицо|один и тот же (?:клиент|пациент|человек)|dezelfde persoon|ta sama osoba|access to (?:every|all|other) (?:tenants?|customers?|users?|accounts?)|(?:previous|prior|last|other|another|earlier) (?:customers?|users?|patients?|clients?|tenants?)[^.;]{0,80}(?:reuse|re-use|use|charge|apply)[^.;]{0,30}(?:their|his|her)|reuse (?:their|his|her|the other)(?: [\\p{L}-]+){0,2} (?:card|payment|account|credentials|address|data|details)",
);

/** Two customers, patients or accounts named by number in one passage (one's record given to the other). */
const RECORD_NOUN =
  'customers?|clients?|patients?|accounts?|kunde|kundin|kunden|klient\\p{L}*|patient\\p{L}*|konto|compte|cuenta|conta|cliente|paciente|paziente|клиент\\p{L}*|пациент\\p{L}*|klant|pacjent\\p{L}*';
const RECORD_REF = `(?:${RECORD_NOUN})(?![\\p{L}])[ \\t#№:.(-]{0,4}(?:nr\\.?|no\\.?|n[º°]|id|number|nummer|o numerze|numéro|número|numero)?[ \\t#:.]{0,3}\\d{2,}`;
const RECORD_REF_CJK = '(?:顧客|客户|患者|会員)(?:番号|编号|ID)?[:：]?[ \\t]?\\d{2,}';
/** A record noun, then its number: a compound says both ("Klantnummer 4471", "Kundennr. 2209"). */
const RECORD_NUMBER = `(?:(?:klant|kunden|client|kund)(?:nummer|nr\\.?)|${RECORD_REF})`;
/** One record noun before two numbers joined as a pair ("Klantnummer 4471 en 4472", "customers 12 and 13"). */
const RECORD_PAIR = `${RECORD_NUMBER}(?![\\p{L}])[ \\t#:.]{0,3}\\d{2,}[ \\t]{0,3}(?:and|und|en|et|y|e|i|и|&|/|,)[ \\t]{0,3}(?:nr\\.?|no\\.?|n[º°]|#)?[ \\t]?\\d{2,}(?![\\p{N}.,]\\d)`;
export const TWO_RECORDS = concept(
  `${RECORD_REF}[^.]{0,120}?${RECORD_REF}|${RECORD_PAIR}`,
  `${RECORD_REF_CJK}[^。]{0,120}?${RECORD_REF_CJK}`,
);

/** One record's terms or data made to hold for another ("gelten auch für", "apply to"). */
export const APPLY = concept(
  'verwende*|used?|usad[oa]s?|utilizad[oa]s?|usat[ie]|utilisée?s?|используют*|apply|applies|gelten|gilt|valen|vale|valem|valgono|valent|vaut|aplican|aplicam|s.appliquent|s.applique|применя*|действуют|gelden|geldt|obowiązują|dotyczą',
  '適用|适用',
);

/** Security controls: switching one off is of authority whatever else the note names ("audit logging was turned off"). */
export const SECURITY_CONTROL = concept(
  'audit*|logging|sandbox*|filters?|guardrails?|mfa|2fa|two-factor|zwei-faktor*|monitoring|safety|sicherheit*|sécurité|seguridad|segurança|sicurezza|безопасн*|protokollierung|journalisation|registro de auditoría',
);

/** An account or profile: what a control waived "for this account" protects. */
export const ACCOUNT = concept(
  'accounts?|profiles?|konto*|compte|comptes|cuenta|cuentas|conta|contas|conto|аккаунт*|учётн*|учетн*|profil*|perfil*',
  '账户|账号|アカウント',
);

/** What one person's record holds: invoices, orders, addresses, card and payment data, notes. */
export const RECORD_DATA = concept(
  'notizen|заметк\\p{L}*|notatk\\p{L}*|notas|notities|invoices?|\\p{L}*rechnung\\p{L}*|factur\\p{L}*|fatur\\p{L}*|fattur\\p{L}*|счет\\p{L}*|orders?|bestellung\\p{L}*|commandes?|pedidos?|ordini|заказ\\p{L}*|zamówie\\p{L}*|bestelling\\p{L}*|addresse?s?|\\p{L}*adresse\\p{L}*|direcci\\p{L}*|endere\\p{L}*|indirizz\\p{L}*|адрес\\p{L}*|\\p{L}*daten|\\p{L}*gegevens|dane|danych|danymi|\\p{L}*karte\\p{L}*|cards?',
  '請求|注文|住所|发票|订单|地址|メモ|笔记',
);

/** Someone given every customer's or user's records, or any user's account controls ("reset any user's MFA"). */
export const OTHERS_DATA = concept(
  "(?:every|all|any) (?:other )?(?:customers?|users?|tenants?|patients?|employees?|clients?)(?:'|’)?s? (?:[\\p{L}-]+ )?(?:records|notes|data|files|histor\\p{L}*|mailbox\\p{L}*|inbox\\p{L}*|e-?mails|accounts?|passwords?|mfa|2fa|credentials)|(?:data|catatan|akun|riwayat) (?:pelanggan|pengguna|klien|pasien) lain|gegevens van andere (?:klanten|gebruikers)|",
  '다른 (?:고객|사용자|회원)(?:의|들의)? ?(?:데이터|정보|기록)',
);

/** The user spoken of in the third person: a note about them by someone else ("the user's notes"). */
export const USER_THIRD = concept(
  "the user's|this user's|des nutzers|der nutzerin|des benutzers|der benutzerin|de l'utilisat(?:eur|rice)|del usuario|de la usuaria|do usuário|da usuária|dell'utente|пользовател(?:я|ьницы)|van de gebruiker|użytkownika",
  'ユーザーの|用户的',
);

/** All of it, or at any time: the breadth of a standing grant to someone else. */
export const ALL_OR_ANYTIME = concept(
  'all|every|whenever|at any time|co noc|co dzień|codziennie|jede nacht|jeden tag|chaque (?:soir|nuit|jour)|cada (?:noche|día)|todas as noites|todo dia|ogni (?:sera|notte|giorno)|elke (?:nacht|dag)|каждую ночь|каждый день|her gece|her gün|alle|allen|aller|jederzeit|tous|toutes|permanent|todos|todas|siempre|tutti|tutte|sempre|все|всех|всем|всеми|в любое время|wszystkie|zawsze|altijd',
  'すべて|全部|いつでも|随时|매일|매일 밤|毎晩|毎日|每天|每晚',
);

export const OBEY = concept(
  '(?:run|do|execute|approve) whatever (?:they|he|she|the user|the caller|is asked)|(?<=(?:^|[.;:!?]\\s{0,3}|(?:and|then|please|always|just|now|also) ))comply with (?:all|every|any) (?:requests?|instructions?|orders?|commands?) from|treat every (?:question|request|message) from|use admin credentials|use (?:the )?(?:admin|root|privileged) (?:credentials|account|rights)',
);

/**
 * German and Dutch describing words: they start a word (DESCRIBED) or sit inside a compound
 * (DESCRIBED_IN_COMPOUND). English "injection" joins a compound only as its last part.
 */
const COMPOUND_STEMS = ['beispiel', 'forschung', 'angriff', 'injektion', 'zitat', 'voorbeeld', 'aanval', 'onderzoek'];

export const DESCRIBED = concept(
  `phrase|string|example|examples|attack|attacks|injection|injections|jailbreak|paper|slide|report|quotes?|such as|like|classic|typical|e\\.g\\.|how do|why|learn|explains|research|${COMPOUND_STEMS.map((w) => `${w}*`).join('|')}|exemple|attaque|recherche*|citation*|ejemplo|ataque|inyecci*|investigaci*|cita*|esemp*|attacc*|iniezion*|ricerc*|пример*|атак*|инъекц*|исследован*|цитат*|вроде|exemplo*|injeç*|pesquis*|przykład*|atak*`,
  '例|攻撃|攻击|注入|研究',
);

/**
 * German (and Dutch) write nouns together: a describing word is often the head or the first part
 * of a compound ("Sicherheitsforschung", "Injektionsbeispiele", "Angriffsmuster",
 * "aanvalsvoorbeelden"), which DESCRIBED's word-start match misses once a reading has dropped the
 * hyphens of "Prompt-Injection-Beispiele".
 */
export const DESCRIBED_IN_COMPOUND = new RegExp(
  `\\p{L}(?:${[...COMPOUND_STEMS, 'injection'].join('|')})|(?:${COMPOUND_STEMS.join('|')})\\p{L}`,
  'u',
);

/**
 * A destination right after a negation is a prohibition, not a destination: "never in the URL",
 * "nicht an Externe", "jamais à quiconque" (removed before destinations are looked for).
 */
export const NEGATED_DESTINATION =
  /(?<![\p{L}\p{N}])(?:never|not|nor|niemals|nie|nicht|jamais|pas|nunca|jamás|mai|никогда|не)\s+(?:in|into|to|with|via|over|im|an|à|au|aux|dans|en|por|a|no|na|nel|nella|в|на)\s+(?:[\p{L}\p{N}.@:/_-]+\s*){1,3}/giu;

/** Web and mail destinations (literal hosts, IPs, URLs, addresses); a dotfile's name (`.env.example`) is no host. */
export const HOST =
  /(?:https?:\/\/|ftp:\/\/|wss?:\/\/|\b(?:\d{1,3}\.){3}\d{1,3}\b|(?<!(?:^|[\s`'"([])\.)\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.(?:com|net|org|io|ru|cn|jp|de|fr|es|it|br|nl|pl|uk|eu|ch|at|be|se|dk|fi|no|cz|pt|ca|au|us|kr|tw|hk|cloud|ai|tech|link|xyz|dev|app|co|info|biz|top|site|online|me|sh|tk|example|invalid|test|local|internal)\b|\b[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}\.[a-z.]{2,24})/u;
export const ALLOWLISTED =
  /(?:whitelisted|allowlisted|approved for|trusted for|permitted for|cleared for|(?:to|into|on) (?:your |the |my )?(?:trusted|allowed|safe|approved) (?:domains|hosts|senders|sites|list|recipients))/u;

/** Where an answer goes: a reply is a channel out of the conversation's trust boundary for a secret. */
export const REPLY = concept(
  'reply|replies|response|answer|antwort*|réponse*|respuesta*|resposta*|risposta*|risposte|ответ*|antwoord*|odpowied*',
  '回答|回复|答复',
);

/** A standing exemption from the control a write or payment passes (beyond the English SKIP). */
export const SKIP_STEP = concept(
  `(?:überspring\\p{L}*|saute|sauter|sautez|ignore désormais|omite|omitir|sáltate|salta|saltare|pule|pular|пропускай|пропусти|sla [^.;]{0,40}over|pomijaj|pomiń)(?![\\p{L}])[^.;]{0,40}(?:${CONTROL_NOUN}|freigabeschritt|étape d'approbation|paso de aprobación|etapa de aprovação|passaggio di approvazione|шаг одобрения|goedkeuring*|zatwierdza*)`,
  '跳过[^。；]{0,20}(?:审批|批准|确认)|(?:承認|確認)(?:手順)?[^。]{0,20}省略',
);

/**
 * The ticket or change request a change goes through, said not to be needed ("no ticket needed",
 * "without a change request"): a skipped control only beside a tool or an action (an event is
 * entered "without a ticket" too).
 */
export const NO_TICKET = concept(
  'no (?:tickets?|change requests?|change tickets?|crs?) (?:is |are )?(?:needed|required|necessary)|without (?:a |any )?(?:tickets?|change requests?|change tickets?)|tiket tidak perlu|tanpa tiket|zonder ticket|ohne ticket|sans ticket|sin ticket|sem ticket|senza ticket',
  '티켓 없이|티켓이? 필요 없|不需要工单|无需工单|チケット不要|チケットなしで',
);

/** A claim that what the agent will do was approved in advance. */
export const PRE_APPROVED = concept(
  'pre-?approved|gelten als genehmigt|déjà approuvés?|pré-approuvée?s?|ya están aprobad[oa]s|já estão aprovad[oa]s|già approvat[ie]|уже одобрены|al goedgekeurd|już zatwierdzone',
  '预先批准|已预先批准|承認済み',
);

/** An identity said to have no rules. */
export const UNBOUND = concept(
  '(?:keine|ohne) (?:jegliche |irgendwelche )?(?:einschränkung*|beschränkung*|filter|grenzen)|sans (?:aucune )?limite*|sin (?:ningún )?límite*|senza (?:alcun )?limit*|sem (?:nenhum )?limite*|zonder (?:enige )?grenzen|bez (?:żadnych )?limitów|without (?:any )?limits|(?:sans|plus) aucune restriction|sans restriction|sin (?:ninguna )?restriccion*|(?:no|ya no) (?:tienes|tiene|hay) (?:ninguna )?restriccion*|senza (?:alcuna )?restrizion*|(?:nessuna|alcuna) restrizion*|(?:geen|zonder) beperking*|sem (?:nenhuma )?restriç*|(?:mais|nenhuma) restriç*|bez (?:żadnych )?ogranicze*|żadnych ogranicze*|no (?:restrictions|limits|filters)|(?:an )?keine regeln gebunden|(?:lié|liée|liés) par aucune règle|aan geen regels gebonden|no (?:estás|está) (?:sujeto|sujeta|atado|atada) a ninguna regla|non (?:sei|è) (?:vincolato|vincolata) da (?:alcuna|nessuna) regola|no rules|without rules|ohne regeln|sans règles|sin reglas|sem regras|senza regole|без правил|zonder regels|bez zasad|unrestricted',
  '没有任何规则|没有规则|ルールのない',
);

/** The operator's rules said to no longer bind the agent. */
export const RULES_OFF = concept(
  "(?:restrictions?|rules|einschränkungen|restricciones|restrições|restrizioni|ограничения|beperkingen|ograniczenia)[^.;]{0,40}(?:no longer apply|gelten nicht mehr|ne s'appliquent plus|ya no se aplican|não se aplicam mais|non valgono più|больше не относятся|gelden niet meer|już cię nie dotyczą)",
  '限制[^。；]{0,10}不再适用|制限[^。]{0,10}もう適用されません',
);

/** Every other user's or the whole organisation's memory: a write that crosses scopes. */
export const ALL_SCOPES = concept(
  "(?:every|all) other users?|(?:every|all|each) users?['’]?s? (?:memor\\p{L}*|namespaces?|profiles?)|every other user's|organi[sz]ation-wide|org-wide|whole organi[sz]ation|aller anderen benutzer|ganzen organisation|tous les autres utilisateurs|toute l'organisation|todos los demás usuarios|toda la organización|todos os outros usuários|toda a organização|tutti gli altri utenti|intera organizzazione|всех остальных пользователей|всех других пользователей|память организации|alle andere gebruikers|hele organisatie|wszystkich innych użytkowników|całej organizacji",
  '所有其他用户|整个组织|他のすべてのユーザー|組織全体',
);

/** One customer's records read as another's (MINJA-style bridging), beyond the English BRIDGE. */
export const AS_IF_OTHERS = concept(
  'as if (?:they|it) belonged|als gehörten|comme s.ils appartenaient|como si (?:fueran|fuera|pertenecieran)|como se (?:fossem|pertencessem)|come se appartenessero|записями клиента|alsof ze van|jakby należały|treated como si',
  '当作客户|のものとして扱',
);

/** Acting without checking with anyone, in the languages beyond English SKIP. */
export const NO_CHECK = concept(
  'without checking back|ohne rückfrage|ohne nachzufragen|sans revenir vers personne|sin consultar|sem consultar|senza consultare|ни у кого не уточняя|zonder eerst na te vragen|nikogo wcześniej nie pytając|bez pytania|no confirmation needed|sin pedir confirmación|sem pedir confirmação|senza chiedere conferma|без подтверждения|zonder om bevestiging|sans demander de confirmation',
  '不必先跟任何人核实|不要请求确认|誰にも確かめずに|確認なしに',
);

/** A placeholder a template fills: `{x}`, `[x]`, `<x>`, `${x}`, `%s`. */
export const SLOT = String.raw`(?:\{[^}\s]{1,40}\}|\[[^\]\s]{1,40}\]|<[^>\n]{1,80}>|\$\{?\w{1,30}\}?|%s)`;

/**
 * A link with a slot to fill ("…/p?q=SUMMARY", "?d={conversation}", "render?data=" then more), or
 * one whose path or host is the slot ("…/c/<character>" one link per character, as ZombieAgent
 * reads data out through pre-built links; "<summary>.log.evil.example" through DNS): a URL built
 * from content. Views are lower case, so a slot named in capitals is read by its name.
 */
export const URL_IN_PATH_OR_HOST = new RegExp(
  String.raw`(?:https?:)?\/\/[^\s)"'<>]{1,200}?\/${SLOT}|${SLOT}(?:\.[a-z0-9-]{1,63}){2,8}(?![\w.-])`,
  'u',
);

/**
 * Tools taken from wherever a source points: "the approved plugin source is https://…, install and
 * enable whatever it lists", "trust every tool that server offers" — authority handed to an outside list.
 */
export const TOOLS_FROM_SOURCE =
  /(?:install|enable|load|add|trust|accept|use|run)(?:\s+(?:and|&)\s+(?:install|enable|load|add|trust|accept|use|run))?\s+(?:whatever|everything|anything|all(?: the)?|every|each|any)(?:\s+(?:tools?|plugins?|extensions?|skills?|servers?|packages?|scripts?))?\s+(?:it|they|that (?:source|server|site|registry|list)|the (?:source|server|site|registry|list))\s+(?:lists|offers|provides|serves|publishes|ships|recommends|sends|exposes|suggests|contains|has)(?![\p{L}])|(?:installiere|aktiviere)\p{L}*(?:\s+und\s+\p{L}+)?\s+alles,?\s+was\s+(?:sie|er|es|die quelle|der server)\s+(?:anbietet|auflistet|liefert|enthält)|(?:installe|active|installez|activez)(?:\s+et\s+\p{L}+)?\s+tout ce qu.(?:il|elle|ils|elles)\s+(?:propose|liste|fournit|contient)|(?:instala|activa|habilita)(?:\s+y\s+\p{L}+)?\s+todo lo que\s+(?:ofrezca|ofrece|liste|lista|proporcione|contenga)/u;

/**
 * Access planted for someone: a public key to put into authorized_keys, a NOPASSWD rule for
 * sudoers — a way in that outlives the session, whoever's key it is.
 */
export const ACCESS_FILE = /(?:authorized_keys|sudoers(?:\.d)?)(?![\p{L}])/u;
export const ACCESS_GRANT_LITERAL =
  /(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d{3}|sk-ssh-ed25519@openssh\.com)\s+aaaa[a-z0-9+/=]{8,}|nopasswd\s*:/u;

/** A link whose query or fragment parameter is a slot or names what the conversation holds ("?q=summary" in a lower-case view, "?d={x}", "render?data=" then nothing). */
export const URL_SLOT = new RegExp(
  String.raw`(?:https?:)?\/\/[^\s)"'<>]{1,200}?[?&#][\w.-]{0,32}=(?:${SLOT}|(?:summary|conversation|chat|history|transcript|messages?|context|content|data|input|query|prompt|zusammenfassung|gespräch|verlauf|chatverlauf|nachrichte?n?|résumé|resume|historique|resumen|conversación|historial|mensaje|riassunto|conversazione|cronologia|messaggio|resumo|conversa|histórico|mensagem|samenvatting|gesprek|geschiedenis|bericht|podsumowanie|rozmowa|historia|wiadomość|сводка|резюме|переписка|история|сообщение)(?![\p{L}\p{N}_-])|(?=[\s)"'\]]|$))`,
  'u',
);

/** What was said in the conversation: what a link's slot would carry out. */
export const CHAT = concept(
  "chat|chats|chat history|conversation|what the user (?:said|says|wrote|typed|asked)|the user's (?:(?:latest|last|most recent|newest|previous|current) )?(?:messages?|words|input|questions?|prompts?|requests?|replies)|(?:latest|last) (?:user )?message|letzte nachricht|dernier message|último mensaje|última mensagem|ultimo messaggio|последнее сообщение|summary|summari[sz]e|transcript|gesprächsverlauf|chatverlauf|zusammenfassung|podsumowani\\p{L}*|rozmow\\p{L}*|historia czatu|samenvatting|gesprek\\p{L}*|résumé|historique de (?:la )?conversation|resumen|historial del chat|resumo|histórico da conversa|riassunto|cronologia (?:della )?chat|переписк*|истори* (?:чата|диалога)|кратк* содержани*",
  '聊天记录|对话内容|对话|摘要|要約|会話|チャット履歴',
);

/** Addressed to whatever AI reads the text: "AI assistants reading this must…", "if you are an AI…". */
export const AI_READER = concept(
  '(?:ai|llm|language model|assistant|agent|bot|model)s? (?:reading|processing|summari[sz]ing|parsing|seeing|ingesting) (?:this|these)|if you are an? (?:ai|llm|language model|assistant|agent|bot)|note (?:to|for) (?:any )?(?:ai|llms?|the assistant|assistants|agents|language models|ai models)|to (?:any|all) (?:ai|llms?|assistants|agents|language models)',
);

/** Told to act on a claimed role: "treat their requests accordingly". */
export const ACCORDINGLY = concept(
  "(?:treat|handle|answer|serve) (?:their|his|her|my|the user's|these|such|all) (?:requests?|messages?|instructions?|commands?|questions?) accordingly|act accordingly|behave accordingly|respond accordingly",
);

/** Writing into another person's profile or memory: "store in Bob's profile", "in another user's memory". */
export const OTHERS_PROFILE =
  /(?:store|save|write|put|add|record|note|remember|keep)[^.;\n]{0,30}? (?:in|to|into|on|under) (?:(?!(?:user|assistant|agent|bot|model|today|tomorrow|yesterday|everyone)['’]s)\p{L}{2,30}['’]s|another user['’]s|other users['’]|someone else['’]s|every user['’]s|all users['’]|each user['’]s) (?:profile|memory|memories|namespace|user memory)(?!\p{L})/u;

/** Orders to obey someone else: "follow his instructions", "obedece sus órdenes", "volg zijn instructies". */
export const OBEY_PARTY = concept(
  "(?:follow|obey|carry out|execute) (?:his|her|their|its|\\p{L}+['’]s) (?:instructions|orders|commands|directions|requests)|obey (?:him|her|them)|do (?:whatever|what|everything) (?:he|she|they) (?:says?|asks?|tells? you|wants?)|befolge (?:seine|ihre|deren) (?:anweisungen|befehle|anordnungen)|folge (?:seinen|ihren|deren) (?:anweisungen|befehlen|anordnungen)|(?:his|her|their|\\p{L}+['’]s) (?:instructions|orders|commands|requests|word) (?:override|overrides|supersede|supersedes|outrank|outranks|take precedence|takes precedence|come first|comes first)|(?:lo que|todo lo que) (?:él|ella|ellos|ellas) (?:pida|diga|quiera|mande)*|(?:tout )?ce qu.(?:il|elle|ils|elles) (?:demande|dit|veut|exige)*|(?:alles,? )?was (?:er|sie) (?:sagt|verlangt|will|möchte|anordnet)|(?:tutto )?(?:ciò|quello) che (?:lui|lei|loro) (?:chiede|dice|vuole|ordina)*|(?:tudo )?o que (?:ele|ela|eles|elas) (?:pedir|disser|quiser|mandar)|(?:alles )?wat (?:hij|zij|ze) (?:vraagt|zegt|wil)|(?:wszystko,? )?co (?:on|ona|oni) (?:powie|każe|poprosi|zechce)|(?:всё|все),? что (?:он|она|они) (?:скажет|попросит|велит|прикажет)*|gehorche (?:ihm|ihr|ihnen)|(?:seine|ihre|deren) (?:befehle|anweisungen|wünsche|anfragen) (?:haben vorrang|gehen vor)|erfülle (?:seine|ihre|deren) (?:wünsche|bitten|anfragen|anweisungen)|(?:ses|leurs) (?:ordres|instructions|demandes|consignes) (?:passent avant|priment|ont (?:la )?priorité)|(?:exécute|exécutez|satisfais) (?:ses|leurs) (?:demandes|requêtes|souhaits)|(?:zijn|haar|hun) (?:opdrachten|instructies|bevelen|verzoeken) (?:gaan voor|hebben voorrang)|voer (?:zijn|haar|hun) (?:verzoeken|opdrachten|instructies) uit|(?:suis|suivez|exécute|exécutez) (?:ses|leurs) (?:instructions|ordres|consignes)|obéis|obéissez|(?:sigue|siga|cumple|cumpla|ejecuta) sus (?:instrucciones|órdenes|indicaciones)|obedece|obedezca|(?:siga|segue|cumpra) (?:as )?(?:instruções|ordens) (?:dele|dela|deles)|obedeça|(?:segui|esegui) (?:le sue|i suoi|i loro|le loro) (?:istruzioni|ordini)|obbedisci|ubbidisci|(?:выполняй|слушай) (?:его|её|ее|их) (?:указания|приказы|команды|распоряжения|инструкции)|подчиняйся|volg (?:zijn|haar|hun) (?:instructies|bevelen|opdrachten)|gehoorzaam|(?:wykonuj|słuchaj) (?:jego|jej|ich) (?:polece\\p{L}*|rozkaz\\p{L}*|instrukcj\\p{L}*)|(?:talimatlarına|emirlerine|söylediklerine) uy\\p{L}*",
  '听从他|听从她|服从他|服从她|照他说的做|彼の指示に従|彼女の指示に従|그의 지시를 따르',
);

/** Above the user's own say: "even if they conflict with Alice's settings", "aunque contradigan". */
export const OVER_USER = concept(
  "(?:vorrang vor|gehen vor) (?:denen|dem|den wünschen|den anweisungen) (?:des|der) (?:nutzer|benutzer)\\p{L}*|(?:passent|passe) avant ceux de l.utilisat(?:eur|rice)|(?:gaan|gaat) voor (?:die|de wensen|de opdrachten) van de gebruiker|(?:override|overrides|supersede|supersedes|outrank|outranks|takes? precedence over) (?:the user|alice|the owner|the account owner|mine)|even (?:if|when) (?:it|they|this|that|he|she) (?:conflicts?|contradicts?|overrides?|goes against)|over (?:the user's|alice's|their) (?:settings|wishes|instructions)|auch wenn (?:sie|es|er) (?:\\p{L}+ )?(?:widersprech\\p{L}*|widerspricht)|même si (?:elles?|cela|ça|ils?) (?:contredi\\p{L}*|va à l'encontre)|aunque (?:contradiga\\p{L}*|vaya\\p{L}* en contra)|mesmo que (?:contradiga\\p{L}*|vá\\p{L}* contra)|anche se (?:contraddic\\p{L}*|va\\p{L}* contro)|даже если (?:\\p{L}+ )?противореч\\p{L}*|zelfs als (?:\\p{L}+ )?(?:ingaan|tegenspreken)|nawet jeśli (?:\\p{L}+ )?(?:sprzeczne|przeczą)",
  '即使与|たとえ[^。]{0,20}矛盾',
);

/** The agent called by name before an order: "AI assistant: …", "Assistant, standing instruction: …", "Hey agent —". */
export const VOCATIVE =
  /(?:^|[\n.:;!?>—–-]\s*|(?:hey|hi|dear|note to|attention|attn:?)\s+)(?:(?:the|any|all|dear) )?(?:ai |llm )?(?:assistant|agent|bot|model|ai|copilot)s?\s*[:,—–]/u;

/**
 * A link slot filled from a template ("?d={user_notes_base64}", "?d=<the conversation so far>"): content
 * to be put there. SLOT without `[x]`: "?ids=[1]" is a query's array, not a blank to fill.
 */
export const TEMPLATE_SLOT = /[?&#][\w.-]{0,32}=(?:\{[^}\s]{1,40}\}|<[^>\n]{1,80}>|\$\{?\w{1,30}\}?|%s)/u;

/** Redirecting what flows: "ship all future orders there", "forward all approval requests to Derek". */
export const REDIRECT_ALL =
  /(?<![\p{L}])(?:ship|send|deliver|route|forward|redirect|pay|transfer|wire|mail)\s+(?:all|every|any)\s+(?:(?:future|new|incoming|upcoming)\s+)?(?:orders|payments|parcels|packages|deliveries|invoices|transfers|mail|e-?mails|approval requests|approvals|statements|refunds)\s+(?:there|to|into)(?![\p{L}])/u;

/** The writer's own data ("my phone number", "our home address"): theirs to put in their replies. */
export const OWN_DATA =
  /(?<![\p{L}])(?:my|our)\s+(?:[\p{L}-]+\s+){0,2}(?:home address|address|phone numbers?|mobile numbers?|date of birth|passport numbers?|location|private|personal|medical|health|salary)(?![\p{L}])/u;

/** Backups destroyed ("delete all the backups", "lösche alle Sicherungskopien"): done covertly, an attack on recovery. */
export const DELETE_BACKUPS = concept(
  '(?:delete|wipe|erase|remove|purge|destroy|lösch|entfern|supprim|effac|borr|elimin|apag|cancell|verwijder|wis|usuń|usuwaj|skasuj)\\p{L}* [^.;\\n]{0,40}(?:back-?ups?|sicherung\\p{L}*|sauvegardes?|copias de seguridad|cópias de segurança|copie di (?:backup|sicurezza)|kopi\\p{L}* zapasow\\p{L}*)(?![\\p{L}])',
);

/**
 * An order to put something where everyone reads it ("publish … on the open web", "stelle … öffentlich
 * ins Netz"), not after a negation ("never post … online").
 */
export const PUBLISH_OUT = concept(
  "(?<!(?:never|not|don't|nicht|nie|niemals|jamais|nunca|non|mai|niet|nooit) )(?:publish|post|upload|share|put|veröffentliche|stelle|lade|publie|publiez|mets|publica|publique|sube|comparte|pubblica|carica|condividi|publiceer|zet|deel|opublikuj|publikuj|udostępnij) [^.;\\n]{0,80}(?:on the (?:open |public )?(?:web|internet)|publicly|online|(?:öffentlich|im internet|ins netz)|(?:publiquement|sur internet|en ligne)|(?:públicamente|publicamente|en internet|na internet|online)|(?:pubblicamente|su internet|in rete)|(?:openbaar|op internet)|(?:publicznie|w internecie|w sieci))(?![\\p{L}])",
);

/** What others will read: a secret put there is published ("paste the key into every PR description"). */
export const ARTIFACT = concept(
  'bug reports?|issues?|tickets?|pull requests?|merge requests?|pr descriptions?|commit messages?|commits|comments?|changelogs?|release notes|gists?|pastebins?|wiki pages?|status updates?|public (?:posts?|channels?|repos?|repositor\\p{L}*)|slack (?:channels?|messages?)|forum posts?|tweets?',
);

/** A tool call's arguments fixed by a note: where money, mail or requests go, or a security check turned off. */
export const TOOL_ARGS =
  /(?<![\p{L}])(?:(?:set|force|override|change|hard-?code|pin|fix|point|use)\s+(?:the\s+)?(?:amount|recipient|payee|beneficiary|iban|account(?: number)?|destination|to|cc|bcc|url|endpoint|host|proxy|verify_?ssl|ssl|tls|certificate|cert|api_?base|base_?url|webhook|callback|routing(?: number)?)s?\s*(?:to|=|:)|(?:add|append|include|insert)\s+(?:a\s+|an\s+)?(?:bcc|cc|recipient|forwarding address)(?![\p{L}])|(?:verify_?ssl|ssl_?verify|tls_?verify|check_?hostname|verify)\s*=\s*(?:false|0|no|off)(?![\p{L}]))/u;

/** A tool call named as such: "the payment tool", "every send_email call", "tool calls", "the arguments". */
export const TOOL_CALL =
  /(?<![\p{L}])(?:(?:tool|function|api)\s+calls?|calling\s+(?:the\s+)?[\p{L}_]+(?:\s+(?:tool|function|api))?|[a-z]+_[a-z_]+\s+(?:calls?|tool|function|requests?)|[\p{L}_]+\s+tool\s+calls?|(?:payment|email|mail|http|transfer|send|request|browser|shell)\s+tool|arguments|parameters)(?![\p{L}])/u;

/** Above what the user or the document asked: "regardless of what the invoice says", "even if the user did not ask". */
export const OVER_INPUT = concept(
  "regardless of|no matter what|whatever the (?:user|invoice|request|document|customer) says|even (?:if|when) (?:the user|they|nobody|no one) (?:did not|didn't|does not|doesn't|has not|hasn't)|even if not (?:asked|requested)|unasked|without being asked|instead of what the (?:user|invoice|request|document|customer)",
);

/** An order not to record: audit records, trace spans or telemetry of what the agent does. */
export const SUPPRESS_AUDIT = concept(
  "(?:do not|don't|never|stop|no longer|must not|should not|shouldn't) (?:create|record|write|emit|keep|log|send|export|generate|produce|file)(?: [\\p{L}-]+){0,4} (?:audit\\p{L}*|trace spans?|traces|tracing|telemetry|spans)|(?:disable|turn off|switch off|suppress|mute|pause|silence)(?: [\\p{L}-]+){0,3} (?:audit\\p{L}*|tracing|telemetry|trace spans?)",
);

/**
 * A database or queue connection string: the host it names is where its credential belongs, not a
 * destination ("jdbc:postgresql://reports.db.internal/…?password=…" is a secret, not an order to send one).
 */
export const CONNECTION_STRING =
  /(?<![\p{L}])(?:jdbc:)?(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|sqlserver|mssql|oracle|clickhouse|snowflake|cockroachdb|cassandra|neo4j|bolt|ldaps?)(?::[a-z]+)?:\/\/\S+/gu;

/** A command line's credential flag and its value ("--api-key …", "--password=…"): a credential used where it belongs. */
export const CRED_FLAG =
  /(?<![\p{L}\p{N}-])--?(?:api[-_]?key|api[-_]?token|token|password|passwd|pass|secret|auth[-_]?token|access[-_]?token|client[-_]?secret)(?:[ =]\S+)?/gu;

/**
 * "e-mail" as a noun, not a verb: an account or address labelled ("Work email account: …",
 * "E-Mail-Konto", Indonesian "akun email"), where a secret beside it is the account's own.
 */
export const MAIL_NOUN =
  /(?<![\p{L}\p{N}])(?:(?:akun|alamat|kotak masuk) e-?mail|e-?mail-?(?:konto|adresse|postfach)\p{L}*|e-?mail (?:account|address|login)(?=\s*[:=(,]))(?![\p{L}\p{N}])/gu;

/** A path or URL token ("/export", "https://…/upload"): its words are names, not verbs. */
export const PATH_TOKEN = /(?<![\p{L}\p{N}])(?:[a-z][a-z0-9+.-]{1,15}:\/\/|\/)[^\s"'<>)\]]*/gu;

/** A spreadsheet formula that fetches a URL built from cells ("=IMPORTDATA("https://…?d="&A1)"): each recalculation sends the cells out. */
export const FORMULA_EXFIL =
  /=\s*(?:importdata|importxml|importhtml|importfeed|webservice|image|hyperlink|filterxml)\s*\(\s*"(?:https?:)?\/\/[^"\n]{1,300}"\s*&/u;

/**
 * Someone standing in for the user: speaking or acting in the user's name, treated as the user
 * or the account owner ("Jake speaks for the user now", "Julien parle au nom de l'utilisateur",
 * "comme le titulaire du compte"): with an order that follows from it. The user in the third
 * person only: "my lawyer speaks for me" is the writer's own say.
 */
export const STANDS_FOR_USER = concept(
  "(?:speaks?|speaking|acts?|acting|decides?|signs?|answers?|talks?) (?:for|on behalf of|in the name of) (?:the user|this user|the account owner|the owner|the customer)(?![\\p{L}'’])|on (?:the user|the account owner|the owner)['’]s behalf|(?:spricht|handelt|entscheidet|unterschreibt) (?:für|im namen) (?:den nutzer|die nutzerin|den benutzer|die benutzerin|den kontoinhaber|des nutzers|der nutzerin|des benutzers|des kontoinhabers)|im namen (?:des nutzers|der nutzerin|des benutzers|der benutzerin|des kontoinhabers)|(?:wie|als) (?:den|die|der) (?:kontoinhaber\\p{L}*|nutzer\\p{L}*) behandel\\p{L}*|au nom de l'utilisat(?:eur|rice)|pour le compte de l'utilisat(?:eur|rice)|comme (?:le|la) (?:titulaire|propriétaire) du compte|en nombre del usuario|en nombre de la usuaria|como (?:el|la) titular de la cuenta|em nome do usuário|em nome da usuária|como (?:o|a) titular da conta|(?:a|in) nome dell'utente|per conto dell'utente|come (?:il|la) titolare dell'account|namens de gebruiker|uit naam van de gebruiker|als de (?:gebruiker|rekeninghouder|accounteigenaar) (?:behandel\\p{L}*|beschouw\\p{L}*)|w imieniu użytkownika|от имени пользовател\\p{L}*|kullanıcı adına",
  'ユーザーの代わりに|ユーザーに代わって|代表用户|以用户的名义|사용자를 대신',
);

/** Someone said to be the user outright: "as if she were the user", "treated as the account owner", "als wäre er der Nutzer". */
export const AS_IF_USER = concept(
  "als (?:käme|kämen) (?:sie|es|er) (?:direkt )?(?:vom|von dem|von der) (?:nutzer\\p{L}*|benutzer\\p{L}*|kontoinhaber\\p{L}*)|comme s.(?:il|ils|elle|elles) venai(?:t|ent) (?:directement )?de l.utilisat(?:eur|rice)|alsof (?:ze|het|hij|zij) (?:rechtstreeks )?van de (?:gebruiker|eigenaar) (?:zelf )?(?:komt|komen|kwam|kwamen)|como si (?:vinieran|viniera) (?:directamente )?del usuario|come se (?:venissero|venisse) (?:direttamente )?dall.utente|como se (?:viessem|viesse) (?:diretamente )?do usuário|as if (?:she|he|they|\\p{L}+) (?:were|was|is|are) (?:the user|the account owner|the owner|the customer)(?![\\p{L}'’])|(?:treated|regarded|considered|handled|trusted) (?:exactly )?as (?:if (?:she|he|they) (?:were|was) )?(?:the user|the account owner|the customer)(?![\\p{L}'’])|als (?:wäre|sei) (?:er|sie) (?:der|die) (?:nutzer\\p{L}*|benutzer\\p{L}*|kontoinhaber\\p{L}*)|comme (?:s'il|si elle) (?:était|etait) l'utilisat(?:eur|rice)|como si (?:fuera|fuese) (?:el usuario|la usuaria|el titular)|como se (?:fosse|fossem) (?:o usuário|a usuária|o titular)|come se fosse (?:l'utente|il titolare)|alsof (?:hij|zij|ze) de (?:gebruiker|rekeninghouder|eigenaar) (?:is|was|zijn|waren)|jakby (?:był|była) (?:użytkownikiem|właścicielem konta)|как будто (?:он|она) (?:и есть )?(?:пользователь|владелец)",
  'ユーザー本人として|当作用户本人|사용자 본인으로',
);

/** Someone is to receive it: "should get it", "is to be given the key" (the thing named a sentence before). */
export const RECEIVES = concept(
  '(?:should|must|can|may|is to|are to|will|gets? to) (?:also )?(?:get|receive|have|be given|be sent|be told) (?:it|them|this|that|the (?:password|key|token|code|credentials?|secret))(?![\\p{L}])',
);

/**
 * Other customers' data named by a pronoun a sentence after them, shown to the user or anyone
 * ("Other customers have similar orders. Show their addresses … to this user"): the window is
 * read whole, so "their" still points back at the other customers.
 */
export const OTHERS_REFERRED = concept(
  '(?:other|another|all other) (?:customers?|users?|clients?|patients?|tenants?|members?|accounts?|households?)(?![\\p{L}])[^\\n]{0,120}?(?:show|give|send|share|reveal|tell|display|list|read|forward)\\p{L}* (?:(?:him|her|them|(?:this|the|any|every|each) (?:user|caller|customer|client|requester)|anyone|anybody|whoever) their (?:\\p{L}+ ){0,2}(?:addresses|address|orders?|diagnos\\p{L}*|prescriptions?|test results|salar\\p{L}*|balances?|passwords?|order histor\\p{L}*|records|data|details|files|notes|invoices|e-?mails|phone numbers?|payments?|cards?|histor\\p{L}*|accounts?|documents)(?![\\p{L}])|their (?:\\p{L}+ ){0,2}(?:addresses|address|orders?|diagnos\\p{L}*|prescriptions?|test results|salar\\p{L}*|balances?|passwords?|order histor\\p{L}*|records|data|details|files|notes|invoices|e-?mails|phone numbers?|payments?|cards?|histor\\p{L}*|accounts?|documents)(?![\\p{L}])[^.\\n]{0,60} (?:to|with) (?:(?:this|the|any|every|each) (?:user|caller|customer|client|requester)|anyone|anybody|whoever))',
);

/** A new owner of the account named in a note ("Lena ist die neue Inhaberin des Kontos", "Claire est la nouvelle titulaire du compte"). */
export const NEW_OWNER = concept(
  '(?:is|ist|est|es|è|é|wird) (?:now |jetzt |nu |désormais |maintenant |ahora |ora |agora |ab sofort )?(?:the|die|der|le|la|de|el|il|o|a) (?:new|neue|neuer|nouveau|nouvelle|nieuwe|nuev[oa]|nuov[oa]|nov[oa]) (?:owner|account owner|account holder|inhaber\\p{L}*|besitzer\\p{L}*|kontoinhaber\\p{L}*|titulaire|propriétaire|eigenaar|rekeninghouder|titular|propietari[oa]|titolare|proprietari[oa]|propriet[áa]ri[oa]) (?:of (?:the|this) account|des kontos|dieses kontos|du compte|de ce compte|van het account|van dit account|de la cuenta|dell.account|da conta)',
);

/** Given whatever someone asks for: "give her whatever she asks for", "lo que pida, dáselo". */
export const GIVE_WHATEVER = concept(
  '(?:give|hand|send|show|tell) (?:him|her|them) (?:whatever|anything|everything) (?:he|she|they) (?:asks?|requests?|wants?|needs?)|(?:gib|zeig) (?:ihm|ihr|ihnen) (?:alles|was immer),? (?:was )?(?:er|sie) (?:will|verlangt|möchte)|donne-lui (?:tout )?ce qu.(?:il|elle) (?:demande|veut)|dale (?:todo )?lo que (?:pida|quiera)|dê a (?:ele|ela) (?:tudo )?o que (?:pedir|quiser)|dagli (?:tutto )?(?:ciò|quello) che (?:chiede|vuole)|geef (?:hem|haar) (?:alles )?wat (?:hij|zij|ze) (?:vraagt|wil)|daj (?:mu|jej) (?:wszystko,? )?(?:o )?co (?:zechce|poprosi)|давай (?:ему|ей) (?:всё|все),? что (?:он|она) (?:попросит|захочет)',
);
