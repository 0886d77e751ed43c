/**
 * What `smtc certify` provisions for a selection is what the suites use: every suite file that
 * starts a Toxiproxy or runs the history checker belongs to a requirement listed for that
 * service, and every listed requirement has such a suite file — a new suite cannot silently
 * go without its service, and a stale entry cannot make certify build for nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_CHECK_REQUIREMENTS } from '../../fixtures/services/kit-services.js';
import { TOXIPROXY } from '../../fixtures/services/service-binaries.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

function requirementsImporting(module: RegExp): string[] {
  const dir = path.join(REPO_ROOT, 'suites');
  const found = new Set<string>();
  for (const f of readdirSync(dir)) {
    if (!/^r\d{2}-.*\.spec\.ts$/.test(f)) continue;
    if (module.test(readFileSync(path.join(dir, f), 'utf8'))) found.add(f.slice(0, 3).toUpperCase());
  }
  return [...found].sort();
}

describe('services per requirement', () => {
  it('Toxiproxy: exactly the requirements whose suites use it', () => {
    expect(requirementsImporting(/from '\.\.\/fixtures\/faults\/(use-toxiproxy|toxiproxy-server)\.js'/)).toEqual(
      [...TOXIPROXY.requirements].sort(),
    );
  });

  it('history-check: exactly the requirements whose suites check histories', () => {
    expect(requirementsImporting(/from '\.\.\/fixtures\/history\/check-history\.js'/)).toEqual(
      [...HISTORY_CHECK_REQUIREMENTS].sort(),
    );
  });
});
