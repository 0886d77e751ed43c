/**
 * Span-collector ingest rate: spans/s the in-process collector accepts over loopback HTTP for
 * OTLP/JSON and OTLP/protobuf bodies (plain and gzip), measured side by side in one process.
 * Bodies are serialized once from real SDK spans (otlp-transformer's serializers); each request
 * carries BATCH spans and is sent sequentially over one keep-alive connection, so the figure is
 * the collector's receive + decompress + decode + retain cost per span.
 *
 *   node --import tsx bench/collector-ingest.bench.ts
 */
import { Agent, request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startSpanCollector } from '../fixtures/collector/span-collector.js';

const BATCH = 256;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const ROUNDS = 5;

async function sdkSpans() {
  const mem = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'smtc-bench', 'service.version': '0.1.0' }),
    spanProcessors: [new SimpleSpanProcessor(mem)],
  });
  const tracer = provider.getTracer('smtc-bench', '1.0.0');
  for (let i = 0; i < BATCH; i++) {
    const s = tracer.startSpan('harness.run', {
      attributes: {
        'smtc.operation': 'tool',
        'smtc.outcome': 'completed',
        'smtc.size.bytes': 1024 + i,
        'smtc.run.hmac': `hmac-${i.toString(16).padStart(16, '0')}`,
        'smtc.lease.generation': 3,
      },
    });
    s.addEvent('smtc.durable', { 'smtc.event.count': i });
    s.end();
  }
  await provider.forceFlush();
  return mem.getFinishedSpans();
}

function post(agent: Agent, url: URL, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const spans = await sdkSpans();
  const json = Buffer.from(JsonTraceSerializer.serializeRequest(spans)!);
  const proto = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
  const cases: { name: string; body: Buffer; headers: Record<string, string> }[] = [
    { name: 'json', body: json, headers: { 'content-type': 'application/json' } },
    {
      name: 'json+gzip',
      body: gzipSync(json),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    },
    { name: 'protobuf', body: proto, headers: { 'content-type': 'application/x-protobuf' } },
    {
      name: 'protobuf+gzip',
      body: gzipSync(proto),
      headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
    },
  ];
  const results: Record<string, number> = {};
  console.log(
    `collector ingest: ${REQUESTS} requests x ${BATCH} spans per case, best of ${ROUNDS} interleaved rounds (Node ${process.version})`,
  );
  // Rounds interleave the cases so machine load drifts over all of them alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const collector = await startSpanCollector({ maxRetainedBytes: 2 * 1024 * 1024 * 1024 });
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const url = new URL(collector.tracesUrl);
      const started = performance.now();
      for (let i = 0; i < REQUESTS; i++) {
        const status = await post(agent, url, c.body, c.headers);
        if (status !== 200) throw new Error(`${c.name}: collector answered ${status}`);
      }
      const seconds = (performance.now() - started) / 1000;
      if (collector.spans().length !== REQUESTS * BATCH) throw new Error(`${c.name}: spans lost`);
      results[c.name] = Math.max(results[c.name] ?? 0, (REQUESTS * BATCH) / seconds);
      agent.destroy();
      await collector.close();
    }
  }
  for (const c of cases) {
    const rate = Math.round(results[c.name]!).toLocaleString('en-US');
    console.log(`  ${c.name.padEnd(14)} ${rate.padStart(10)} spans/s   body ${c.body.length} bytes/request`);
  }
  console.log(`  protobuf/json ratio: ${(results.protobuf! / results.json!).toFixed(2)}x`);
}

await main();
