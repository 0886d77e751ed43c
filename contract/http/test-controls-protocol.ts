/**
 * Test controls, under `/_smtc/`: off unless the server was started with them enabled, and then
 * only for the admin token. A settable clock (retention tests), telemetry flush, and gofail-
 * style failpoints: `PUT /_smtc/failpoints/{name}` with the term as a text/plain body, e.g.
 * `2*return("unavailable")->sleep(10)`, `DELETE` to disarm one or all; storage inspection
 * (`POST /_smtc/storage/residue`): where a memory body still exists.
 */
import { z } from 'zod';
import { NETWORK_LINKS, PROCESS_PARTS, PROCESS_SIGNALS } from '../target.js';
import { named } from './protocol-registry.js';
import { ShortString, WireNumber } from './wire-bounds.js';

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

/** Process faults the served target inflicts on its own children (its sandbox workers). */
export const ProcessSignalRequest = named(
  'ProcessSignalRequest',
  z.strictObject({ part: z.enum(PROCESS_PARTS), signal: z.enum(PROCESS_SIGNALS) }),
  'A real signal to every process of the part (a server signals only its own children: `worker`).',
);
export const ProcessRestartRequest = named('ProcessRestartRequest', z.strictObject({ part: z.enum(PROCESS_PARTS) }));
export const PoisonCacheRequest = named(
  'PoisonCacheRequest',
  z.strictObject({ bindingId: ShortString, marker: ShortString }),
  'Write a stale head carrying the marker into every worker pod-local cache for the binding.',
);
export const ProcessIdsResponse = named(
  'ProcessIdsResponse',
  z.object({ controlPlane: z.number(), workers: z.array(z.number()) }),
);

export const StorageResidueRequest = named(
  'StorageResidueRequest',
  z.strictObject({ needle: z.string().min(8).max(256) }),
  'A word of a memory body to look for in every place the target keeps memory data.',
);
export const StorageResidueResponse = named(
  'StorageResidueResponse',
  z.object({ locations: z.array(ShortString).min(1), found: z.array(ShortString) }),
  'Declared storage locations, and those still holding the needle after retention and deletion work already due has run.',
);

export const NetworkLinksResponse = named(
  'NetworkLinksResponse',
  z.object({
    toxiproxyUrl: z.string(),
    links: z.array(z.object({ link: z.enum(NETWORK_LINKS), proxy: z.string() })),
  }),
  'The Toxiproxy proxies the target put its own internal links behind (networkFaults).',
);
