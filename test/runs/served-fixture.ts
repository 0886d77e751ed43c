/**
 * A test file's lifecycle around a served reference: a recording provider/tool stub, a span
 * collector and a temp dir in beforeAll, the target started on them, everything closed and
 * removed in afterAll, the stubs' records reset before each test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type SpanCollector, startSpanCollector } from '../../fixtures/collector/span-collector.js';
import { startStubs } from '../../fixtures/stubs/use-stubs.js';

export type Stubs = Awaited<ReturnType<typeof startStubs>>;
export interface ServedEnv {
  readonly dir: string;
  readonly env: ReturnType<Stubs['urls']> & { readonly collectorUrl: string };
}

export interface Served<T> {
  readonly stubs: Stubs;
  readonly collector: SpanCollector;
  readonly target: T;
}

export function useServed<T>(
  prefix: string,
  start: (e: ServedEnv) => Promise<T>,
  stop: (target: T) => Promise<void>,
  startTimeoutMs = 120_000,
): Served<T> {
  let stubs: Stubs | undefined;
  let collector: SpanCollector | undefined;
  let target: T | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    stubs = await startStubs();
    collector = await startSpanCollector();
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    target = await start({ dir, env: { ...stubs.urls(), collectorUrl: collector.tracesUrl } });
  }, startTimeoutMs);
  afterAll(async () => {
    if (target !== undefined) await stop(target);
    await collector?.close();
    await stubs?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => stubs?.resetAll());
  const ready = <V>(v: V | undefined, what: string): V => {
    if (v === undefined) throw new Error(`${what} not started (beforeAll failed)`);
    return v;
  };
  return {
    get stubs() {
      return ready(stubs, 'stubs');
    },
    get collector() {
      return ready(collector, 'collector');
    },
    get target() {
      return ready(target, 'target');
    },
  };
}
