/**
 * One telemetry identity (a `service.name`: the control plane or the sandbox worker) with its
 * own tracer provider and its own bounded pipeline:
 *
 *   span end → BoundedSpanProcessor (counted, bounded BatchSpanProcessor)
 *            → MeteredExporter (health) → ScrubbingExporter (the export boundary) → OTLPTraceExporter (collector)
 *
 * The worker would build exactly this in its own process; nothing here is shared between the
 * two identities except the code.
 */
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { EXPORTER_RANK, type TelemetryHealth } from '../../contract/tracing.js';
import { BoundedSpanProcessor } from './bounded-span-processor.js';
import { ExportHealth, MeteredExporter, type QueueAccounting } from './export-health.js';
import type { ExportSettings } from './export-settings.js';
import { RecordingSampler } from './recording-sampler.js';
import { ScrubbingExporter } from './scrubbing-exporter.js';

/** What stands between the pipeline and the collector's OTLP exporter: the scrubber by default. */
/** What stands between the spans and the collector's exporter (the scrubber); it may read the export settings. */
export type ExportBoundary = (collector: SpanExporter, settings: ExportSettings) => SpanExporter;

const scrubbing: ExportBoundary = (collector) => new ScrubbingExporter(collector);

/** The health signal's accounting of one identity's queue (capacity 0: telemetry disabled). */
export type HealthAccounting = (capacity: number, exportTimeoutMs: number) => QueueAccounting;

const exportHealth: HealthAccounting = (capacity, exportTimeoutMs) => new ExportHealth(capacity, exportTimeoutMs);

export const INSTRUMENTATION_SCOPE = 'smtc-reference';
export const REFERENCE_VERSION = '0.1.0';

export class TelemetryIdentity {
  readonly tracer: Tracer;
  readonly enabled: boolean;
  private readonly provider: BasicTracerProvider;
  private readonly processor: BoundedSpanProcessor | null;
  private readonly healthState: QueueAccounting;

  constructor(
    serviceName: string,
    settings: ExportSettings,
    boundary: ExportBoundary = scrubbing,
    accounting: HealthAccounting = exportHealth,
  ) {
    this.enabled = settings.collectorUrl !== undefined;
    this.healthState = accounting(this.enabled ? settings.maxQueueSize : 0, settings.exportTimeoutMs);
    this.processor = settings.collectorUrl
      ? new BoundedSpanProcessor(
          new MeteredExporter(
            boundary(
              new OTLPTraceExporter({
                url: settings.collectorUrl,
                timeoutMillis: settings.exportTimeoutMs,
                // A flush exports the whole queue as concurrent batches; the exporter refuses
                // any beyond its limit, so no more requests are open at once than the bound.
                concurrencyLimit: settings.maxConcurrentExports,
              }),
              settings,
            ),
            this.healthState,
          ),
          {
            maxQueueSize: settings.maxQueueSize,
            maxExportBatchSize: settings.maxExportBatchSize,
            scheduledDelayMillis: settings.scheduledDelayMs,
            exportTimeoutMillis: settings.exportTimeoutMs,
          },
          this.healthState,
        )
      : null;
    this.provider = new BasicTracerProvider({
      resource: defaultResource().merge(
        resourceFromAttributes({ 'service.name': serviceName, 'service.version': REFERENCE_VERSION }),
      ),
      // Disabled telemetry still creates (non-recording) spans, so the request path is one code path.
      sampler: new RecordingSampler(this.enabled ? settings.samplingRatio : 0),
      spanProcessors: this.processor ? [this.processor] : [],
    });
    this.tracer = this.provider.getTracer(INSTRUMENTATION_SCOPE, REFERENCE_VERSION);
  }

  health(): TelemetryHealth {
    return this.healthState.snapshot();
  }

  /** Export what is queued; bounded by the export timeout and never rejects. */
  async flush(): Promise<void> {
    await this.processor?.forceFlush();
  }

  async close(): Promise<void> {
    await this.processor?.shutdown();
  }
}

/** Health of several identities as one signal: worst exporter state, summed counters. */
export function combineHealth(parts: readonly TelemetryHealth[]): TelemetryHealth {
  let exporter: TelemetryHealth['exporter'] = 'ok';
  let droppedSpans = 0;
  let queueDepth = 0;
  let queueCapacity = 0;
  let exportedSpans = 0;
  for (const h of parts) {
    if (EXPORTER_RANK[h.exporter] > EXPORTER_RANK[exporter]) exporter = h.exporter;
    droppedSpans += h.droppedSpans;
    queueDepth += h.queueDepth;
    queueCapacity += h.queueCapacity;
    exportedSpans += h.exportedSpans;
  }
  return { exporter, droppedSpans, queueDepth, queueCapacity, exportedSpans };
}
