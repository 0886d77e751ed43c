import { createHash } from 'node:crypto';

/** Lowercase hex sha-256 of the UTF-8 content, as the contract's provenance states it. */
export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}
