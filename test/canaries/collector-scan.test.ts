/**
 * End to end through real bytes: the real OTLP exporter (JSON, gzip JSON) and the protobuf
 * serializer carry canaries into the span collector; the scanner finds each one and names the
 * span and attribute key it sits in.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encode } from '../../canaries/canary-encodings.js';
import { CanaryKit } from '../../canaries/canary-kit.js';
import { scanSinks } from '../../canaries/canary-scanner.js';
import { type SpanCollector, startSpanCollector } from '../../fixtures/collector/span-collector.js';
import { requestScanItems } from '../../fixtures/collector/span-text-fields.js';
import { exportWith } from '../collector/export-with.js';
import { probe } from '../collector/http-probe.js';

let c: SpanCollector;
beforeAll(async () => {
  c = await startSpanCollector();
});
afterAll(() => c.close());
beforeEach(() => c.reset());

async function leakySpans(kit: CanaryKit) {
  const prompt = kit.mint('prompt');
  const token = kit.mint('bearer_token');
  const stderr = kit.mint('provider_stderr');
  const mem = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(mem)] });
  const span = provider.getTracer('t').startSpan('provider.invoke', { attributes: { 'gen_ai.prompt': prompt.value } });
  span.addEvent('auth', { 'auth.b64': encode('base64', `Bearer ${token.value}`) });
  span.setStatus({ code: SpanStatusCode.ERROR, message: stderr.value });
  span.end();
  await provider.forceFlush();
  return { spans: mem.getFinishedSpans(), prompt, token, stderr };
}

describe('scanning collector requests for canaries', () => {
  it.each([{ gzip: false }, { gzip: true }])(
    'JSON export (gzip: $gzip): every leak located by span and key',
    async ({ gzip }) => {
      const kit = new CanaryKit();
      const { spans, prompt, token, stderr } = await leakySpans(kit);
      expect((await exportWith(c.tracesUrl, spans, { gzip })).ok).toBe(true);
      const r = scanSinks(kit.canaries(), [
        { name: 'collector.requests', description: 'd', items: requestScanItems(c.requests()) },
      ]);
      const by = (id: string) => r.hits.find((h) => h.canaryId === id);
      expect(by(prompt.id)).toMatchObject({
        encoding: 'json-escaped',
        spanName: 'provider.invoke',
        attributeKey: 'gen_ai.prompt',
      });
      expect(by(token.id)).toMatchObject({ encoding: 'base64', spanName: 'provider.invoke', attributeKey: 'auth.b64' });
      expect(by(stderr.id)).toMatchObject({ spanName: 'provider.invoke', fieldPath: 'span[0].status.message' });
      expect(r.sinks[0]).toMatchObject({ requests: 1, spans: 1 });
    },
  );

  it('protobuf export: raw strings found in the binary body', async () => {
    const kit = new CanaryKit();
    const { spans, prompt } = await leakySpans(kit);
    const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    expect(await probe(c.tracesUrl, body, { contentType: 'application/x-protobuf' })).toMatchObject({ status: 200 });
    const r = scanSinks(kit.canaries(), [
      { name: 'collector.requests', description: 'd', items: requestScanItems(c.requests()) },
    ]);
    expect(r.hits.find((h) => h.canaryId === prompt.id)).toMatchObject({
      encoding: 'raw',
      byteOffset: body.indexOf(Buffer.from(prompt.value)),
      attributeKey: 'gen_ai.prompt',
    });
    expect(new Set(r.hits.map((h) => h.canaryId)).size).toBe(3);
  });
});
