/**
 * The watchdog names what overran: the suite file, and the scenario it was in — or that it
 * had not reached its first scenario (still loading or in a setup hook).
 */
import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { ResultCollector } from '../../cli/certify/result-collector.js';
import { type Overrun, startWatchdog } from '../../cli/certify/watchdog.js';

function firstOverrun(
  running: Map<string, { startedAt: number; current?: string }>,
  bounds: { fileMs: number; runMs: number },
): Promise<Overrun> {
  return new Promise((resolve) => startWatchdog({ running }, '/repo', bounds, resolve));
}

describe('watchdog', () => {
  it('names the file and the scenario it is in', async () => {
    const running = new Map([['/repo/suites/r02-x.spec.ts', { startedAt: Date.now(), current: 'R02.4 a thing' }]]);
    const o = await firstOverrun(running, { fileMs: 100, runMs: 60_000 });
    expect(o).toMatchObject({ kind: 'file', file: '/repo/suites/r02-x.spec.ts' });
    expect(o.message).toBe(
      'suite file suites/r02-x.spec.ts in scenario "R02.4 a thing" overran its 0 s bound (SMTC_SUITE_FILE_MS); the run was stopped',
    );
  });

  it('says when a file overran before its first scenario', async () => {
    const running = new Map([['/repo/suites/r03-y.spec.ts', { startedAt: Date.now() }]]);
    const o = await firstOverrun(running, { fileMs: 100, runMs: 60_000 });
    expect(o.message).toMatch(
      /^suite file suites\/r03-y\.spec\.ts before its first scenario \(loading or setting up\) overran/,
    );
  });

  it('names the oldest running file when the whole run overruns', async () => {
    const now = Date.now();
    const running = new Map([
      ['/repo/suites/r04-new.spec.ts', { startedAt: now, current: 'R04.1 new' }],
      ['/repo/suites/r05-old.spec.ts', { startedAt: now - 5, current: 'R05.2 old' }],
    ]);
    const o = await firstOverrun(running, { fileMs: 60_000, runMs: 100 });
    expect(o.kind).toBe('run');
    expect(o.file).toBe('/repo/suites/r05-old.spec.ts');
    expect(o.message).toMatch(/while suites\/r05-old\.spec\.ts in scenario "R05\.2 old" ran/);
  });
});

describe('watchdog fed by the result collector', () => {
  it('names the scenario vitest reported ready, and forgets the file once it ends', async () => {
    const collector = new ResultCollector(() => {}, '/repo');
    const mod = { moduleId: '/repo/suites/r02-z.spec.ts', errors: () => [] };
    collector.onTestModuleStart(mod as unknown as TestModule);
    collector.onTestCaseReady({ module: mod, name: 'R02.1 first' } as unknown as TestCase);
    const o = await firstOverrun(collector.running, { fileMs: 100, runMs: 60_000 });
    expect(o.message).toMatch(/^suite file suites\/r02-z\.spec\.ts in scenario "R02\.1 first" overran/);
    collector.onTestModuleEnd(mod as unknown as TestModule);
    expect(collector.running.size).toBe(0);
  });
});
