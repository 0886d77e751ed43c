import type { HarnessEnv, TargetOptions } from '../contract/target.js';
import type { Authenticator } from './identity/authenticator.js';
import type { AdjustableClock } from './platform/clock.js';
import type { Db } from './platform/sqlite.js';
import type { ReferenceParts } from './reference-parts.js';

/** What every reference service is built from: one store, one clock, one authenticator, its parts. */
export interface ReferenceContext {
  readonly db: Db;
  readonly clock: AdjustableClock;
  readonly auth: Authenticator;
  readonly env: HarnessEnv;
  readonly options: TargetOptions;
  /** Parts supplied instead of the defaults (none: the production reference). */
  readonly parts?: ReferenceParts;
}
