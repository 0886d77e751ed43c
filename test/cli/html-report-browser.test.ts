/**
 * The auditor's report, opened in a real Chromium: it renders offline (no request leaves the
 * page), shows the overall verdict and one section per requirement, and foreign text stays
 * text (an injected tag in a failure message never becomes an element).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ClauseResult, decideRequirement, overallOf } from '../../cli/certify/verdict.js';
import { renderHtmlReport } from '../../cli/report/html-report.js';
import { REQUIREMENTS } from '../../contract/requirements.js';
import { notRun } from '../../fixtures/scenario/need.js';

function chromiumPath(): string | null {
  for (const p of [process.env.SMTC_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (p && existsSync(p)) return p;
  }
  return null;
}

const clause = (id: string, state: ClauseResult['state'], message?: string): ClauseResult => ({
  id,
  requirement: id.slice(0, 3) as ClauseResult['requirement'],
  title: `scenario ${id}`,
  state,
  durationMs: 3,
  file: 'suites/x.spec.ts',
  annotations: [],
  ...(message ? { message } : {}),
});

describe('HTML report in a real browser', () => {
  it('renders offline with the verdict, every requirement, and inert foreign text', async (ctx) => {
    const exe = chromiumPath();
    if (!exe) notRun(ctx, 'no Chromium found (install Debian chromium or set SMTC_CHROMIUM)');
    const clauses = [
      clause('R02.1', 'passed'),
      clause('R03.1', 'failed', 'boom <img src=x onerror="window.__pwned=1"> seed: 42, path: "1:2"'),
      clause('R04.1', 'not_run', 'no toxiproxy'),
    ];
    const requirements = REQUIREMENTS.map((r) => decideRequirement(r.id, clauses, true));
    const html = renderHtmlReport({
      tool: { name: 'smtc', version: '0.0.0' },
      target: 'selftest',
      startedAt: 'a',
      finishedAt: 'b',
      durationMs: 10,
      overall: overallOf(requirements),
      requireAll: false,
      requirements,
      artefacts: [],
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-html-'));
    const file = path.join(dir, 'report.html');
    writeFileSync(file, html);

    const browser = await chromium.launch({
      executablePath: exe!,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
      const external: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) external.push(r.url());
      });
      await page.goto(pathToFileURL(file).href);
      expect(await page.locator('#overall').textContent()).toBe('failed');
      expect(await page.locator('section[data-verdict]').count()).toBe(10);
      expect(await page.locator('#R02').getAttribute('data-verdict')).toBe('certified');
      expect(await page.locator('#R03').getAttribute('data-verdict')).toBe('failed');
      expect(await page.locator('#R04').getAttribute('data-verdict')).toBe('not_run');
      expect(await page.locator('#R03 pre').first().textContent()).toContain('<img src=x');
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(external).toEqual([]);
      await page.screenshot({ path: path.join(dir, 'report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
