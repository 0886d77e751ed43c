/**
 * Issue 8, round 10: secrets a file format places — a PuTTY key's private lines and MAC, an HTTP
 * Digest response — and a password spelled out character by character; their near misses stay.
 */
import { describe, expect, it } from 'vitest';
import { keyFileSecretRanges } from '../../reference-impl/memory/key-file-secrets.js';

const covered = (text: string): string[] => keyFileSecretRanges(text).map(([s, e]) => text.slice(s, e));

describe('key-file secrets', () => {
  it("takes a PuTTY key's private lines and MAC, not its public lines", () => {
    const ppk = [
      'PuTTY-User-Key-File-3: ssh-rsa',
      'Public-Lines: 1',
      'AAAAB3NzaC1yc2EAAAADAQABAAAAgQC7',
      'Private-Lines: 2',
      'E/OHyMLGq8FnGeYQX8/nZzjhP/3le2Dj',
      'pdooZq1xYw2Vb7Kc==',
      'Private-MAC: 4c2b8f0a9d1e7f3b6a5c4d2e1f0a9b8c',
    ].join('\n');
    expect(covered(ppk)).toEqual([
      'E/OHyMLGq8FnGeYQX8/nZzjhP/3le2Dj',
      'pdooZq1xYw2Vb7Kc==',
      '4c2b8f0a9d1e7f3b6a5c4d2e1f0a9b8c',
    ]);
  });

  it('takes a Digest response and a spelled-out password; leaves a spaced sentence and a Digest challenge', () => {
    const digest =
      'Authorization: Digest username="ops", realm="cams", nonce="59b7", response="aa829ffa5b38541c6cd08403d0b2e642"';
    expect(covered(digest)).toEqual(['aa829ffa5b38541c6cd08403d0b2e642']);
    expect(covered('wifi password, spelled out: e e q y m 9 e q m h')).toEqual(['e e q y m 9 e q m h']);
    expect(covered('Password tip: use a long phrase you can remember')).toEqual([]);
    expect(covered('WWW-Authenticate: Digest realm="cams", nonce="59b7"')).toEqual([]);
  });
});
