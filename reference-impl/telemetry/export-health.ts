/**
 * The telemetry health signal of one telemetry identity: exporter state, dropped spans, queue
 * depth and exported spans. It is read by operators (and suites) and never consulted by the
 * request path, so an outage can change it but nothing a run does.
 *
 * The BatchSpanProcessor drops silently on a full queue, so the queue is accounted here:
 * `BoundedSpanProcessor` reports what enters (or is refused), `MeteredExporter` what leaves.
 */
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TelemetryHealth } from '../../contract/tracing.js';

/** Consecutive failed exports after which the exporter is `failing` rather than `degraded`. */
const FAILING_AFTER = 3;

export class ExportHealth {
  private depth = 0;
  private dropped = 0;
  private droppedSinceSuccess = 0;
  private exported = 0;
  private consecutiveFailures = 0;
  /** Export id → start time, to notice an export that hangs past its timeout (black hole). */
  private readonly inFlight = new Map<number, number>();
  private nextExportId = 0;

  constructor(
    readonly capacity: number,
    private readonly exportTimeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A sampled span ended; returns false when the queue is full (the processor will drop it). */
  offer(): boolean {
    if (this.depth >= this.capacity) {
      this.dropped++;
      this.droppedSinceSuccess++;
      return false;
    }
    this.depth++;
    return true;
  }

  /** The processor handed `n` spans to the exporter: they left the queue. Returns an export id. */
  taken(n: number): number {
    this.depth = Math.max(0, this.depth - n);
    const id = this.nextExportId++;
    this.inFlight.set(id, this.now());
    return id;
  }

  settled(exportId: number, n: number, ok: boolean): void {
    this.inFlight.delete(exportId);
    if (ok) {
      this.exported += n;
      this.consecutiveFailures = 0;
      this.droppedSinceSuccess = 0;
    } else {
      this.consecutiveFailures++;
      // Spans of a failed batch are lost: they count as dropped.
      this.dropped += n;
      this.droppedSinceSuccess += n;
    }
  }

  snapshot(): TelemetryHealth {
    const now = this.now();
    let stalled = false;
    for (const started of this.inFlight.values()) if (now - started > this.exportTimeoutMs) stalled = true;
    let exporter: TelemetryHealth['exporter'] = 'ok';
    if (this.consecutiveFailures >= FAILING_AFTER) exporter = 'failing';
    else if (this.consecutiveFailures > 0 || this.droppedSinceSuccess > 0 || stalled) exporter = 'degraded';
    return {
      exporter,
      droppedSpans: this.dropped,
      queueDepth: this.depth,
      queueCapacity: this.capacity,
      exportedSpans: this.exported,
    };
  }
}

/** Sits between the batch processor and the scrubbing exporter; counts what leaves the queue. */
export class MeteredExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly health: ExportHealth,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    const exportId = this.health.taken(spans.length);
    let done = false;
    const finish = (result: ExportResult): void => {
      if (done) return;
      done = true;
      this.health.settled(exportId, spans.length, result.code === ExportResultCode.SUCCESS);
      resultCallback(result);
    };
    try {
      this.inner.export(spans, finish);
    } catch (e) {
      // An exporter that throws must not take the processor (or a run) down with it.
      finish({ code: ExportResultCode.FAILED, error: e instanceof Error ? e : new Error('export failed') });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
