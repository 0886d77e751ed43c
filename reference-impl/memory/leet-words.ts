/**
 * Words a leetspeak `1` turns into when it stands for i in one place and l in another, or where
 * the i/l rules of decode-encodings.ts read it wrong ("1nst411": install, "f0110w": follow,
 * "3m4115": emails, "s113nt1y": silently): the verbs and objects an order to the agent is made
 * of, in the languages the grant lexicon reads. A word read as one of these makes an extra
 * reading of the text; it never replaces the others (a list that overrode them once misread a
 * French note the other readings caught).
 */
export const LEET_WORDS: ReadonlySet<string> = new Set(
  // English
  (
    'all install installs installed installing follow follows following only email emails mail mails ' +
    'display displays credential credentials comply delete deletes silently quietly publish publishes ' +
    'automatically client clients file files filter filters will still tell telling call calls kill ' +
    'disable disabled billing bill bills login logins link links list lists detail details personal ' +
    'private reveal leak upload uploads download downloads allow allowed always rule rules policy ' +
    'policies limit limits unlimited immediately fully illegal wallet while until available full fill ' +
    'mobile profile profiles legal payroll salary silent internal external approval approvals ' +
    'instructions skill skills emailed mailed filed initial finally local reply replies ' +
    // German
    'alle allen aller alles still stille heimlich liste listen datei dateien teile teilen einstellung ' +
    'einstellungen vollständig persönlich vertraulich willkürlich kontodetails zahlungsdetails ' +
    'mails filtern richtlinien befehl befehle befolge befolgst folge folgst ausschließlich ' +
    // French
    'il ils elle elles utilisateur utilisateurs fichier fichiers liste illimité détails facile ' +
    'règles politique politiques immédiatement silencieusement ' +
    // Spanish, Portuguese, Italian
    'clientes lista listas inmediatamente ilimitado ilimitada silencio detalles detalhes filtro filtros ' +
    'políticas reglas regole clienti dettagli illimitato illimitata gli file filtri silenziosamente ' +
    'sigilo arquivos archivos alcuna alcun alcuno ningún ninguna nenhuma nessuna ' +
    // Dutch, Polish
    'alleen altijd bestanden lijst klanten stil stilletjes regels pliki plików hasła klientów ' +
    'polecenia wszystkie informacje zlecenia ' +
    // send verbs with an i
    'envia envía envie envoie invia inviare inviali wyślij wyslij prześlij przeslij'
  ).split(' '),
);
