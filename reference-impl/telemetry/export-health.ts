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

/** Losses the state still answers for are at most this many entries (oldest merged first). */
const MAX_LOSSES = 256;

/**
 * A loss of spans the exporter state answers for until an export that started at or after
 * `clearedFrom` succeeds: that success is newer evidence than the loss.
 */
interface Loss {
  clearedFrom: number;
  /** A failed export (counts towards `failing`), not a span the full queue refused. */
  failedExport: boolean;
}

/**
 * What the pipeline reports to the health signal: spans offered to the queue, batches taken from
 * it, exports settled. `ExportHealth` is the reference's; an assembler may supply another
 * (reference-parts.ts `exportHealth`).
 */
export interface QueueAccounting {
  /** A sampled span ended; returns false when the queue is full (the processor will drop it). */
  offer(): boolean;
  /** The processor handed `n` spans to the exporter: they left the queue. Returns an export id. */
  taken(n: number): number;
  settled(exportId: number, n: number, ok: boolean): void;
  snapshot(): TelemetryHealth;
}

/**
 * Exports are ordered by when they started, not by when they settle: a batch the processor
 * gave up on during an outage can fail long after a newer batch got through, and that late
 * failure is not news about the collector. So each loss is cleared by the first success of an
 * export that started after it, whatever order the two settle in.
 */
export class ExportHealth implements QueueAccounting {
  private depth = 0;
  private dropped = 0;
  private exported = 0;
  private losses: Loss[] = [];
  /** Start order of the newest export that succeeded, -1 before any. */
  private newestSuccess = -1;
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
      this.lose({ clearedFrom: this.nextExportId, failedExport: false });
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
      if (exportId > this.newestSuccess) {
        this.newestSuccess = exportId;
        this.losses = this.losses.filter((l) => l.clearedFrom > exportId);
      }
      return;
    }
    // Spans of a failed batch are lost: they count as dropped.
    this.dropped += n;
    if (exportId > this.newestSuccess) this.lose({ clearedFrom: exportId + 1, failedExport: true });
  }

  snapshot(): TelemetryHealth {
    const now = this.now();
    let stalled = false;
    for (const [id, started] of this.inFlight) {
      if (id > this.newestSuccess && now - started > this.exportTimeoutMs) stalled = true;
    }
    const failures = this.losses.filter((l) => l.failedExport).length;
    let exporter: TelemetryHealth['exporter'] = 'ok';
    if (failures >= FAILING_AFTER) exporter = 'failing';
    else if (this.losses.length > 0 || stalled) exporter = 'degraded';
    return {
      exporter,
      droppedSpans: this.dropped,
      queueDepth: this.depth,
      queueCapacity: this.capacity,
      exportedSpans: this.exported,
    };
  }

  /** Bounded: past MAX_LOSSES the two oldest merge, keeping the later clearing point (stricter). */
  private lose(loss: Loss): void {
    const last = this.losses[this.losses.length - 1];
    // Queue-full drops before the same export are one loss.
    if (last && !loss.failedExport && !last.failedExport && last.clearedFrom === loss.clearedFrom) return;
    this.losses.push(loss);
    if (this.losses.length > MAX_LOSSES) {
      const [a, b] = this.losses.splice(0, 2) as [Loss, Loss];
      this.losses.unshift({
        clearedFrom: Math.max(a.clearedFrom, b.clearedFrom),
        failedExport: a.failedExport || b.failedExport,
      });
    }
  }
}

/** Sits between the batch processor and the scrubbing exporter; counts what leaves the queue. */
export class MeteredExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly health: QueueAccounting,
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
