import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CanaryKit } from '../../canaries/canary-kit.js';
import { buildCanaryReport, describeHits, writeCanaryReport } from '../../canaries/canary-report.js';
import { scanSinks } from '../../canaries/canary-scanner.js';
import { FORBIDDEN_CATEGORIES } from '../../canaries/forbidden-categories.js';
import { renderCanaryReportHtml } from '../../canaries/render-canary-html.js';

function plantedKit() {
  const kit = new CanaryKit();
  const all = kit.mintAll();
  for (const c of Object.values(all)) kit.plant(c, `request.body:${c.category}`);
  return { kit, all };
}

describe('canary report', () => {
  it('is clean when every category was planted, bytes were scanned and nothing was found', () => {
    const { kit } = plantedKit();
    const scan = scanSinks(kit.canaries(), [
      { name: 'collector.requests', description: 'd', items: [{ bytes: Buffer.from('{}'), spans: 4 }] },
    ]);
    const r = buildCanaryReport(kit, scan, { target: 't' }, new Date('2025-01-02T03:04:05Z'));
    expect(r).toMatchObject({
      schema: 'smtc.canary-report/v1',
      generatedAt: '2025-01-02T03:04:05.000Z',
      verdict: 'clean',
      context: { target: 't' },
      summary: {
        canaries: 19,
        categories: 19,
        categoriesPlanted: 19,
        categoriesNotPlanted: [],
        requestsScanned: 1,
        bytesScanned: 2,
        spansScanned: 4,
        hits: 0,
      },
    });
    expect(r.canaries.every((c) => c.plantedAt.length === 1 && c.hits === 0)).toBe(true);
  });

  it('is leaked with any hit and incomplete when a category was not planted or nothing was scanned', () => {
    const { kit, all } = plantedKit();
    const leaked = scanSinks(kit.canaries(), [
      { name: 's', description: 'd', items: [{ bytes: Buffer.from(all.cookie.value) }] },
    ]);
    const r = buildCanaryReport(kit, leaked);
    expect(r.verdict).toBe('leaked');
    expect(r.canaries.find((c) => c.category === 'cookie')!.hits).toBe(1);
    expect(describeHits(r.hits)).toMatch(/cnry-03-cookie \(cookie\) raw\/value in s\[0\] @0/);

    const empty = scanSinks(kit.canaries(), [{ name: 's', description: 'd', items: [] }]);
    expect(buildCanaryReport(kit, empty).verdict).toBe('incomplete');
    const partial = new CanaryKit();
    partial.plant(partial.mint('email'), 'x');
    const some = scanSinks(partial.canaries(), [{ name: 's', description: 'd', items: [{ bytes: Buffer.from('x') }] }]);
    const pr = buildCanaryReport(partial, some);
    expect(pr.verdict).toBe('incomplete');
    expect(pr.summary.categoriesNotPlanted).toHaveLength(FORBIDDEN_CATEGORIES.length - 1);
  });

  it('writes canary-report.json that parses back to the same report', () => {
    const { kit } = plantedKit();
    const r = buildCanaryReport(kit, scanSinks(kit.canaries(), []));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-canary-'));
    try {
      const file = writeCanaryReport(r, path.join(dir, 'nested'));
      expect(path.basename(file)).toBe('canary-report.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(r)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('renders a self-contained HTML section with every value escaped', () => {
    const { kit, all } = plantedKit();
    kit.plant(all.prompt, '<img src=x onerror=alert(1)>');
    const scan = scanSinks(kit.canaries(), [
      { name: 'sink<b>', description: '"quoted" & <i>', items: [{ bytes: Buffer.from(`\u0001${all.prompt.value}`) }] },
    ]);
    const html = renderCanaryReportHtml(buildCanaryReport(kit, scan, { note: '<script>alert(1)</script>' }));
    expect(html.startsWith('<section class="smtc-canaries"')).toBe(true);
    expect(html.trimEnd().endsWith('</section>')).toBe(true);
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;quoted&quot; &amp; &lt;i&gt;');
    expect(html).toContain('\\x01');
    expect(html).toContain('verdict-leaked');
    for (const c of FORBIDDEN_CATEGORIES) expect(html).toContain(all[c].id);
    expect(html).not.toMatch(/<link|src="http|href="http/);
  });
});
