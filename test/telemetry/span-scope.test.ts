import { ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ContractError } from '../../contract/errors.js';
import { inSpan, openSpan } from '../../reference-impl/telemetry/span-scope.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const remote = (flags: number, traceId = TRACE) =>
  trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: '00f067aa0ba902b7', traceFlags: flags, isRemote: true });

function setup() {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
  return { exporter, tracer };
}

describe('span scope: the W3C Level 2 random-trace-id flag', () => {
  it('a child of a parent with the random flag carries it on in its context (what propagation reads)', () => {
    const { tracer } = setup();
    const scope = openSpan(tracer, 'harness.request', remote(0x03));
    const sc = trace.getSpanContext(scope.ctx)!;
    expect(sc.traceId).toBe(TRACE);
    expect(sc.traceFlags & 0x02).toBe(0x02);
    expect(sc.spanId).toBe(scope.span.spanContext().spanId);
    // The proxy still is the span: methods work on the real span.
    expect(trace.getSpan(scope.ctx)!.isRecording()).toBe(true);
    scope.span.end();
  });

  it('never claims randomness the parent did not: no flag without it, none at a new root', () => {
    const { tracer } = setup();
    const plain = openSpan(tracer, 'harness.request', remote(0x01));
    expect(trace.getSpanContext(plain.ctx)!.traceFlags & 0x02).toBe(0);
    const root = openSpan(tracer, 'harness.request', ROOT_CONTEXT);
    expect(trace.getSpan(root.ctx)).toBe(root.span);
    expect(trace.getSpan(plain.ctx)).toBe(plain.span);
  });
});

describe('span scope: outcome, status and error category', () => {
  it('inSpan marks a settled span ok, keeps an outcome already set, and ends it', async () => {
    const { exporter, tracer } = setup();
    await inSpan(tracer, 'authn', ROOT_CONTEXT, { 'smtc.operation': 'run' }, async () => 1);
    await inSpan(tracer, 'authz.agent', ROOT_CONTEXT, {}, async (s) => {
      s.set({ 'smtc.outcome': 'denied' });
      expect(s.outcomeSet).toBe(true);
    });
    const [a, b] = exporter.getFinishedSpans();
    expect(a!.attributes).toMatchObject({ 'smtc.outcome': 'ok', 'smtc.operation': 'run' });
    expect(b!.attributes['smtc.outcome']).toBe('denied');
    expect(a!.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('a thrown error marks the span error with its category only, and is rethrown', async () => {
    const { exporter, tracer } = setup();
    await expect(
      inSpan(tracer, 'authz.agent', ROOT_CONTEXT, {}, async () => {
        throw new ContractError('forbidden', 'no');
      }),
    ).rejects.toThrow();
    await expect(
      inSpan(tracer, 'authn', ROOT_CONTEXT, {}, async () => {
        throw new Error('secret message');
      }),
    ).rejects.toThrow('secret message');
    const [typed, untyped] = exporter.getFinishedSpans();
    expect(typed!.status.code).toBe(SpanStatusCode.ERROR);
    expect(typed!.attributes).toMatchObject({
      'smtc.outcome': 'error',
      'smtc.error.category': new ContractError('forbidden').category,
    });
    expect(untyped!.attributes).toMatchObject({ 'smtc.outcome': 'error', 'smtc.error.category': 'internal' });
    expect(JSON.stringify(untyped!.attributes)).not.toContain('secret');
  });

  it('a span set no outcome reports outcomeSet false until one is set', () => {
    const { tracer } = setup();
    const s = openSpan(tracer, 'authn', ROOT_CONTEXT);
    expect(s.outcomeSet).toBe(false);
    s.set({ 'smtc.operation': 'run' });
    expect(s.outcomeSet).toBe(false);
    s.span.end();
  });
});
