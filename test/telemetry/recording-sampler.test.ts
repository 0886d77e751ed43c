import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { extractInternal, injectInternal } from '../../reference-impl/telemetry/internal-carrier.js';
import { RecordingSampler } from '../../reference-impl/telemetry/recording-sampler.js';

const remote = (flags: number) =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    traceFlags: flags,
    isRemote: true,
  });

describe('recording sampler', () => {
  const tracer = (ratio: number) =>
    new BasicTracerProvider({ sampler: new RecordingSampler(ratio), spanProcessors: [] }).getTracer('t');

  it('keeps recording under a remote parent that says "not sampled"', () => {
    const span = tracer(1).startSpan('harness.request', {}, remote(TraceFlags.NONE));
    expect(span.isRecording()).toBe(true);
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('follows its own decision across the internal carrier and local parents', () => {
    const off = tracer(0).startSpan('harness.request');
    expect(off.isRecording()).toBe(false);
    const worker = tracer(1);
    const viaCarrier = worker.startSpan(
      'harness.run',
      {},
      extractInternal(injectInternal(trace.setSpan(ROOT_CONTEXT, off))),
    );
    expect(viaCarrier.isRecording()).toBe(false);
    const on = tracer(1).startSpan('harness.request');
    const child = tracer(0).startSpan('authn', {}, trace.setSpan(ROOT_CONTEXT, on));
    expect(child.isRecording()).toBe(true);
  });
});
