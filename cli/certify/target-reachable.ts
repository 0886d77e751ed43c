/**
 * A static HTTP target (a URL, or a manifest without `process.start`) that does not answer
 * at all is "the target could not be used" (exit 2) — found here, once, before any suite
 * starts, instead of as a "failed" verdict from every suite process. One bounded probe of
 * `GET /v1/info`; any HTTP answer counts as reachable (the suites judge the rest).
 */
import { loadManifest } from '../../fixtures/targets/http/load-manifest.js';

export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
}

function staticBaseUrl(target: string): string | undefined {
  if (/^https?:\/\//i.test(target)) return target;
  if (!target.endsWith('.json')) return undefined;
  const m = loadManifest(target);
  return m.process?.start ? undefined : m.baseUrl;
}

export async function ensureReachable(target: string, timeoutMs = 10_000): Promise<void> {
  const base = staticBaseUrl(target);
  if (!base) return;
  const url = new URL('v1/info', base.endsWith('/') ? base : `${base}/`);
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
  } catch (e) {
    const why = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'connection failed';
    throw new TargetUnreachableError(`pre-flight: target ${url.origin} could not be reached (${why})`);
  }
}
