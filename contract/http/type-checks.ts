/**
 * Compile-time ties between wire schemas and the contract's types: a schema whose decoded
 * form stops matching its contract type (a field added to the contract, say) fails `tsc`,
 * so the protocol cannot silently fall behind the contract.
 */

/** True when A and B have exactly the same keys. */
export type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : false;
