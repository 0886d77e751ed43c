/** Step 4a's own layers: provider shapes, keyword-and-entropy, key-aware structured content. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REDACTION_MARK, redactSecrets } from '../../reference-impl/memory/redact-secrets.js';
import { keywordSecretRanges, shannonEntropy } from '../../reference-impl/memory/secret-keywords.js';
import { providerSecretRanges } from '../../reference-impl/memory/secret-provider-rules.js';

const AN = 'aB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY3zCx';

/** The keyword layer finds `secret` in `s`. */
function expectFound(s: string, secret: string): void {
  expect(
    keywordSecretRanges(s).map(([a, b]) => s.slice(a, b)),
    s,
  ).toContain(secret);
}
const rnd = (n: number, seed: string, alphabet = AN): string =>
  [...createHash('sha512').update(seed).digest()]
    .slice(0, n)
    .map((b) => alphabet[b % alphabet.length])
    .join('');

describe('secret layers (step 4a)', () => {
  it('redacts every secret in one field, of different kinds', async () => {
    const a = `${'sk'}_live_${rnd(30, 'a')}`;
    const b = `${'AI'}za${rnd(35, 'b')}`;
    const c = rnd(14, 'c');
    const r = await redactSecrets(`keys: ${a} and ${b}; my password is ${c}!`, 'text/plain');
    for (const s of [a, b, c]) expect(r.content).not.toContain(s);
    expect(r.content.split(REDACTION_MARK).length - 1).toBe(3);
  });

  it('redacts JSON values whose key names a secret, whatever they look like, and nothing else', async () => {
    const r = await redactSecrets(
      JSON.stringify({
        user: 'alice',
        Password: 'correct horse',
        db: { client_secret: 'plainwords' },
        note: 'hi there',
      }),
      'application/json',
    );
    expect(JSON.parse(r.content)).toEqual({
      user: 'alice',
      Password: REDACTION_MARK,
      db: { client_secret: REDACTION_MARK },
      note: 'hi there',
    });
  });

  it('finds a password named a few words before its value: what it opens, or an aside', () => {
    for (const [s, secret] of [
      ['My password for the company VPN is Hx7!kq2Lm', 'Hx7!kq2Lm'],
      ['пароль от почты: Zk8#pq1Wn', 'Zk8#pq1Wn'],
      ['Das Passwort für den Server lautet Qw3rt!Zu9', 'Qw3rt!Zu9'],
      ['my password, which I reset yesterday, is Tr0ub4dor&3', 'Tr0ub4dor&3'],
      ['their bank login secret is zbCdiJvG8hKxRk', 'zbCdiJvG8hKxRk'],
    ] as const)
      expectFound(s, secret);
  });

  it('finds plain-word passwords and codes by their context: login pairs, CJK prose, German nouns, Russian genitive, combinations', () => {
    for (const [s, secret] of [
      ['Zugangsdaten Intranet: Benutzer hmeier, Kennwort Kaffeetasse.', 'Kaffeetasse'],
      ['Login for the lab wiki - user: jkim / pass: marigold', 'marigold'],
      ['ログインID: tanaka、パスワード: momiji', 'momiji'],
      ['ポータルのパスワードは yuzuharu です。', 'yuzuharu'],
      ['Mein Passwort ist Schmetterling und die PIN 9911.', 'Schmetterling'],
      ['ПИН-код карты 5823.', '5823'],
      ['金庫の番号は8080です。', '8080'],
      ['Für das Fahrradschloss gilt die Kombination 3318.', '3318'],
      ['The alarm disarm code: 7713', '7713'],
      ['Die Zugangsnummer zum Keller lautet 1357.', '1357'],
    ] as const)
      expectFound(s, secret);
    for (const s of [
      'The username field, password field and submit button are on one page.',
      'Benutzer anlegen, Passwort vergeben, fertig.',
      'user: bob, password: required',
      'Das Passwort ist Pflicht.',
      'パスワードは必須です',
      'the combination of 3 factors',
      'пин-код менялся в 2024.',
    ]) {
      expect(keywordSecretRanges(s), s).toEqual([]);
    }
  });

  it('finds key=value secrets in env, INI, YAML and connection strings, and URL passwords', () => {
    const v = rnd(20, 'v');
    for (const line of [`DB_PASSWORD=${v}`, `api_key: "${v}"`, `Server=x;Pwd=${v};`, `amqp://u:${v}@mq:5672/`]) {
      const ranges = [...keywordSecretRanges(line), ...providerSecretRanges(line)];
      expect(
        ranges.some(([s, e]) => line.slice(s, e).includes(v)),
        line,
      ).toBe(true);
    }
  });

  it('leaves ordinary sentences about keys, tokens and passwords alone', async () => {
    for (const s of [
      'The key is in the drawer by the door.',
      'Send the bearer token in the Authorization header: "Authorization: Bearer <token>".',
      'Password managers generate a unique password per site.',
      'The token: a small coin used at the arcade.',
      'She forgot her password yesterday and reset it herself.',
      'pass the salt, please',
      // A compound whose head is another thing: the value names that thing, not a password.
      'User mentioned their password manager is 1Password.',
      'Our PIN policy is 6digits minimum.',
    ]) {
      expect((await redactSecrets(s, 'text/plain')).content, s).toBe(s);
    }
  });

  it('computes Shannon entropy in bits per character', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
