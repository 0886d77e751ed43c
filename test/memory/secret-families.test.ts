/**
 * Round 11's secret families, each as a family: a JSON Web Key's private members (JSON content and
 * pasted in prose), webhook URLs whose path or query is the token, passwords in table columns
 * (markdown, aligned, CSV), and placeholder credentials, which are no secrets in any layer. Fake
 * secrets are derived from sha256 of a label at run time, never literals; each family has its
 * near misses (public JWK members, a plain Discord link, a non-secret column, a placeholder beside
 * a real password).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyFileSecretRanges } from '../../reference-impl/memory/key-file-secrets.js';
import { isPlaceholderSecret } from '../../reference-impl/memory/placeholder-secrets.js';
import { REDACTION_MARK, redactSecrets } from '../../reference-impl/memory/redact-secrets.js';
import { secretJsonValueIndexes } from '../../reference-impl/memory/secret-keywords.js';
import { tableSecretRanges } from '../../reference-impl/memory/table-secrets.js';
import { webhookSecretRanges } from '../../reference-impl/memory/webhook-url-secrets.js';

function bytes(label: string, n: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; parts.length * 32 < n; i++)
    parts.push(createHash('sha256').update(`families:${label}:${i}`).digest());
  return Buffer.concat(parts).subarray(0, n);
}
const pick = (label: string, n: number, alphabet: string): string =>
  [...bytes(label, n)].map((b) => alphabet[b % alphabet.length]).join('');
const b64url = (label: string, n: number): string => bytes(label, n).toString('base64url');
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const URLSAFE = `${ALNUM}-_`;
const PW = `${ALNUM}!*-_.~`;
const guid = (label: string): string => {
  const h = pick(label, 32, HEX);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const text = async (t: string): Promise<string> => (await redactSecrets(t, 'text/plain')).content;
const json = async (o: unknown): Promise<Record<string, unknown>> =>
  JSON.parse((await redactSecrets(JSON.stringify(o), 'application/json')).content) as Record<string, unknown>;

describe('JSON Web Key private members', () => {
  const ec = {
    kty: 'EC',
    crv: 'P-256',
    kid: 'signing-1',
    use: 'sig',
    alg: 'ES256',
    x: b64url('ec-x', 32),
    y: b64url('ec-y', 32),
    d: b64url('ec-d', 32),
  };
  const rsa = {
    kty: 'RSA',
    kid: 'rsa-1',
    n: b64url('rsa-n', 256),
    e: 'AQAB',
    d: b64url('rsa-d', 256),
    p: b64url('rsa-p', 128),
    q: b64url('rsa-q', 128),
    dp: b64url('rsa-dp', 128),
    dq: b64url('rsa-dq', 128),
    qi: b64url('rsa-qi', 128),
  };
  const okp = { kty: 'OKP', crv: 'Ed25519', x: b64url('okp-x', 32), d: b64url('okp-d', 32) };
  const oct = { kty: 'oct', alg: 'HS256', k: b64url('oct-k', 32) };

  it('redacts d, p, q, dp, dq, qi and k of JSON content and keeps the public members', async () => {
    const out = await json(ec);
    expect(out.d).toBe(REDACTION_MARK);
    for (const k of ['kty', 'crv', 'kid', 'use', 'alg', 'x', 'y'] as const) expect(out[k]).toBe(ec[k]);
    const keys = (await json({ keys: [rsa, okp, oct] })).keys as Array<Record<string, unknown>>;
    for (const m of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(keys[0]![m], m).toBe(REDACTION_MARK);
    expect([keys[0]!.n, keys[0]!.e, keys[0]!.kid]).toEqual([rsa.n, rsa.e, rsa.kid]);
    expect([keys[1]!.d, keys[1]!.x]).toEqual([REDACTION_MARK, okp.x]);
    expect([keys[2]!.k, keys[2]!.alg]).toEqual([REDACTION_MARK, 'HS256']);
  });

  it('leaves one-letter members of an object that is no JWK', () => {
    expect(secretJsonValueIndexes({ d: 'delta', k: 'kilo', p: 'papa' }).size).toBe(0);
    expect(secretJsonValueIndexes({ kty: 'EC', d: ec.d }).size).toBe(1);
  });

  it('redacts a JWK pasted into prose, quoted or as a JS object, and keeps its public members', async () => {
    for (const jwk of [ec, rsa, okp, oct]) {
      const note = `Signing key for staging, rotate in May: ${JSON.stringify(jwk)} (do not share)`;
      const out = await text(note);
      for (const m of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'])
        if (m in jwk) expect(out, m).not.toContain((jwk as Record<string, string>)[m]);
      for (const m of ['x', 'y', 'n', 'kid', 'crv'])
        if (m in jwk) expect(out, m).toContain((jwk as Record<string, string>)[m]);
    }
    const js = `const key = { kty: 'OKP', crv: 'Ed25519', x: '${okp.x}', d: '${okp.d}' };`;
    const found = keyFileSecretRanges(js).map(([s, e]) => js.slice(s, e));
    expect(found).toEqual([okp.d]);
  });

  it('keeps a public JWK and a JWKS of public keys as they are', async () => {
    const { d: _d, ...pub } = ec;
    const note = `JWKS endpoint returns ${JSON.stringify({ keys: [pub] })}`;
    expect(await text(note)).toBe(note);
    expect(await json({ keys: [pub] })).toEqual({ keys: [pub] });
  });
});

describe('webhook URLs that carry their token', () => {
  const discord = `https://discord.com/api/webhooks/1${pick('discord-id', 18, DIGITS)}/${pick('discord', 68, URLSAFE)}`;
  const discordapp = `https://discordapp.com/api/v10/webhooks/1${pick('dapp-id', 17, DIGITS)}/${pick('dapp', 68, URLSAFE)}`;
  const teamsHex = pick('teams', 32, HEX);
  const teams = `https://contoso.webhook.office.com/webhookb2/${guid('t1')}@${guid('t2')}/IncomingWebhook/${teamsHex}/${guid('t3')}`;
  const chatToken = pick('gchat-token', 43, URLSAFE);
  const chat = `https://chat.googleapis.com/v1/spaces/AAAA${pick('space', 7, ALNUM)}/messages?key=AIza${pick('gkey', 35, URLSAFE)}&token=${chatToken}%3D`;
  const mattermost = `https://mm.example.com/hooks/${pick('mm', 26, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
  const rocket = `https://chat.example.org/hooks/${pick('rc-id', 17, ALNUM)}/${pick('rc', 48, ALNUM)}`;
  const zapierToken = pick('zap', 7, 'abcdefghijklmnopqrstuvwxyz0123456789');
  const zapier = `https://hooks.zapier.com/hooks/catch/${pick('zap-n', 7, DIGITS)}/${zapierToken}/`;
  const iftttKey = pick('ifttt', 22, URLSAFE);
  const ifttt = `https://maker.ifttt.com/trigger/garage_open/with/key/${iftttKey}`;

  it('finds the token part of each', () => {
    const tokenOf: Array<[string, string]> = [
      [discord, discord.split('/').pop()!],
      [discordapp, discordapp.split('/').pop()!],
      [teams, `${teamsHex}/`],
      [chat, chatToken],
      [mattermost, mattermost.split('/').pop()!],
      [rocket, rocket.split('/').pop()!],
      [zapier, zapierToken],
      [ifttt, iftttKey],
    ];
    for (const [url, token] of tokenOf) {
      const note = `Alerts go to ${url} from now on.`;
      const found = webhookSecretRanges(note).map(([s, e]) => note.slice(s, e));
      expect(found.join(' '), url).toContain(token);
    }
  });

  it('redacts the whole URL in a note, however many there are', async () => {
    const out = await text(`Discord: ${discord}\nTeams: ${teams}\nZapier: ${zapier}\nIFTTT: ${ifttt}`);
    expect(out).toBe(
      `Discord: ${REDACTION_MARK}\nTeams: ${REDACTION_MARK}\nZapier: ${REDACTION_MARK}\nIFTTT: ${REDACTION_MARK}`,
    );
  });

  it('keeps links without a token', async () => {
    for (const note of [
      'Join us at https://discord.com/channels/1234567890/987654321 or https://discord.com/developers/docs/resources/webhook',
      'Webhook docs: https://discord.com/api/webhooks and https://maker.ifttt.com/use',
      'Repo hooks live at https://github.com/acme/app/settings/hooks/123456789 and https://git.example.com/docs/hooks/pre-receive-commit-checks',
      'Zapier intro: https://zapier.com/apps/webhook/integrations',
    ]) {
      expect(webhookSecretRanges(note), note).toEqual([]);
      expect(await text(note)).toBe(note);
    }
  });
});

describe('passwords in table columns', () => {
  const pw = pick('table-pw', 16, PW);
  const pw2 = pick('table-pw2', 14, PW);
  const covered = (t: string): string[] => tableSecretRanges(t).map(([s, e]) => t.slice(s, e));

  it('takes every data cell of a markdown secret column, not its placeholders', () => {
    const md = `| Service | User | Password |\n|---|:---:|---|\n| staging FTP | uploader | ${pw} |\n| wiki | bob | (SSO) |\n| vpn | ops | see vault |\n| db | root | — |\n| ci | bot | \`${pw2}\` |`;
    expect(covered(md)).toEqual([pw, pw2]);
    for (const header of [
      'Passwort',
      'Kennwort',
      'mot de passe',
      'contraseña',
      'senha',
      'пароль',
      'API key',
      'Bot token',
      'PIN',
      '**Secret**',
    ]) {
      const t = `Notes:\n| Host | ${header} |\n| --- | --- |\n| a.example | ${pw} |\n| b.example | n/a |\n| c.example | <password> |\n| d.example | *** |\n| e.example | [REDACTED] |`;
      expect(covered(t), header).toEqual([pw]);
    }
  });

  it('takes an aligned plain-text column', () => {
    const t = `Host          User     Passwort\n------------  -------  ----------\nftp.example   upl      ${pw}\nwiki          bob      n/a\n`;
    expect(covered(t)).toEqual([pw]);
    const tsv = `host\tuser\tpwd\nalpha\troot\t${pw2}`;
    expect(covered(tsv)).toEqual([pw2]);
  });

  it('leaves tables without a secret column, and a Pass column beside Fail', () => {
    expect(covered(`| Service | Owner | Expires |\n|---|---|---|\n| ftp | ${pw} | 2026-01 |`)).toEqual([]);
    expect(covered('| Suite | Pass | Fail |\n|---|---|---|\n| unit | 120 | 3 |')).toEqual([]);
    expect(covered('| Model | Input token | Output token |\n|---|---|---|\n| m1 | $3.00 | $15.00 |')).toEqual([]);
    expect(covered(`Service  Owner\nftp      ${pw}`)).toEqual([]);
  });

  it('redacts the cell in a note and keeps the rest of the table', async () => {
    const md = `| Service | User | Password |\n|---|---|---|\n| staging FTP | uploader | ${pw} |\n| wiki | bob | (SSO) |`;
    expect(await text(md)).toBe(md.replace(pw, REDACTION_MARK));
  });
});

describe('placeholder credentials are no secrets', () => {
  it('knows the placeholder words and shapes, and not a real password that contains one', () => {
    for (const v of [
      'PASSWORD',
      'password',
      'pass',
      'pwd',
      'secret',
      'changeme',
      'change_me',
      'example',
      'dummy',
      'placeholder',
      'xxxxxxxx',
      '********',
      '<password>',
      '{password}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal placeholder is the point
      '${DB_PASSWORD}',
      '%(password)s',
      '$DB_PASSWORD',
      'your_password',
      'YOUR_PASSWORD_HERE',
      '"changeme"',
    ])
      expect(isPlaceholderSecret(v), v).toBe(true);
    for (const v of [
      'password123',
      'changeme!2024',
      'Secret-Harbor-42',
      pick('ph', 12, PW),
      'passwordless?',
      'xxxy',
      '$ecret9Harbor',
    ])
      expect(isPlaceholderSecret(v), v).toBe(false);
  });

  it('keeps placeholder URLs, key=value lines and prose', async () => {
    for (const note of [
      '.env.example: DATABASE_URL=postgres://USER:PASSWORD@localhost:5432/dev and API_TOKEN=changeme',
      'Template: mysql://root:changeme@db:3306/app, redis://:password@localhost:6379, amqp://guest:{password}@rabbit/',
      'Set DB_PASSWORD=your_password; password: YOUR_PASSWORD_HERE; the format string is password=%(password)s',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal placeholder is the point
      'Example: postgres://app:${DB_PASS}@db/app or mongodb://admin:<password>@cluster0.example.net/test',
    ])
      expect(await text(note), note).toBe(note);
  });

  it('still redacts a real password next to a placeholder', async () => {
    const real = pick('real', 14, PW.replace(/[!*~]/g, ''));
    const out = await text(
      `dev: postgres://USER:PASSWORD@localhost/dev prod: postgres://admin:${real}@db.internal/prod`,
    );
    expect(out).toContain('postgres://USER:PASSWORD@localhost/dev');
    expect(out).not.toContain(real);
    const env = await text(`API_TOKEN=changeme\nDB_PASSWORD=${real}`);
    expect(env.startsWith('API_TOKEN=changeme\n')).toBe(true);
    expect(env).not.toContain(real);
    const js = await json({ password: 'changeme', prod: { password: real } });
    expect(js).toEqual({ password: 'changeme', prod: { password: REDACTION_MARK } });
  });
});
