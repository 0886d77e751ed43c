/**
 * Bearer tokens from the Authorization header, and a constant-time comparison of a presented
 * token against a known one. Tokens are never logged or echoed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const MAX_TOKEN = 4096;

/** The token of `Authorization: Bearer <token>`, or null when absent or malformed. */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || header.length > MAX_TOKEN + 7) return null;
  const m = /^Bearer ([\x21-\x7e]+)$/.exec(header);
  return m ? m[1]! : null;
}

/** Compare digests so neither length nor content leaks through timing. */
export function sameToken(presented: string, known: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(known).digest();
  return timingSafeEqual(a, b);
}
