import type { Authenticator } from '../identity/authenticator.js';
import type { AdjustableClock } from '../platform/clock.js';
import type { OwnsBinding } from './episodic-source.js';
import type { SearchIndexes } from './search-index.js';
import type { MemoryStore } from './sqlite-memory-store.js';

/** What the broker's parts share: one store, its indexes, the clock, identity, policy switches. */
export interface MemoryDeps {
  readonly store: MemoryStore;
  readonly indexes: SearchIndexes;
  readonly clock: AdjustableClock;
  readonly auth: Authenticator;
  readonly ownsBinding: OwnsBinding;
  readonly sharedLearning: boolean;
}
