/**
 * Bearer tokens from the Authorization header, and a constant-time comparison of a presented
 * token against a known one. Tokens are never logged or echoed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const MAX_TOKEN = 4096;

/** Longest scheme-and-spaces prefix read before the token ("Bearer" and its separating spaces). */
const MAX_PREFIX = 64;

/**
 * The token of `Authorization: Bearer <token>`, or null when absent or malformed. The scheme is
 * matched without regard to case and may be followed by more than one space (RFC 9110 §11.1:
 * "auth-scheme … case-insensitive", `credentials = auth-scheme [ 1*SP … ]`; RFC 6750 §2.1).
 */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || header.length > MAX_TOKEN + MAX_PREFIX) return null;
  const m = /^bearer {1,57}([\x21-\x7e]{1,4096})$/i.exec(header);
  return m ? m[1]! : null;
}

/** Compare digests so neither length nor content leaks through timing. */
export function sameToken(presented: string, known: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(known).digest();
  return timingSafeEqual(a, b);
}
