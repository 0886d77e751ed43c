import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { BoundedSpanProcessor } from '../../reference-impl/telemetry/bounded-span-processor.js';
import { ExportHealth, MeteredExporter } from '../../reference-impl/telemetry/export-health.js';

/** An exporter whose results the test decides: hang, fail, succeed, or throw. */
class ControlledExporter implements SpanExporter {
  mode: 'hang' | 'fail' | 'ok' | 'throw' = 'ok';
  pending: ((r: ExportResult) => void)[] = [];
  export(_spans: ReadableSpan[], cb: (r: ExportResult) => void): void {
    if (this.mode === 'throw') throw new Error('boom');
    if (this.mode === 'hang') this.pending.push(cb);
    else cb({ code: this.mode === 'ok' ? ExportResultCode.SUCCESS : ExportResultCode.FAILED });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function setup(capacity: number, exportTimeoutMs = 50, now: () => number = Date.now) {
  const inner = new ControlledExporter();
  const health = new ExportHealth(capacity, exportTimeoutMs, now);
  const processor = new BoundedSpanProcessor(
    new MeteredExporter(inner, health),
    {
      maxQueueSize: capacity,
      maxExportBatchSize: capacity,
      scheduledDelayMillis: 60_000,
      exportTimeoutMillis: exportTimeoutMs,
    },
    health,
  );
  const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('t');
  const spans = (n: number) => {
    for (let i = 0; i < n; i++) tracer.startSpan('authn').end();
  };
  return { inner, health, processor, spans };
}

describe('export health', () => {
  it('counts queue depth and the spans a full queue drops', async () => {
    const { inner, health, processor, spans } = setup(4);
    inner.mode = 'hang';
    spans(3);
    expect(health.snapshot()).toMatchObject({ queueDepth: 3, queueCapacity: 4, droppedSpans: 0, exporter: 'ok' });
    // A full batch triggers an export that hangs; the queue then refills and overflows.
    spans(1);
    expect(health.snapshot().queueDepth).toBe(0);
    spans(6);
    expect(health.snapshot()).toMatchObject({ queueDepth: 4, droppedSpans: 2, exporter: 'degraded' });
    for (const cb of inner.pending.splice(0)) cb({ code: ExportResultCode.SUCCESS });
    inner.mode = 'ok';
    await processor.forceFlush();
    expect(health.snapshot()).toMatchObject({ queueDepth: 0, exportedSpans: 8, droppedSpans: 2, exporter: 'ok' });
  });

  it('goes degraded then failing on consecutive failures, and clears on success', async () => {
    const { inner, health, processor, spans } = setup(8);
    inner.mode = 'fail';
    spans(1);
    await processor.forceFlush(); // never rejects
    expect(health.snapshot().exporter).toBe('degraded');
    for (let i = 0; i < 2; i++) {
      spans(1);
      await processor.forceFlush();
    }
    expect(health.snapshot()).toMatchObject({ exporter: 'failing', droppedSpans: 3 });
    inner.mode = 'throw';
    spans(1);
    await processor.forceFlush();
    expect(health.snapshot()).toMatchObject({ exporter: 'failing', droppedSpans: 4 });
    inner.mode = 'ok';
    spans(2);
    await processor.forceFlush();
    expect(health.snapshot()).toMatchObject({ exporter: 'ok', exportedSpans: 2, droppedSpans: 4 });
  });

  it('reports an export hanging past its timeout as degraded', async () => {
    // Health reads its own clock (timer and clock granularity differ by a millisecond or so):
    // the test moves it past the timeout instead of racing the processor's timer.
    let clock = 1_000;
    const { inner, health, processor, spans } = setup(8, 20, () => clock);
    inner.mode = 'hang';
    spans(1);
    await processor.forceFlush(); // the batch processor gives up after the export timeout
    expect(health.snapshot().exporter).toBe('ok'); // in flight, not yet past its timeout
    clock += 21;
    expect(health.snapshot().exporter).toBe('degraded');
  });
});

describe('export health orders exports by when they started', () => {
  it('a batch given up on during an outage that fails after a newer batch got through leaves it ok', () => {
    const health = new ExportHealth(8, 50);
    const old = health.taken(2);
    const fresh = health.taken(1);
    health.settled(fresh, 1, true);
    health.settled(old, 2, false);
    expect(health.snapshot()).toMatchObject({ exporter: 'ok', droppedSpans: 2, exportedSpans: 1 });
  });

  it('a newer failure is not cleared by an older batch that succeeds after it', () => {
    const health = new ExportHealth(8, 50);
    const old = health.taken(1);
    const fresh = health.taken(1);
    health.settled(fresh, 1, false);
    health.settled(old, 1, true);
    expect(health.snapshot()).toMatchObject({ exporter: 'degraded', droppedSpans: 1, exportedSpans: 1 });
    health.settled(health.taken(1), 1, true);
    expect(health.snapshot().exporter).toBe('ok');
  });

  it('spans a full queue refused are cleared only by an export started after them', () => {
    const health = new ExportHealth(1, 50);
    const before = health.taken(0);
    expect(health.offer()).toBe(true);
    expect(health.offer()).toBe(false);
    health.settled(before, 0, true);
    expect(health.snapshot().exporter).toBe('degraded');
    health.settled(health.taken(1), 1, true);
    expect(health.snapshot()).toMatchObject({ exporter: 'ok', droppedSpans: 1 });
  });

  it('an export hanging since before a newer success is not a stall', () => {
    let clock = 0;
    const health = new ExportHealth(8, 20, () => clock);
    health.taken(1);
    health.settled(health.taken(1), 1, true);
    clock += 100;
    expect(health.snapshot().exporter).toBe('ok');
    health.taken(1);
    clock += 100;
    expect(health.snapshot().exporter).toBe('degraded');
  });

  it('stays failing through a long outage without holding more than a bounded record', () => {
    const health = new ExportHealth(8, 50);
    for (let i = 0; i < 10_000; i++) health.settled(health.taken(1), 1, false);
    expect(health.snapshot()).toMatchObject({ exporter: 'failing', droppedSpans: 10_000 });
    health.settled(health.taken(1), 1, true);
    expect(health.snapshot().exporter).toBe('ok');
  });
});

describe('export health: which losses count, and which success clears them', () => {
  it('spans a full queue refused degrade the signal but never count as failed exports', () => {
    const health = new ExportHealth(1, 50);
    for (let i = 0; i < 5; i++) {
      health.offer();
      expect(health.offer()).toBe(false); // refused: a loss before export i
      health.taken(1);
    }
    expect(health.snapshot()).toMatchObject({ exporter: 'degraded', droppedSpans: 5 });
  });

  it('drops refused after an export started are not cleared by that export', () => {
    const health = new ExportHealth(1, 50);
    health.offer();
    health.offer(); // refused before export 0
    const first = health.taken(1);
    health.offer();
    health.offer(); // refused after export 0 started
    health.settled(first, 1, true);
    expect(health.snapshot().exporter).toBe('degraded');
    health.settled(health.taken(1), 1, true);
    expect(health.snapshot().exporter).toBe('ok');
  });

  it('a success older than the newest success does not move the ordering back', () => {
    const health = new ExportHealth(8, 50);
    const a = health.taken(1);
    const b = health.taken(1);
    const c = health.taken(1);
    health.settled(c, 1, true);
    health.settled(a, 1, true);
    health.settled(b, 1, false); // started before c's success: old news
    expect(health.snapshot()).toMatchObject({ exporter: 'ok', droppedSpans: 1, exportedSpans: 2 });
  });

  it('a failed export right after refused spans is still counted towards failing', () => {
    const health = new ExportHealth(1, 50);
    const ids = [health.taken(0), health.taken(0), health.taken(0)];
    health.offer();
    health.offer(); // refused: a loss cleared from export 3 on
    // Export 2 fails: its loss is also cleared from export 3 on, and must still count.
    health.settled(ids[2]!, 1, false);
    health.settled(ids[1]!, 1, false);
    health.settled(ids[0]!, 1, false);
    expect(health.snapshot().exporter).toBe('failing');
  });

  it('keeps its record of losses bounded through a long outage', () => {
    const health = new ExportHealth(8, 50);
    for (let i = 0; i < 1_000; i++) health.settled(health.taken(1), 1, false);
    expect((health as unknown as { losses: unknown[] }).losses.length).toBeLessThanOrEqual(256);
    expect(health.snapshot().exporter).toBe('failing');
  });
});
