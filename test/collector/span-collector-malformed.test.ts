/**
 * Malformed OTLP is answered 400 (415 for an unknown content type, 404/405 for other routes)
 * and the collector keeps serving: a valid export right after is accepted.
 */
import { gzipSync } from 'node:zlib';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpanCollector, startSpanCollector } from '../../fixtures/collector/span-collector.js';
import { exportWith } from './export-with.js';
import { probe } from './http-probe.js';
import { recordSpans } from './recorded-spans.js';

let c: SpanCollector;
beforeAll(async () => {
  c = await startSpanCollector({ maxBodyBytes: 64 * 1024 });
});
afterAll(() => c.close());

const validSpan = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  name: 'x',
  startTimeUnixNano: '1',
  endTimeUnixNano: '2',
};
const wrap = (span: unknown) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });

const JSON_CASES: [string, string][] = [
  ['not JSON', '{"resourceSpans": ['],
  ['not an object', '[1,2,3]'],
  ['resourceSpans not an array', '{"resourceSpans": 5}'],
  ['short trace id', wrap({ ...validSpan, traceId: 'abc' })],
  ['non-hex span id', wrap({ ...validSpan, spanId: 'zzzzzzzzzzzzzzzz' })],
  ['missing span id', wrap({ ...validSpan, spanId: undefined })],
  ['bad timestamp', wrap({ ...validSpan, startTimeUnixNano: '-5' })],
  ['bad kind', wrap({ ...validSpan, kind: 'SPAN_KIND_BOGUS' })],
  ['attribute without key', wrap({ ...validSpan, attributes: [{ value: { stringValue: 'v' } }] })],
  ['intValue not an integer', wrap({ ...validSpan, attributes: [{ key: 'k', value: { intValue: 'x1' } }] })],
];

describe('span collector rejects malformed OTLP and keeps serving', () => {
  it.each(JSON_CASES)('JSON: %s → 400', async (_label, body) => {
    const r = await probe(c.tracesUrl, body);
    expect(r).toMatchObject({ kind: 'status', status: 400 });
  });

  it('protobuf: truncated, bad wire type, wrong id length, invalid UTF-8 → 400', async () => {
    const spans = await recordSpans();
    const pb = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    const ct = { contentType: 'application/x-protobuf' };
    expect(await probe(c.tracesUrl, pb.subarray(0, pb.length - 7), ct)).toMatchObject({ status: 400 });
    // field 1 (resource_spans) declared as varint instead of length-delimited
    expect(await probe(c.tracesUrl, Buffer.from([0x08, 0x01]), ct)).toMatchObject({ status: 400 });
    // a span whose trace_id is 3 bytes: ResourceSpans{ScopeSpans{Span{trace_id=0x010203, span_id=8 bytes}}}
    const span = Buffer.from([0x0a, 0x03, 1, 2, 3, 0x12, 0x08, 1, 2, 3, 4, 5, 6, 7, 8]);
    const scope = Buffer.concat([Buffer.from([0x12, span.length]), span]);
    const rs = Buffer.concat([Buffer.from([0x12, scope.length]), scope]);
    expect(await probe(c.tracesUrl, Buffer.concat([Buffer.from([0x0a, rs.length]), rs]), ct)).toMatchObject({
      status: 400,
    });
    // span name (field 5) with invalid UTF-8
    const badName = Buffer.from([0x2a, 0x02, 0xc3, 0x28]);
    const scope2 = Buffer.concat([Buffer.from([0x12, badName.length]), badName]);
    const rs2 = Buffer.concat([Buffer.from([0x12, scope2.length]), scope2]);
    expect(await probe(c.tracesUrl, Buffer.concat([Buffer.from([0x0a, rs2.length]), rs2]), ct)).toMatchObject({
      status: 400,
    });
  });

  it('gzip that is not gzip → 400; unknown encoding and content type → 415; oversized → 413; other routes 404/405', async () => {
    expect(await probe(c.tracesUrl, 'plainly not gzip', { encoding: 'gzip' })).toMatchObject({ status: 400 });
    expect(await probe(c.tracesUrl, '{}', { encoding: 'br' })).toMatchObject({ status: 415 });
    expect(await probe(c.tracesUrl, '{}', { contentType: 'text/plain' })).toMatchObject({ status: 415 });
    expect(await probe(c.tracesUrl, 'x'.repeat(65 * 1024))).toMatchObject({ status: 413 });
    // a gzip bomb: small on the wire, over the bound once decompressed
    expect(await probe(c.tracesUrl, gzipSync(Buffer.alloc(1024 * 1024, 0x20)), { encoding: 'gzip' })).toMatchObject({
      status: 413,
    });
    expect(await probe(`${c.url}/v1/metrics`, '{}')).toMatchObject({ status: 404 });
    expect(await probe(c.tracesUrl, '', { method: 'GET' })).toMatchObject({ status: 405 });
  });

  it('accepted nothing from the malformed requests, recorded them, and still accepts a valid export', async () => {
    expect(c.spans()).toHaveLength(0);
    expect(c.requests().filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(JSON_CASES.length + 5);
    expect(c.requests().every((r) => r.spans === null || r.status !== 200)).toBe(true);
    const r = await exportWith(c.tracesUrl, await recordSpans());
    expect(r.ok).toBe(true);
    expect(c.spans()).toHaveLength(3);
  });
});
