/**
 * Real SDK spans for the collector tests: a parent and a child carrying every attribute value
 * type, an event, a link and an error status, recorded by the real OTel SDK.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export const SERVICE_NAME = 'collector-test-service';

/** Record the fixture spans through the given processors (plus an in-memory copy). */
export async function recordSpans(processors: SpanProcessor[] = []): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': SERVICE_NAME, 'deployment.tier': 'test' }),
    spanProcessors: [new SimpleSpanProcessor(memory), ...processors],
  });
  const tracer = provider.getTracer('collector-test-scope', '1.2.3');
  const parent = tracer.startSpan('parent-op', { kind: SpanKind.SERVER });
  const linked = tracer.startSpan('linked-op');
  linked.end();
  const child = tracer.startSpan(
    'child-op',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'str.attr': 'héllo "quoted"\n',
        'int.attr': 42,
        'neg.attr': -7,
        'double.attr': 1.5,
        'bool.attr': true,
        'arr.attr': ['a', 'b'],
      },
      links: [{ context: linked.spanContext(), attributes: { 'link.attr': 'l' } }],
    },
    trace.setSpan(context.active(), parent),
  );
  child.addEvent('child-event', { 'event.attr': 'e', 'event.count': 3 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  child.end();
  parent.end();
  await provider.forceFlush();
  const spans = memory.getFinishedSpans();
  await provider.shutdown();
  return spans;
}
