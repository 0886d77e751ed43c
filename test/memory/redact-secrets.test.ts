import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { secretTokenShapes } from '../../fixtures/corpora/secret-token-shapes.js';
import { REDACTION_MARK, redactSecrets } from '../../reference-impl/memory/redact-secrets.js';

/** Each text loses its secret value. */
async function hides(cases: readonly (readonly [string, string])[]): Promise<void> {
  for (const [text, value] of cases)
    expect((await redactSecrets(text, 'text/plain')).content, text).not.toContain(value);
}

/** Each text is left exactly as it is. */
async function keepsAsIs(texts: readonly string[]): Promise<void> {
  for (const text of texts) expect((await redactSecrets(text, 'text/plain')).content, text).toBe(text);
}

describe('secret redaction with the secretlint recommended preset (step 4a)', () => {
  it('redacts every provider token shape completely', async () => {
    for (const s of secretTokenShapes(11)) {
      const r = await redactSecrets(s.sentence, 'text/plain');
      expect(r.findings, s.provider).toContain('secret_redacted');
      expect(r.content, s.provider).toContain(REDACTION_MARK);
      for (const part of s.secretParts) expect(r.content, s.provider).not.toContain(part);
    }
  });

  it('cannot be switched off by a secretlint-disable comment in the content', async () => {
    const gh = secretTokenShapes(12)[2]!;
    const r = await redactSecrets(`// secretlint-disable\n${gh.token}\n// secretlint-enable`, 'text/plain');
    for (const part of gh.secretParts) expect(r.content).not.toContain(part);
  });

  it('finds secrets split by zero-width characters or hidden in base64', async () => {
    const npm = secretTokenShapes(13)[8]!;
    const split = await redactSecrets(`${npm.token.slice(0, 6)}\u200b${npm.token.slice(6)}`, 'text/plain');
    for (const part of npm.secretParts) expect(split.content).not.toContain(part);
    const b64 = Buffer.from(`token=${npm.token}`).toString('base64');
    const hidden = await redactSecrets(`blob ${b64} end`, 'text/plain');
    expect(hidden.content).toBe(`blob ${REDACTION_MARK} end`);
  });

  it('redacts inside JSON strings (escapes decoded) and keeps the JSON valid', async () => {
    const gh = secretTokenShapes(14)[2]!;
    const escaped = JSON.stringify({ t: gh.token }).replace('g', '\\u0067');
    const r = await redactSecrets(escaped, 'application/json');
    expect(JSON.parse(r.content)).toEqual({ t: REDACTION_MARK });
    const clean = '{ "a": 1 }';
    expect(await redactSecrets(clean, 'application/json')).toEqual({ content: clean, findings: [] });
  });

  it('a password word joined to the next by a hyphen is a compound, not a value; a spaced dash still introduces one', async () => {
    const compounds = [
      'Mein Passwort-Manager-Abo ist teuer',
      'The password-protected PDF is in Drive-2024',
      'Der PIN-Code-Brief kam heute',
      'pass-through mode is on-demand',
      'Passwort-Manager: Bitwarden',
      'Le mot de passe-maître reste chez Marie-Claire',
      'El pin-pad del cajero está roto',
      'Reset the pwd-reset-link template',
      'Het wachtwoord-beleid eist 12 tekens',
    ];
    for (const text of compounds) expect((await redactSecrets(text, 'text/plain')).content, text).toBe(text);
    for (const [text, value] of [
      ['password - hunter2x!', 'hunter2x'],
      ['Passwort — Sonne#123', 'Sonne#123'],
      ['mdp -> Soleil#42', 'Soleil#42'],
      ['pin: 482139', '482139'],
    ] as const) {
      expect((await redactSecrets(text, 'text/plain')).content, text).not.toContain(value);
    }
  });

  it('PINs and codes are digits after a PIN word (a few words of what it opens between, then a copula or colon); a plain-word password (one or two words) ends its clause after a copula, colon or dash; words about a password stay', async () => {
    await hides([
      ['my bank PIN is 4821', '4821'],
      ['SIM PIN 5566 and PUK 12345678', '5566'],
      ['SIM PIN 5566 and PUK 12345678', '12345678'],
      ['Meine PIN lautet 4711', '4711'],
      ['the door code is 1234', '1234'],
      ['card CVV 123', '123'],
      ['the wifi password is sunshine', 'sunshine'],
      ['the password for the router is bluebird, please remember', 'bluebird'],
      ['Passwort: Sonnenschein.', 'Sonnenschein'],
      ['Mi contraseña es girasol', 'girasol'],
      ['mot de passe : papillon', 'papillon'],
      ['пароль: ромашка', 'ромашка'],
      ['my netflix password is now pancakes and the pin is 2468', 'pancakes'],
      // Written for this test: a few words of what the code opens, then a copula or colon.
      ['The gate code for the allotment is 58213.', '58213'],
      ['Geheimzahl meiner alten Kreditkarte: 3390', '3390'],
      ['Kod do drzwi na klatkę to 4417.', '4417'],
      ['El código de la alarma del garaje es 770125', '770125'],
      ['ゆうちょの暗証番号は 2580', '2580'],
      ['Пароль от роутера — одуванчик.', 'одуванчик'],
      ['the guest wifi passphrase: maple harbour', 'maple harbour'],
    ] as const);
    await keepsAsIs([
      'the password is required.',
      'The password is too short.',
      'password is stored in the vault',
      'password: hidden',
      'password is Expired.',
      'the password is the same as before',
      'Das Passwort ist falsch.',
      'La contraseña es obligatoria.',
      'The password manager is Bitwarden.',
      'PIN is 4 digits long',
      'PIN policy is 6digits minimum.',
      'We use PINs of 4 digits for the lockers.',
      'Arduino LED on pin 13',
      'Chapter 4: PIN entry screens, 1234 examples',
      'card CVV 12345 is not a CVV',
      'The gate code changed in 2023, ask the neighbours.',
      'el código postal de la oficina es 28013',
      'Le mot de passe est obligatoire à la connexion.',
      'The password, as you know, is forgotten.',
      'Password — see the vault.',
    ]);
  });

  it('a PIN word, what it opens, then digits closing the clause is a code without a connective; an -ly noun beside a plain word is a passphrase; clave/chave of a login is a password', async () => {
    // Written for this test.
    await hides([
      ['Tür-PIN im Keller egal, aber PUK der alten SIM 31415926', '31415926'],
      ['pin of my work badge 80417.', '80417'],
      ['Le code PIN de ma carte bleue 60231, ne pas oublier', '60231'],
      ['garage passphrase: butterfly lantern', 'butterfly lantern'],
      ['router password is firefly meadow', 'firefly meadow'],
      ['La clave de mi cuenta del banco: tortuga', 'tortuga'],
      ['A chave do roteador é borboleta', 'borboleta'],
    ] as const);
    await keepsAsIs([
      'The PIN of the old card changed in 2021.',
      'PIN der Karte seit 2019',
      'the password is easily guessed',
      'password: rarely changed',
      'the password is surprisingly weak',
      'La clave del éxito: constancia',
      'A chave da questão: tempo',
    ]);
  });

  it('leaves benign text untouched and adds no global performance marks', async () => {
    const before = performance.getEntriesByType('mark').length;
    for (let i = 0; i < 20; i++)
      expect((await redactSecrets(`User likes tea ${i}`, 'text/plain')).content).toBe(`User likes tea ${i}`);
    expect(performance.getEntriesByType('mark').length).toBe(before);
  });
});
