/**
 * A vitest reporter that records where each suite file's wall time goes: setup (from the file
 * being queued — fork start, imports, collection, beforeAll — to its first scenario), the
 * scenarios themselves (sum of test durations), and teardown (last scenario to the file's end:
 * afterAll, target destruction). `smtc certify` writes them to timings.json beside the verdict;
 * bench/certify-wall.bench.ts reads it.
 */
import path from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';

export interface FileTiming {
  /** Relative to the kit's root. */
  readonly file: string;
  /** ms since the run's start that the file was queued, and that it ended. */
  readonly queuedAtMs: number;
  readonly endedAtMs: number;
  readonly setupMs: number;
  readonly scenariosMs: number;
  readonly teardownMs: number;
  readonly scenarios: number;
}

interface Open {
  queuedAt: number;
  firstReadyAt?: number;
  lastResultAt?: number;
  scenariosMs: number;
  scenarios: number;
}

export class FileTimings implements Reporter {
  readonly files: FileTiming[] = [];
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly root: string,
    private readonly startedAt = Date.now(),
  ) {}

  onTestModuleQueued(mod: TestModule): void {
    this.open.set(mod.moduleId, { queuedAt: Date.now(), scenariosMs: 0, scenarios: 0 });
  }

  onTestCaseReady(tc: TestCase): void {
    const o = this.open.get(tc.module.moduleId);
    if (o) o.firstReadyAt ??= Date.now();
  }

  onTestCaseResult(tc: TestCase): void {
    const o = this.open.get(tc.module.moduleId);
    if (!o) return;
    o.lastResultAt = Date.now();
    // Filtered-out scenarios are reported as skipped with no duration: they add nothing.
    const d = tc.diagnostic();
    if (!d) return;
    o.scenariosMs += d.duration;
    o.scenarios++;
  }

  onTestModuleEnd(mod: TestModule): void {
    const o = this.open.get(mod.moduleId);
    if (!o) return;
    this.open.delete(mod.moduleId);
    const end = Date.now();
    const first = o.firstReadyAt ?? end;
    const last = o.lastResultAt ?? first;
    this.files.push({
      file: path.relative(this.root, mod.moduleId),
      queuedAtMs: o.queuedAt - this.startedAt,
      endedAtMs: end - this.startedAt,
      setupMs: first - o.queuedAt,
      scenariosMs: Math.round(o.scenariosMs),
      teardownMs: end - last,
      scenarios: o.scenarios,
    });
  }
}
