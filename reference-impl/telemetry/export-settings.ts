/**
 * Export bounds of a telemetry identity, from HarnessEnv: where to export (no collector URL →
 * telemetry disabled), the export/retry timeout, the queue bound and the sampling ratio.
 * Queue, batch and retry time are bounded independently per identity (control plane, worker).
 */
import { ContractError } from '../../contract/errors.js';
import type { HarnessEnv } from '../../contract/target.js';

export interface ExportSettings {
  /** OTLP/HTTP traces endpoint; undefined disables telemetry. */
  readonly collectorUrl: string | undefined;
  /** Upper bound of one export including the exporter's retries. */
  readonly exportTimeoutMs: number;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
  /** Export requests open at once (the exporter's limit): a flush exports the queue as concurrent batches. */
  readonly maxConcurrentExports: number;
  readonly scheduledDelayMs: number;
  readonly samplingRatio: number;
}

export const DEFAULT_EXPORT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_QUEUE_SIZE = 2_048;

export function exportSettingsFrom(env: HarnessEnv): ExportSettings {
  const o = env.options ?? {};
  const exportTimeoutMs = o.exportTimeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS;
  const maxQueueSize = o.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE;
  const samplingRatio = o.samplingRatio ?? 1;
  const maxExportBatchSize = Math.min(256, maxQueueSize);
  // By default as many as a flush of the whole (bounded) queue needs, and one more.
  const maxConcurrentExports = o.maxConcurrentExports ?? Math.ceil(maxQueueSize / maxExportBatchSize) + 1;
  if (!Number.isInteger(exportTimeoutMs) || exportTimeoutMs < 1 || exportTimeoutMs > 120_000) {
    throw new ContractError('invalid_argument', 'exportTimeoutMs must be an integer in 1..120000');
  }
  if (!Number.isInteger(maxQueueSize) || maxQueueSize < 1 || maxQueueSize > 100_000) {
    throw new ContractError('invalid_argument', 'maxQueueSize must be an integer in 1..100000');
  }
  if (!Number.isInteger(maxConcurrentExports) || maxConcurrentExports < 1 || maxConcurrentExports > 1_000) {
    throw new ContractError('invalid_argument', 'maxConcurrentExports must be an integer in 1..1000');
  }
  if (typeof samplingRatio !== 'number' || !(samplingRatio >= 0 && samplingRatio <= 1)) {
    throw new ContractError('invalid_argument', 'samplingRatio must be in 0..1');
  }
  const collectorUrl = env.collectorUrl ? checkedUrl(env.collectorUrl) : undefined;
  return {
    collectorUrl,
    exportTimeoutMs,
    maxQueueSize,
    maxExportBatchSize,
    maxConcurrentExports,
    scheduledDelayMs: 200,
    samplingRatio,
  };
}

function checkedUrl(u: string): string {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    throw new ContractError('invalid_argument', 'collectorUrl is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ContractError('invalid_argument', 'collectorUrl must be http(s)');
  }
  return url.href;
}
