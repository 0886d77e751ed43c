import { ROOT_CONTEXT, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { ExportResultCode, TraceState } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ScrubbingExporter } from '../../reference-impl/telemetry/scrubbing-exporter.js';

const SECRET = 'canary-Secret value alice@example.com';

function pipeline() {
  const sink = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': 'smtc-control-plane',
      'host.name': SECRET,
      'process.command_line': SECRET,
    }),
    spanProcessors: [new SimpleSpanProcessor(new ScrubbingExporter(sink))],
  });
  return { sink, tracer: provider.getTracer('smtc-reference', '0.1.0') };
}

describe('scrubbing exporter', () => {
  it('exports a filtered copy: attributes, events, links, status, trace state and resource', () => {
    const { sink, tracer } = pipeline();
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: new TraceState(`vendor=${'x'.repeat(8)}`),
    });
    const span = tracer.startSpan(
      'provider.invoke',
      {
        attributes: {
          'smtc.operation': 'provider',
          'smtc.size.bytes': 12,
          'gen_ai.prompt': SECRET,
          'smtc.outcome': SECRET,
          'http.request.header.authorization': 'Bearer abc',
        },
        links: [
          {
            context: {
              traceId: '11111111111111111111111111111111',
              spanId: '2222222222222222',
              traceFlags: 1,
              traceState: new TraceState('remote=secret'),
            },
            attributes: { 'smtc.remote_trace.linked': true, note: SECRET },
          },
        ],
      },
      parent,
    );
    span.recordException(new Error(SECRET));
    span.addEvent('smtc.durable', { 'smtc.size.bytes': 3, body: SECRET });
    span.setStatus({ code: SpanStatusCode.ERROR, message: SECRET });
    span.end();

    const [out] = sink.getFinishedSpans();
    expect(out).toBeDefined();
    const s = out!;
    expect(s.attributes).toEqual({ 'smtc.operation': 'provider', 'smtc.size.bytes': 12 });
    expect(s.events.map((e) => [e.name, e.attributes])).toEqual([['smtc.durable', { 'smtc.size.bytes': 3 }]]);
    expect(s.links).toHaveLength(1);
    expect(s.links[0]!.context.traceState).toBeUndefined();
    expect(s.links[0]!.attributes).toEqual({ 'smtc.remote_trace.linked': true });
    expect(s.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(s.spanContext().traceState).toBeUndefined();
    expect(s.parentSpanContext?.traceState).toBeUndefined();
    expect(s.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(s.resource.attributes).toEqual({ 'service.name': 'smtc-control-plane' });
    expect(
      JSON.stringify(s.attributes) + JSON.stringify(s.events) + JSON.stringify(s.resource.attributes),
    ).not.toContain('canary');
  });

  it('does not export span names outside the contract vocabulary', () => {
    const { sink, tracer } = pipeline();
    tracer.startSpan(`GET /users/${SECRET}`).end();
    tracer.startSpan('harness.run').end();
    expect(sink.getFinishedSpans().map((s) => s.name)).toEqual(['harness.run']);
  });

  it('answers success for a batch it filters empty, without calling the inner exporter', () => {
    const inner = new InMemorySpanExporter();
    let innerCalls = 0;
    const counting = Object.assign(Object.create(inner) as InMemorySpanExporter, {
      export: (...args: Parameters<InMemorySpanExporter['export']>) => {
        innerCalls += 1;
        inner.export(...args);
      },
    });
    const provider = new BasicTracerProvider({ spanProcessors: [] });
    const span = provider.getTracer('t').startSpan(`GET /users/${SECRET}`);
    span.end();
    const results: unknown[] = [];
    new ScrubbingExporter(counting).export([span as unknown as Parameters<ScrubbingExporter['scrub']>[0]], (r) =>
      results.push(r),
    );
    expect(results).toEqual([{ code: ExportResultCode.SUCCESS }]);
    expect(innerCalls, 'nothing to export: the inner exporter is not called').toBe(0);
  });

  it('leaves the original span untouched', () => {
    const inner = new InMemorySpanExporter();
    const scrubber = new ScrubbingExporter(inner);
    const provider = new BasicTracerProvider({ spanProcessors: [] });
    const span = provider.getTracer('t').startSpan('authn', { attributes: { raw: 'x' } });
    span.end();
    const readable = span as unknown as Parameters<ScrubbingExporter['scrub']>[0];
    const copy = scrubber.scrub(readable);
    expect(copy.attributes).toEqual({});
    expect(readable.attributes).toEqual({ raw: 'x' });
  });
});
