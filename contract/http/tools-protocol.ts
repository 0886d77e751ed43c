/** Tool authorization on the wire: may this principal's run with this agent use a tool / reach a host? */
import { z } from 'zod';
import { named } from './protocol-registry.js';
import { ShortString } from './wire-bounds.js';

export const MayInvokeRequest = named('MayInvokeRequest', z.strictObject({ agent: ShortString, tool: ShortString }));
export const MayReachRequest = named('MayReachRequest', z.strictObject({ agent: ShortString, host: ShortString }));
export const AllowedResponse = named('AllowedResponse', z.object({ allowed: z.boolean() }));
