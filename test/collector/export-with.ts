/** Export spans with the real OTLP/HTTP exporter and report its result code and duration. */
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

// CompressionAlgorithm lives in otlp-exporter-base, which is not a direct dependency.
type Compression = NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>['compression'];

export async function exportWith(
  url: string,
  spans: ReadableSpan[],
  opts: { gzip?: boolean; timeoutMillis?: number } = {},
): Promise<{ ok: boolean; error: string | null; ms: number }> {
  const exporter = new OTLPTraceExporter({
    url,
    timeoutMillis: opts.timeoutMillis ?? 5_000,
    ...(opts.gzip ? { compression: 'gzip' as Compression } : {}),
  });
  const started = performance.now();
  const result = await new Promise<{ code: ExportResultCode; error?: Error }>((resolve) =>
    exporter.export(spans, resolve),
  );
  const ms = performance.now() - started;
  await exporter.shutdown().catch(() => {});
  return { ok: result.code === ExportResultCode.SUCCESS, error: result.error?.message ?? null, ms };
}
