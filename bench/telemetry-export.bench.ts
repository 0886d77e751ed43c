/**
 * Telemetry export cost, measured side by side in one process against the in-process collector:
 *
 *  1. per-span cost of the reference's export path (bounded, metered batch processor →
 *     scrubbing exporter → OTLP/HTTP) against a plain BatchSpanProcessor + OTLP exporter, as a
 *     ratio — spans started, ended, exported and acknowledged by the collector;
 *  2. the scrub step alone (ns per span);
 *  3. run latency of the reference with the collector up, refusing connections, and black-holed
 *     (should be equal: export never sits on the request path).
 *
 *   node --import tsx bench/telemetry-export.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { RunStep } from '../contract/runs.js';
import { startSpanCollector } from '../fixtures/collector/span-collector.js';
import { startStubs } from '../fixtures/stubs/use-stubs.js';
import referenceModule from '../reference-impl/module-target.js';
import type { ExportSettings } from '../reference-impl/telemetry/export-settings.js';
import { ScrubbingExporter } from '../reference-impl/telemetry/scrubbing-exporter.js';
import { TelemetryIdentity } from '../reference-impl/telemetry/telemetry-identity.js';

const SPANS = Number(process.env.BENCH_SPANS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A span as the reference writes one, plus the kind of stray data the scrubber exists for. */
function emit(tracer: Tracer, i: number): void {
  const s = tracer.startSpan('provider.invoke', {
    attributes: {
      'smtc.operation': 'provider',
      'smtc.outcome': 'ok',
      'smtc.size.bytes': 512 + (i % 97),
      'smtc.run.hmac': '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      'gen_ai.request.model': 'scripted-model',
      'http.request.header.user-agent': 'bench/1.0',
    },
  });
  s.addEvent('smtc.durable', { 'smtc.size.bytes': 3 });
  s.end();
}

async function timeExport(tracer: Tracer, flush: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < SPANS; i++) {
    emit(tracer, i);
    // Let the batch processor drain as it would under load (it exports from timers/IO).
    if (i % 512 === 511) await new Promise<void>((r) => setImmediate(r));
  }
  await flush();
  return ((performance.now() - t0) * 1e6) / SPANS; // ns per span
}

async function exportPaths(tracesUrl: string): Promise<{ plain: number; scrubbing: number }> {
  const bounds = {
    maxQueueSize: SPANS,
    maxExportBatchSize: 512,
    scheduledDelayMillis: 50,
    exportTimeoutMillis: 10_000,
  };
  const plainProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl }), bounds);
  const plain = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'smtc-control-plane' }),
    spanProcessors: [plainProcessor],
  });
  const settings: ExportSettings = {
    collectorUrl: tracesUrl,
    exportTimeoutMs: 10_000,
    maxQueueSize: SPANS,
    maxExportBatchSize: 512,
    // The OTLP exporter's own default, as the plain pipeline has.
    maxConcurrentExports: 30,
    scheduledDelayMs: 50,
    samplingRatio: 1,
  };
  const scrubbing = new TelemetryIdentity('smtc-control-plane', settings);
  const plainNs: number[] = [];
  const scrubNs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    plainNs.push(await timeExport(plain.getTracer('bench'), () => plainProcessor.forceFlush()));
    scrubNs.push(await timeExport(scrubbing.tracer, () => scrubbing.flush()));
  }
  if (scrubbing.health().exportedSpans < SPANS * ROUNDS)
    throw new Error(`scrubbing path lost spans: ${JSON.stringify(scrubbing.health())}`);
  await plain.shutdown();
  await scrubbing.close();
  return { plain: median(plainNs), scrubbing: median(scrubNs) };
}

async function scrubOnly(): Promise<number> {
  const mem = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(mem)] });
  const tracer = provider.getTracer('bench');
  for (let i = 0; i < 2_000; i++) emit(tracer, i);
  const spans = mem.getFinishedSpans();
  const scrubber = new ScrubbingExporter(mem);
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let k = 0; k < 10; k++) for (const s of spans) scrubber.scrub(s);
    samples.push(((performance.now() - t0) * 1e6) / (spans.length * 10));
  }
  return median(samples);
}

