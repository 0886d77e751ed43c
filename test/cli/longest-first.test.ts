/**
 * The suites' sequencer (suites/longest-first.ts): every suite file has a measured weight (a new
 * file would otherwise always start first) and files start longest first, the same every run.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import LongestFirst, { expectedSeconds } from '../../suites/longest-first.js';

const files = readdirSync(path.join(REPO_ROOT, 'suites')).filter((f) => /^r\d{2}-.*\.spec\.ts$/.test(f));

describe('suites run longest first', () => {
  it('every suite file has a measured weight', () => {
    expect(files.filter((f) => !Number.isFinite(expectedSeconds(f)))).toEqual([]);
  });

  it('orders by weight, heaviest first, ties by name, whatever the given order', async () => {
    const specs = files.map((f) => ({ moduleId: path.join(REPO_ROOT, 'suites', f) }) as TestSpecification);
    const sequencer = new LongestFirst({} as Vitest);
    const once = (await sequencer.sort([...specs].reverse())).map((s) => path.basename(s.moduleId));
    expect((await sequencer.sort(specs)).map((s) => path.basename(s.moduleId))).toEqual(once);
    const weights = once.map(expectedSeconds);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(expectedSeconds('r99-new.spec.ts')).toBe(Number.POSITIVE_INFINITY);
  });
});
