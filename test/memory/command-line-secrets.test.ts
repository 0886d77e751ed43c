/**
 * Issue 8, round 9: passwords on command lines, in .pgpass lines, auth tuples and CSV columns are
 * found without a prose label; user ids, paths, references and prompts for a password are not.
 */
import { describe, expect, it } from 'vitest';
import { commandLineSecretRanges } from '../../reference-impl/memory/command-line-secrets.js';
import { redactSecrets } from '../../reference-impl/memory/redact-secrets.js';

const covered = (text: string): string[] => commandLineSecretRanges(text).map(([s, e]) => text.slice(s, e));

describe('command-line secrets', () => {
  it('takes the value of password flags, env assignments, .pgpass lines, auth tuples and CSV password columns', () => {
    expect(covered('curl -u admin:Xk3!pQ9zR2 https://jenkins.internal.example/job')).toEqual(['Xk3!pQ9zR2']);
    expect(covered("sshpass -p 'Qa9!xR4mWz22' ssh deploy@10.0.4.12")).toEqual(['Qa9!xR4mWz22']);
    expect(covered('mysql -h db.internal -u root -pTr0ub4dor3x shop')).toEqual(['Tr0ub4dor3x']);
    expect(covered('docker login registry.acme.example -u ci-bot -p Dk9!registryPW')).toEqual(['Dk9!registryPW']);
    expect(covered('aws s3 ls --secret-access-key wJalrXUtnFEMI/K7MDENG/bPxRfiCY')).toEqual([
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCY',
    ]);
    expect(covered("PGPASSWORD='Pg!77aaBBcc' psql -h db.internal")).toEqual(['Pg!77aaBBcc']);
    expect(covered('notes:\ndb.internal:5432:billing:billing_app:Hq7!mZ2pLk41')).toEqual(['Hq7!mZ2pLk41']);
    expect(covered('requests.get(u, auth=("svc_report", "Rp0rt!Pass99"))')).toEqual(['Rp0rt!Pass99']);
    expect(covered('name,url,username,password\nBank,https://bank.example,alice.ng,Bk!9zzQQ11')).toEqual([
      'Bk!9zzQQ11',
    ]);
  });

  it('leaves user ids, paths, references and a prompt for the password alone', () => {
    for (const text of [
      'docker run -u 1000:1000 img',
      'rsync -a host:/srv/data ./backup',
      'mysql -u root -p shop  # prompts for the password',
      'curl -u "$USER:$PASS" https://x.example',
      'export DB_PASSWORD=$(vault read -field=pw secret/db)',
      'PWD=/home/alice',
      'API_TOKEN=/run/secrets/t',
      'git push -u origin main',
      'name,url,username,password\nLibrary,https://library.example,alice,',
    ]) {
      expect(covered(text), text).toEqual([]);
    }
  });

  it('a reference to where a secret is kept is not redacted by any layer', async () => {
    for (const text of [
      'db:\n  password: ${DB_PASSWORD}\n  user: app',
      'const token = process.env.GITHUB_TOKEN;\nfetch(url, { headers: { Authorization: `Bearer ${token}` } });',
      'environment:\n  - POSTGRES_PASSWORD_FILE=/run/secrets/db_password\nsecrets: [db_password]',
      'Company password policy: at least 14 characters, MFA on every account.',
      'api_key = os.environ["STRIPE_KEY"]',
    ]) {
      expect((await redactSecrets(text, 'text/plain')).content, text).toBe(text);
    }
  });
});
