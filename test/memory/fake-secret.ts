/**
 * Deterministic fake secret material for the blind probe rounds: bytes from sha-256 of
 * `prefix:seed:i`, and characters of an alphabet picked from them — the same seed always
 * gives the same fake credential, and no real one is ever written down.
 */
import { createHash } from 'node:crypto';

export function seededMaterial(prefix: string) {
  const bytes = (seed: string, n: number): Buffer => {
    const parts: Buffer[] = [];
    for (let i = 0; parts.length * 32 < n; i++)
      parts.push(createHash('sha256').update(`${prefix}:${seed}:${i}`).digest());
    return Buffer.concat(parts).subarray(0, n);
  };
  const pick = (seed: string, n: number, alphabet: string): string =>
    [...bytes(seed, n)].map((b) => alphabet[b % alphabet.length]).join('');
  return { bytes, pick };
}
