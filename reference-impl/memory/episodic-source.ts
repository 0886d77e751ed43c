/**
 * An `episodic_reference` must point at thread state the writer may read: a binding the
 * authenticated caller owns (asked of the state service). Anything else is `unreadable_source`,
 * with the same answer for "not yours" and "does not exist".
 */
import type { EpisodicSource, MemoryRejectionReason } from '../../contract/memory.js';
import type { Identity } from '../identity/identity.js';

export type OwnsBinding = (principalId: string, bindingId: string) => boolean;

export function episodicSourceProblem(
  who: Identity,
  source: EpisodicSource | undefined,
  ownsBinding: OwnsBinding,
): MemoryRejectionReason | null {
  if (source === undefined) return null;
  return ownsBinding(who.principalId, source.bindingId) ? null : 'unreadable_source';
}
