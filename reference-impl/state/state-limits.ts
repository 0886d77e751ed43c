/**
 * The bounds the reference enforces on thread state, from defaults overridden by the target's
 * options (suites shrink them to exercise each bound). Other sizes that are not tunable
 * (ids, keys, interrupt values) are fixed here so every bound lives in one place.
 */
import type { StateLimits } from '../../contract/state.js';
import type { TargetOptions } from '../../contract/target.js';

export const DEFAULT_STATE_LIMITS: StateLimits = {
  maxPayloadBytes: 1024 * 1024,
  maxPendingEntries: 100_000,
  maxWritesPerSecond: 1_000,
};

/** Fixed bounds on identifiers and small values. */
export const FIXED_BOUNDS = {
  maxIdLength: 128,
  maxKeyLength: 256,
  maxNameLength: 64,
  maxInterruptValueBytes: 64 * 1024,
  /** Bindings one principal may own. */
  maxBindingsPerOwner: 100_000,
  /** Lease sessions remembered per binding (older ones no longer authenticate at all). */
  maxSessionsPerBinding: 1_024,
  /** Bindings whose write-rate buckets are held in memory at once. */
  maxRateBuckets: 10_000,
} as const;

export function resolveStateLimits(options: TargetOptions | undefined): StateLimits {
  const o = options?.stateLimits ?? {};
  const pick = (name: keyof StateLimits): number => {
    const v = o[name];
    if (v === undefined) return DEFAULT_STATE_LIMITS[name];
    if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`stateLimits.${name} must be a positive integer`);
    return v;
  };
  return {
    maxPayloadBytes: pick('maxPayloadBytes'),
    maxPendingEntries: pick('maxPendingEntries'),
    maxWritesPerSecond: pick('maxWritesPerSecond'),
  };
}
