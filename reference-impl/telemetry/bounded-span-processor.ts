/**
 * The bounded export queue of one telemetry identity: the SDK's BatchSpanProcessor (bounded
 * queue, batch size, export timeout) with the accounting it lacks in front of it — it drops
 * on a full queue without telling anyone, so the offer is counted here first.
 */
import { type Context, TraceFlags } from '@opentelemetry/api';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { QueueAccounting } from './export-health.js';

export interface QueueBounds {
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
  readonly scheduledDelayMillis: number;
  readonly exportTimeoutMillis: number;
}

export class BoundedSpanProcessor implements SpanProcessor {
  private readonly batch: BatchSpanProcessor;
  private closed = false;

  constructor(
    exporter: SpanExporter,
    bounds: QueueBounds,
    private readonly health: QueueAccounting,
  ) {
    this.batch = new BatchSpanProcessor(exporter, { ...bounds });
  }

  onStart(span: Span, parentContext: Context): void {
    this.batch.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (this.closed) return;
    // Mirrors the batch processor: unsampled spans never enter the queue.
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.health.offer();
    this.batch.onEnd(span);
  }

  /** Exports what is queued; never rejects (an outage is a health signal, not an error). */
  async forceFlush(): Promise<void> {
    try {
      await this.batch.forceFlush();
    } catch {
      // Export failed or timed out: already counted by the metered exporter.
    }
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    try {
      await this.batch.shutdown();
    } catch {
      // Same as forceFlush: shutdown flushes and may fail during an outage.
    }
  }
}