const SCRIPT: RunStep[] = [
  { type: 'provider', prompt: 'Plan the day.' },
  { type: 'subagent', steps: [{ type: 'emit', text: 'checked' }] },
  { type: 'internal_call' },
  { type: 'emit', text: 'done' },
  { type: 'checkpoint' },
];

async function runLatency(): Promise<Record<string, number>> {
  const collector = await startSpanCollector();
  const stubs = await startStubs();
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'smtc-bench-'));
  const target = await referenceModule.create({
    tempDir,
    collectorUrl: collector.tracesUrl,
    ...stubs.urls(),
    options: { exportTimeoutMs: 500, maxQueueSize: 2_048 },
  });
  const alice = target.principals.alice;
  const binding = await target.bindings.open(alice, {
    environment: 'bench',
    harness: 'scripted',
    codec: 'scripted/v1',
  });
  const once = async () => {
    const t0 = performance.now();
    const out = await target.runs!.start(alice, {
      bindingId: binding.bindingId,
      agent: target.principals.agents[0],
      steps: SCRIPT,
    });
    if (out.state !== 'completed') throw new Error(`run ${out.state}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 10; i++) await once(); // warm-up
  const result: Record<string, number> = {};
  // Interleave modes round by round so drift (GC, JIT, machine load) hits all of them alike.
  const samples: Record<string, number[]> = { up: [], refuse: [], blackhole: [] };
  for (let r = 0; r < RUNS / 10; r++) {
    for (const mode of ['up', 'refuse', 'blackhole'] as const) {
      await collector.setMode(mode);
      for (let i = 0; i < 10; i++) samples[mode]!.push(await once());
    }
  }
  await collector.setMode('up');
  for (const [mode, xs] of Object.entries(samples)) result[mode] = median(xs);
  await referenceModule.destroy!(target);
  await stubs.close();
  await collector.close();
  rmSync(tempDir, { recursive: true, force: true });
  return result;
}

/** A bare OTLP/HTTP sink that drains and acknowledges: isolates the exporting side's cost. */
async function startSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function main() {
  const collector = await startSpanCollector({ maxRetainedBytes: 2 * 1024 * 1024 * 1024 });
  const paths = await exportPaths(collector.tracesUrl);
  await collector.close();
  const sink = await startSink();
  const bare = await exportPaths(sink.url);
  await sink.close();
  const scrub = await scrubOnly();
  const latency = await runLatency();
  const fmt = (n: number) => n.toFixed(0).padStart(8);
  process.stdout.write(
    [
      `export path, ${SPANS} spans x ${ROUNDS} rounds (median ns/span, start to ack)`,
      '  into the span collector (decodes and keeps every span)',
      `    plain BatchSpanProcessor + OTLP   ${fmt(paths.plain)} ns/span`,
      `    reference (bounded+metered+scrub) ${fmt(paths.scrubbing)} ns/span`,
      `    ratio reference / plain           ${(paths.scrubbing / paths.plain).toFixed(2)}x`,
      '  into a bare HTTP sink (drains and acks: exporter side only)',
      `    plain BatchSpanProcessor + OTLP   ${fmt(bare.plain)} ns/span`,
      `    reference (bounded+metered+scrub) ${fmt(bare.scrubbing)} ns/span`,
      `    ratio reference / plain           ${(bare.scrubbing / bare.plain).toFixed(2)}x`,
      `scrub step alone                      ${fmt(scrub)} ns/span`,
      `run latency, ${RUNS} runs per collector mode (median ms, exportTimeoutMs=500)`,
      `  collector up                        ${latency.up!.toFixed(2).padStart(8)} ms`,
      `  collector refusing connections      ${latency.refuse!.toFixed(2).padStart(8)} ms  (${(latency.refuse! / latency.up!).toFixed(2)}x)`,
      `  collector black-holed               ${latency.blackhole!.toFixed(2).padStart(8)} ms  (${(latency.blackhole! / latency.up!).toFixed(2)}x)`,
      '',
    ].join('\n'),
  );
}

await main();
