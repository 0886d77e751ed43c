/**
 * Each outage mode as a real client sees it: refuse = connection refused (and back on the same
 * port), blackhole = no answer ever, slow = an answer only after slowMs, error503 = 503, error500 =
 * 500 (not retried), hold = an answer of 200 only on release, whatever the mode meanwhile; and
 * the real OTLP exporter's export result under each.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SpanCollector, startSpanCollector } from '../../fixtures/collector/span-collector.js';
import { exportWith } from './export-with.js';
import { probe } from './http-probe.js';
import { recordSpans } from './recorded-spans.js';

let c: SpanCollector;
beforeAll(async () => {
  c = await startSpanCollector();
});
afterAll(() => c.close());
beforeEach(async () => {
  await c.setMode('up');
  c.reset();
});

describe('span collector outage modes', () => {
  it('refuse: connections are refused, the exporter fails; up reopens on the same port', async () => {
    const spans = await recordSpans();
    expect(await exportWith(c.tracesUrl, spans)).toMatchObject({ ok: true }); // keep-alive socket now open
    await c.setMode('refuse');
    expect(c.mode()).toBe('refuse');
    expect(await probe(c.tracesUrl, '{}')).toMatchObject({ kind: 'error', code: 'ECONNREFUSED' });
    const failed = await exportWith(c.tracesUrl, spans, { timeoutMillis: 1_000 });
    expect(failed.ok).toBe(false);
    await c.setMode('up');
    expect(await probe(c.tracesUrl, '{}')).toMatchObject({ kind: 'status', status: 200 });
    expect(await exportWith(c.tracesUrl, spans)).toMatchObject({ ok: true });
    expect(c.spans()).toHaveLength(6);
  });

  it('blackhole: the body is received but never answered; the exporter gives up at its timeout', async () => {
    await c.setMode('blackhole');
    const r = await probe(c.tracesUrl, '{}', { timeoutMs: 300 });
    expect(r.kind).toBe('timeout');
    const spans = await recordSpans();
    const e = await exportWith(c.tracesUrl, spans, { timeoutMillis: 400 });
    expect(e.ok).toBe(false);
    expect(e.ms).toBeGreaterThanOrEqual(350);
    expect(e.ms).toBeLessThan(3_000);
    // bytes that reached the collector are kept (a leak scan must see them), spans are not accepted
    const reqs = c.requests();
    expect(reqs.length).toBeGreaterThanOrEqual(2);
    expect(reqs.every((q) => q.mode === 'blackhole' && q.status === null)).toBe(true);
    expect(reqs.some((q) => q.spans?.length === 3)).toBe(true);
    expect(c.spans()).toHaveLength(0);
  });

  it('slow: answers 200 only after slowMs; an exporter with a shorter timeout fails, a longer one succeeds', async () => {
    await c.setMode('slow', { slowMs: 600 });
    const r = await probe(c.tracesUrl, '{}', { timeoutMs: 5_000 });
    expect(r).toMatchObject({ kind: 'status', status: 200 });
    expect(r.ms).toBeGreaterThanOrEqual(550);
    const spans = await recordSpans();
    expect((await exportWith(c.tracesUrl, spans, { timeoutMillis: 200 })).ok).toBe(false);
    const ok = await exportWith(c.tracesUrl, spans, { timeoutMillis: 4_000 });
    expect(ok.ok).toBe(true);
    expect(ok.ms).toBeGreaterThanOrEqual(550);
  });

  it('error503: answers 503, the exporter reports failure, no spans are accepted', async () => {
    await c.setMode('error503');
    expect(await probe(c.tracesUrl, '{}')).toMatchObject({ kind: 'status', status: 503 });
    const e = await exportWith(c.tracesUrl, await recordSpans(), { timeoutMillis: 500 });
    expect(e.ok).toBe(false);
    expect(c.spans()).toHaveLength(0);
    expect(c.requests().every((q) => q.status === 503)).toBe(true);
  });

  it('error500 fails the export at once (not retried); hold answers 200 only on release, after newer requests failed', async () => {
    await c.setMode('hold');
    const spans = await recordSpans();
    const old = exportWith(c.tracesUrl, spans, { timeoutMillis: 10_000 });
    await c.waitForSpans(() => c.requests().length > 0, 2_000);
    await c.setMode('error500');
    const e = await exportWith(c.tracesUrl, spans, { timeoutMillis: 10_000 });
    expect(e).toMatchObject({ ok: false });
    expect(c.requests().map((q) => q.status)).toEqual([null, 500]);
    expect(c.releaseHeld()).toBe(1);
    expect(await old).toMatchObject({ ok: true });
    expect(c.spans()).toHaveLength(3);
    expect(c.releaseHeld()).toBe(0);
  });

  it('leaving blackhole releases the hung requests; unknown modes and slowMs are rejected', async () => {
    await c.setMode('blackhole');
    const hung = probe(c.tracesUrl, '{}', { timeoutMs: 5_000 });
    await c.waitForSpans(() => c.requests().length > 0, 2_000);
    await c.setMode('up');
    expect(await hung).toMatchObject({ kind: 'error', code: 'ECONNRESET' });
    await expect(c.setMode('down' as never)).rejects.toThrow(/unknown collector mode/);
    await expect(c.setMode('slow', { slowMs: -1 })).rejects.toThrow(/slowMs/);
  });
});
