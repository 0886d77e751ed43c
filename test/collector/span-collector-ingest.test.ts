/**
 * The collector decodes what real exporters send: OTLP/HTTP JSON from the real
 * @opentelemetry/exporter-trace-otlp-http exporter (plain and gzip), and protobuf bodies from
 * otlp-transformer's ProtobufTraceSerializer (plain and gzip) — both to the same spans.
 */
import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeOtlpJson } from '../../fixtures/collector/otlp-json-decoder.js';
import { type SpanCollector, startSpanCollector } from '../../fixtures/collector/span-collector.js';
import { exportWith } from './export-with.js';
import { probe } from './http-probe.js';
import { recordSpans, SERVICE_NAME } from './recorded-spans.js';

let c: SpanCollector;
beforeAll(async () => {
  c = await startSpanCollector();
});
afterAll(() => c.close());
beforeEach(() => c.reset());

function byName(spans: ReturnType<SpanCollector['spans']>, name: string) {
  const s = spans.find((x) => x.name === name);
  if (!s) throw new Error(`span ${name} not collected`);
  return s;
}

describe('span collector ingest', () => {
  it('decodes every field of a JSON export from the real OTLP/HTTP exporter', async () => {
    const spans = await recordSpans();
    const r = await exportWith(c.tracesUrl, spans);
    expect(r).toMatchObject({ ok: true });
    const got = c.spans();
    expect(got).toHaveLength(3);
    const parent = byName(got, 'parent-op');
    const child = byName(got, 'child-op');
    const linked = byName(got, 'linked-op');
    const sdkChild = spans.find((s) => s.name === 'child-op')!;
    expect(child.traceId).toBe(sdkChild.spanContext().traceId);
    expect(child.spanId).toBe(sdkChild.spanContext().spanId);
    expect(child.parentSpanId).toBe(parent.spanId);
    expect(parent.parentSpanId).toBeNull();
    expect(child.kind).toBe(3); // CLIENT (API kind + 1)
    expect(parent.kind).toBe(2); // SERVER
    expect(child.serviceName).toBe(SERVICE_NAME);
    expect(child.resource['deployment.tier']).toBe('test');
    expect(child.scope).toBe('collector-test-scope');
    expect(child.attributes).toEqual({
      'str.attr': 'héllo "quoted"\n',
      'int.attr': 42,
      'neg.attr': -7,
      'double.attr': 1.5,
      'bool.attr': true,
      'arr.attr': ['a', 'b'],
    });
    expect(child.events).toEqual([{ name: 'child-event', attributes: { 'event.attr': 'e', 'event.count': 3 } }]);
    expect(child.links).toEqual([{ traceId: linked.traceId, spanId: linked.spanId, attributes: { 'link.attr': 'l' } }]);
    expect(child.status).toEqual({ code: 2, message: 'boom' });
    expect(BigInt(child.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(child.startTimeUnixNano));
    expect(BigInt(child.startTimeUnixNano)).toBeGreaterThan(1_600_000_000n * 1_000_000_000n);

    const [req] = c.requests();
    expect(req!.path).toBe('/v1/traces');
    expect(req!.contentType).toContain('application/json');
    expect(req!.status).toBe(200);
    expect(req!.body.equals(req!.rawBody)).toBe(true);
    expect(req!.body.toString('utf8')).toContain('parent-op');
  });

  it('gunzips a gzip JSON export and keeps both the wire bytes and the decompressed body', async () => {
    const spans = await recordSpans();
    expect(await exportWith(c.tracesUrl, spans, { gzip: true })).toMatchObject({ ok: true });
    const [req] = c.requests();
    expect(req!.headers['content-encoding']).toBe('gzip');
    expect(req!.rawBody[0]).toBe(0x1f); // gzip magic
    expect(req!.rawBody.includes(Buffer.from('child-op'))).toBe(false);
    expect(req!.body.toString('utf8')).toContain('child-op');
    expect(
      c
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['child-op', 'linked-op', 'parent-op']);
  });

  it('decodes protobuf (plain and gzip) to exactly the spans the JSON encoding of the same export gives', async () => {
    const spans = await recordSpans();
    const fromJson = decodeOtlpJson(JsonTraceSerializer.serializeRequest(spans)!);
    const pb = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    const plain = await probe(c.tracesUrl, pb, { contentType: 'application/x-protobuf' });
    expect(plain).toMatchObject({ kind: 'status', status: 200 });
    const zipped = await probe(c.tracesUrl, gzipSync(pb), { contentType: 'application/x-protobuf', encoding: 'gzip' });
    expect(zipped).toMatchObject({ kind: 'status', status: 200 });
    const reqs = c.requests();
    expect(reqs).toHaveLength(2);
    expect(reqs[0]!.spans).toEqual(fromJson);
    expect(reqs[1]!.spans).toEqual(fromJson);
    expect(reqs[1]!.body.equals(pb)).toBe(true);
    expect(c.spans()).toHaveLength(6);
  });

  it('waitForSpans resolves once the predicate holds and times out with a count otherwise', async () => {
    const spans = await recordSpans();
    const waiting = c.waitForSpans((all) => all.some((s) => s.name === 'child-op'), 5_000);
    await exportWith(c.tracesUrl, spans);
    expect((await waiting).length).toBe(3);
    await expect(c.waitForSpans((all) => all.length > 99, 50)).rejects.toThrow(/timed out after 50 ms with 3 spans/);
  });
});
