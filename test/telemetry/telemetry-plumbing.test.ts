import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ContractError } from '../../contract/errors.js';
import type { HarnessEnv } from '../../contract/target.js';
import type { TelemetryHealth } from '../../contract/tracing.js';
import { exportSettingsFrom } from '../../reference-impl/telemetry/export-settings.js';
import { extractInternal, injectInternal } from '../../reference-impl/telemetry/internal-carrier.js';
import { combineHealth, TelemetryIdentity } from '../../reference-impl/telemetry/telemetry-identity.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('internal carrier (control plane → worker)', () => {
  it('keeps a tracestate as sent, keys of the current W3C key grammar included', () => {
    // OpenTelemetry's TraceState drops `1vendor` (a digit first) and `foo@@bar` (two `@`).
    const tracestate = 'rojo=00f067aa0ba902b7,1vendor=a1,foo@@bar=b2';
    const ctx = extractInternal({ traceparent: TRACEPARENT, tracestate });
    expect(trace.getSpanContext(ctx)?.traceState?.serialize()).toBe(tracestate);
    expect(injectInternal(ctx).tracestate).toBe(tracestate);
  });

  it('extracts a carrier without trace context, or with tracestate alone, without throwing', () => {
    expect(trace.getSpanContext(extractInternal({}))).toBeUndefined();
    expect(trace.getSpanContext(extractInternal({ tracestate: 'rojo=1' }))).toBeUndefined();
    expect(trace.getSpanContext(extractInternal({ traceparent: TRACEPARENT }))?.traceState).toBeUndefined();
    expect(injectInternal(ROOT_CONTEXT)).toEqual({});
  });
});

describe('telemetry identity', () => {
  const h = (exporter: TelemetryHealth['exporter']): TelemetryHealth => ({
    exporter,
    droppedSpans: 1,
    queueDepth: 2,
    queueCapacity: 8,
    exportedSpans: 3,
  });

  it('combines health as the worst exporter state, whatever the order, and sums the counters', () => {
    expect(combineHealth([h('failing'), h('ok')])).toEqual({
      exporter: 'failing',
      droppedSpans: 2,
      queueDepth: 4,
      queueCapacity: 16,
      exportedSpans: 6,
    });
    expect(combineHealth([h('degraded'), h('ok'), h('ok')]).exporter).toBe('degraded');
    expect(combineHealth([h('ok'), h('failing'), h('degraded')]).exporter).toBe('failing');
    expect(combineHealth([]).exporter).toBe('ok');
  });

  it('flushes and closes with telemetry disabled (no collector) without throwing', async () => {
    const id = new TelemetryIdentity('smtc-test', exportSettingsFrom({} as HarnessEnv));
    expect(id.enabled).toBe(false);
    // Disabled telemetry still creates (non-recording) spans: the request path is one code path.
    const span = id.tracer.startSpan('authn');
    expect(span.isRecording()).toBe(false);
    span.end();
    await expect(id.flush()).resolves.toBeUndefined();
    await expect(id.close()).resolves.toBeUndefined();
  });
});

describe('export settings', () => {
  const bad = (env: Partial<HarnessEnv>) => {
    try {
      exportSettingsFrom(env as HarnessEnv);
    } catch (e) {
      return e instanceof ContractError ? e.code : `untyped: ${String(e)}`;
    }
    return 'accepted';
  };

  it.each([
    ['exportTimeoutMs 0', { options: { exportTimeoutMs: 0 } }],
    ['exportTimeoutMs 1.5', { options: { exportTimeoutMs: 1.5 } }],
    ['exportTimeoutMs 120001', { options: { exportTimeoutMs: 120_001 } }],
    ['maxQueueSize 0', { options: { maxQueueSize: 0 } }],
    ['maxQueueSize 2.5', { options: { maxQueueSize: 2.5 } }],
    ['maxQueueSize 100001', { options: { maxQueueSize: 100_001 } }],
    ['samplingRatio -0.1', { options: { samplingRatio: -0.1 } }],
    ['samplingRatio 1.1', { options: { samplingRatio: 1.1 } }],
    ['samplingRatio NaN', { options: { samplingRatio: Number.NaN } }],
    ['collectorUrl not a URL', { collectorUrl: 'not a url' }],
    ['collectorUrl ftp:', { collectorUrl: 'ftp://collector.example/v1/traces' }],
  ] as const)('refuses %s as invalid_argument', (_name, env) => {
    expect(bad(env as Partial<HarnessEnv>)).toBe('invalid_argument');
  });

  it('accepts the bounds and http(s) collectors', () => {
    const s = exportSettingsFrom({
      collectorUrl: 'https://collector.example/v1/traces',
      options: { exportTimeoutMs: 120_000, maxQueueSize: 100, samplingRatio: 0 },
    } as HarnessEnv);
    expect(s).toMatchObject({ collectorUrl: 'https://collector.example/v1/traces', maxExportBatchSize: 100 });
    expect(
      bad({ collectorUrl: 'http://127.0.0.1:4318/v1/traces', options: { exportTimeoutMs: 1, maxQueueSize: 1 } }),
    ).toBe('accepted');
    expect(exportSettingsFrom({} as HarnessEnv)).toMatchObject({ collectorUrl: undefined, samplingRatio: 1 });
  });
});
