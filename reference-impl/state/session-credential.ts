/**
 * Worker lease credentials: an opaque random token handed to the worker once; the store keeps
 * only its sha-256, so a leaked database does not yield usable credentials. What the token is
 * bound to (binding, epoch, lease generation) lives in the session row, never in the token.
 */
import { createHash, randomBytes } from 'node:crypto';

const MAX_CREDENTIAL_LENGTH = 256;

export function mintCredential(): string {
  return `sws_${randomBytes(32).toString('base64url')}`;
}

/** Hash of a presented credential, or null when it cannot be one of ours. */
export function credentialHash(credential: unknown): string | null {
  if (typeof credential !== 'string' || credential.length === 0 || credential.length > MAX_CREDENTIAL_LENGTH) {
    return null;
  }
  return createHash('sha256').update(credential).digest('hex');
}
