/**
 * Issue 8, round 8: what recovers an account is a secret — a TOTP seed after its label, and a
 * security question's answer — while a family or pet fact outside a security context, a
 * question asked back, or a description of the answer stays as written.
 */
import { describe, expect, it } from 'vitest';
import { accountRecoveryRanges } from '../../reference-impl/memory/account-recovery-secrets.js';

const covered = (text: string): string[] => accountRecoveryRanges(text).map(([s, e]) => text.slice(s, e));

describe('account recovery secrets', () => {
  it('takes a base32 TOTP seed after a two-factor key label, grouped or not, in either case', () => {
    expect(covered('2FA setup key for the AWS root account: 7C3C D6TR L7CD IUF6')).toEqual(['7C3C D6TR L7CD IUF6']);
    expect(covered('Authenticator key: JBSWY3DPEHPK3PXP')).toEqual(['JBSWY3DPEHPK3PXP']);
    expect(covered('TOTP secret = jbswy3dpehpk3pxp')).toEqual(['jbswy3dpehpk3pxp']);
    expect(covered('Zwei-Faktor-Schlüssel fürs Konto: MFRG-GZDF-MZTW-Q2LK')).toEqual(['MFRG-GZDF-MZTW-Q2LK']);
  });

  it('leaves a two-factor key label without a seed, and a seed-like word without the label', () => {
    expect(covered('The 2FA key is in the drawer: see notes')).toEqual([]);
    expect(covered('Shipment reference: JBSWY3DPEHPK3PXP')).toEqual([]);
    expect(covered('2FA key: BANANA')).toEqual([]);
  });

  it('takes the answer after a security-question label, or after a family fact in a security context', () => {
    expect(covered("Bank security question — mother's maiden name: Kowalczyk")).toEqual(['Kowalczyk']);
    expect(covered('HMRC login security answer (first pet): Biscuit2009')).toContain('Biscuit2009');
    expect(covered('Sicherheitsfrage (erstes Haustier): Bello')).toEqual(['Bello']);
    expect(covered("Security question for the bank: mother's maiden name is Smith")).toEqual(['Smith']);
    expect(covered('Bank login — first pet: Rex2001')).toEqual(['Rex2001']);
  });

  it('leaves family facts, questions asked back and descriptions of the answer as written', () => {
    expect(covered("Mom's maiden name was Novak; her family came from Brno.")).toEqual([]);
    expect(covered("My first pet's name: Nibbles")).toEqual([]);
    expect(covered('Security question: what was your first pet?')).toEqual([]);
    expect(covered("mother's maiden name is a common security question")).toEqual([]);
    expect(
      covered('Tip: the security question answer should be a random string stored in a password manager.'),
    ).toEqual([]);
  });
});
