/**
 * The reference's reading of `Authorization: Bearer <token>`: the scheme in any case and one or
 * more spaces before the token are what RFC 9110 §11.1 allows a client to send (bug bash 5 found
 * the reference refusing `bearer <token>`); anything else is no token.
 */
import { describe, expect, it } from 'vitest';
import { bearerToken, sameToken } from '../../reference-impl/server/bearer-token.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc.DEF-123_~+/=', 'abc.DEF-123_~+/='],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['bEaReR abc', 'abc'],
    ['Bearer   abc', 'abc'],
  ])('reads %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([
    undefined,
    ['Bearer abc'],
    '',
    'Bearer',
    'Bearer ',
    'Basic abc',
    'Bearerabc',
    'Bearer abc def',
    'Bearer\tabc',
    ' Bearer abc',
    'Bearer abc ',
    'Bearer ab\u00e9',
    `Bearer ${'a'.repeat(4097)}`,
  ])('refuses %j', (header) => {
    expect(bearerToken(header as string | string[] | undefined)).toBeNull();
  });

  it('compares tokens by content', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abc', 'abd')).toBe(false);
    expect(sameToken('abc', 'abcd')).toBe(false);
  });
});
