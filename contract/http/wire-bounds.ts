/**
 * Protocol-level bounds on strings and arrays. They only bound the work one request can cause;
 * they are deliberately far above any target's own limits, so a value a target would answer
 * with its own code (e.g. a too-long memory key → `rejected: invalid_key`) still reaches it.
 */
import { z } from 'zod';

export const WIRE_BOUNDS = {
  /** Identifiers, names, keys, tokens. */
  maxShortString: 4096,
  /** Items in request arrays (kinds, steps, header values). */
  maxArrayItems: 1024,
  /** Distinct ingress header names carried by one run request. */
  maxHeaders: 64,
} as const;

export const ShortString = z.string().max(WIRE_BOUNDS.maxShortString);
/** Any finite JSON number: integer-ness and ranges are the target's to judge. */
export const WireNumber = z.number();
