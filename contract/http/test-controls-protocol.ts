/**
 * Test controls, under `/_smtc/`: off unless the server was started with them enabled, and then
 * only for the admin token. A settable clock (retention tests), telemetry flush, and gofail-
 * style failpoints: `PUT /_smtc/failpoints/{name}` with the term as a text/plain body, e.g.
 * `2*return("unavailable")->sleep(10)`, `DELETE` to disarm one or all.
 */
import { z } from 'zod';
import { named } from './protocol-registry.js';
import { WireNumber } from './wire-bounds.js';

export const FAILPOINT_NAME = /^[a-z][a-z0-9_.-]{0,63}$/;
export const MAX_FAILPOINT_TERM = 512;

export const ClockResponse = named('ClockResponse', z.object({ now: z.number() }));
export const AdvanceClockRequest = named('AdvanceClockRequest', z.strictObject({ ms: WireNumber.min(0) }));

export const FailpointParams = named('FailpointParams', z.strictObject({ name: z.string().regex(FAILPOINT_NAME) }));
export const FailpointTermBody = named(
  'FailpointTerm',
  z.string().min(1).max(MAX_FAILPOINT_TERM),
  'A gofail-style term chain: off | return(x) | sleep(ms) | panic | print, optionally counted (N*) and chained with ->.',
);
