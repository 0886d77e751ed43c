/**
 * The linearizability checker as the suites use it: found or built, a linearizable history
 * passes, a lost update is reported illegal with porcupine's visualisation written, and a
 * machine without Go (and no override) gets "unavailable" with the reason.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkHistory } from '../../fixtures/history/check-history.js';
import type { History } from '../../fixtures/history/history.js';
import { findHistoryChecker } from '../../fixtures/history/history-checker.js';
import { settingsFromEnv } from '../../fixtures/settings/run-settings.js';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

const commit = (client: number, call: number, ret: number, rev: number, id: string) => ({
  client,
  call,
  return: ret,
  input: { key: 'b/1', op: 'commit', expected: 0, value: id, run: `run-${id}` },
  output: { status: 'ok' as const, version: rev, value: id },
});

describe('history-check (porcupine v1.3.1)', () => {
  it('passes a linearizable history and reports a lost update with its visualisation', async (ctx) => {
    const c = await findHistoryChecker();
    if (!c.available) return ctx.skip(`not run: ${c.reason}`);
    process.env.SMTC_REPORT_DIR = mkdtempSync(path.join(os.tmpdir(), 'smtc-hc-'));
    const ok: History = {
      model: 'head-register',
      operations: [
        commit(0, 0, 10, 1, 'a'),
        { ...commit(1, 1, 9, 0, 'b'), output: { status: 'refused', code: 'revision_conflict' } },
      ],
    };
    const good = await checkHistory(c.bin, 'ok-history', ok);
    expect(good.verdict).toBe('ok');
    expect(JSON.parse(readFileSync(good.file, 'utf8'))).toEqual(ok);

    const lost: History = { model: 'head-register', operations: [commit(0, 0, 10, 1, 'a'), commit(1, 1, 9, 1, 'b')] };
    const bad = await checkHistory(c.bin, 'lost-update', lost);
    expect(bad.verdict).toBe('illegal');
    expect(bad.visualization && existsSync(bad.visualization)).toBe(true);
  });

  it('without Go and without a built checker it is unavailable, with the reason', async () => {
    process.env.SMTC_CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), 'smtc-hc-cache-'));
    process.env.GO_BIN = path.join(os.tmpdir(), 'no-such-go');
    delete process.env.SMTC_HISTORY_CHECK_BIN;
    // The cache dir and Go come from the run settings, like every other service setting.
    const c = await findHistoryChecker(settingsFromEnv().services);
    expect(c).toMatchObject({ available: false });
    expect((c as { reason: string }).reason).toMatch(/Go is not installed/);
  });

  it('SMTC_HISTORY_CHECK_BIN overrides the build', async () => {
    process.env.SMTC_HISTORY_CHECK_BIN = path.join(os.tmpdir(), 'no-such-checker');
    // Settings are read once per process: pass the environment's as this test changed it.
    expect(await findHistoryChecker(settingsFromEnv().services)).toMatchObject({
      available: false,
      reason: expect.stringMatching(/does not exist/),
    });
  });
});
