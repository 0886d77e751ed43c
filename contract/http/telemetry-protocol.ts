/** The telemetry health signal on the wire. */
import { z } from 'zod';
import type { TelemetryHealth } from '../tracing.js';
import { named } from './protocol-registry.js';
import type { SameKeys } from './type-checks.js';

export const TelemetryHealthSchema = named(
  'TelemetryHealth',
  z.object({
    exporter: z.enum(['ok', 'degraded', 'failing']),
    droppedSpans: z.number(),
    queueDepth: z.number(),
    queueCapacity: z.number(),
    exportedSpans: z.number(),
  }),
) satisfies z.ZodType<TelemetryHealth>;

const _keys: SameKeys<TelemetryHealth, z.output<typeof TelemetryHealthSchema>> = true;
void _keys;
