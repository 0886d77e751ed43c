/**
 * The auditor's report, opened in a real Chromium: it renders offline (no request leaves the
 * page), shows the overall verdict and one section per requirement, and foreign text stays
 * text (an injected tag in a failure message never becomes an element).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ClauseResult, decideRequirement, overallOf } from '../../cli/certify/verdict.js';
import { renderHtmlReport } from '../../cli/report/html-report.js';
import { REQUIREMENTS } from '../../contract/requirements.js';
import { notRun } from '../../fixtures/scenario/need.js';
import { CHROMIUM_FIX, findChromium } from '../../fixtures/services/chromium.js';

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
    const exe = findChromium();
    if (!exe) notRun(ctx, `no Chromium found: ${CHROMIUM_FIX}`);
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

  it('wraps long text and keeps every badge on screen at 1280 px and at 390 px', async (ctx) => {
    const exe = findChromium();
    if (!exe) notRun(ctx, `no Chromium found: ${CHROMIUM_FIX}`);
    const long = `Counterexample: [${'Write(s0,k0,p0),'.repeat(200)}] ${'x'.repeat(3000)}`;
    const clauses = [
      clause('R02.1', 'passed'),
      clause('R02.2', 'failed', long),
      { ...clause('R02.3', 'failed', 'assertion failed'), seed: 1, path: '0:1', replayToken: 'eyJ'.padEnd(400, 'A') },
      clause('R02.4', 'not_run', 'no toxiproxy'),
    ];
    const requirements = REQUIREMENTS.map((r) => decideRequirement(r.id, clauses, true));
    const html = renderHtmlReport({
      tool: { name: 'smtc', version: '0.0.0' },
      target: `/a/very/long/path/${'segment/'.repeat(40)}target.ts`,
      startedAt: 'a',
      finishedAt: 'b',
      durationMs: 10,
      overall: overallOf(requirements),
      requireAll: false,
      replay: { clause: 'R02.3', seed: 1, path: '0:1' },
      requirements,
      artefacts: [],
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-html-'));
    const file = path.join(dir, 'report.html');
    writeFileSync(file, html);
    const browser = await chromium.launch({ executablePath: exe!, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      for (const width of [1280, 390]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        await page.goto(pathToFileURL(file).href);
        // Nothing pushes the page sideways: long text wraps.
        const overflow = await page.evaluate(() => {
          const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document;
          return d.documentElement.scrollWidth - (globalThis as unknown as { innerWidth: number }).innerWidth;
        });
        expect({ width, overflow }).toEqual({ width, overflow: 0 });
        // Every badge (verdicts, passed/failed/not-run counts, results, replay) is inside the window.
        const badges = page.locator('.verdict, [data-count]');
        const n = await badges.count();
        expect(n).toBeGreaterThan(40);
        for (let i = 0; i < n; i++) {
          const box = await badges.nth(i).boundingBox();
          expect(
            box && box.x >= 0 && box.x + box.width <= width + 0.5,
            `badge ${i} at ${width}px: ${JSON.stringify(box)}`,
          ).toBe(true);
        }
        const r02 = page.locator('tr[data-requirement="R02"] [data-count]');
        expect(await r02.allTextContents()).toEqual(['1 passed', '2 failed', '1 not run']);
        expect(await page.locator('#replay').textContent()).toBe('replay');
        await page.screenshot({ path: path.join(dir, `report-${width}.png`), fullPage: true });
        await page.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
