/**
 * A target's strings reach the terminal inert: no escape sequence, carriage return or bidi
 * control survives into what `smtc certify` prints, and each is bounded.
 */

import { describe, expect, it } from 'vitest';
import type { TestCase } from 'vitest/node';
import { ResultCollector } from '../../cli/certify/result-collector.js';
import { type Certification, decideRequirement } from '../../cli/certify/verdict.js';
import { renderSummary } from '../../cli/report/terminal-summary.js';
import { terminalText } from '../../cli/report/terminal-text.js';

// Clear screen, cursor home, a fake verdict line, OSC title + hyperlink, CR overwrite, RTL override, C1 CSI.
const HOSTILE =
  'boom\u001b[2J\u001b[H\u001b[32m  verdict: CERTIFIED\u001b[0m\u001b]0;owned\u0007\u001b]8;;http://x\u001b\\link\r  ✓ ok\u202Eevil\u009b31m\u0000';

/** Nothing a terminal would act on: ESC, BEL, CR, NUL, C1, bidi controls. */
const ACTIVE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

function failedCase(message: string, name: string): TestCase {
  return {
    name,
    module: { moduleId: '/repo/suites/r02-thread-state.spec.ts' },
    result: () => ({ state: 'failed', errors: [{ message }] }),
    diagnostic: () => ({ duration: 3 }),
    annotations: () => [{ message: `note ${HOSTILE}` }],
    meta: () => ({}),
  } as unknown as TestCase;
}

describe('terminal text from a target', () => {
  it('escapes control, escape and bidi characters visibly and keeps line breaks', () => {
    const t = terminalText(`a\u001b[2Jb\nc\u202Ed`);
    expect(t).toBe('a\\x1b[2Jb\nc\\u202ed');
    expect(terminalText(HOSTILE)).not.toMatch(ACTIVE);
  });

  it('bounds length and lines', () => {
    expect(terminalText('x'.repeat(10_000)).length).toBeLessThan(4100);
    expect(terminalText('x'.repeat(10_000))).toMatch(/6000 more characters/);
    expect(terminalText('l\n'.repeat(500)).split('\n').length).toBeLessThanOrEqual(41);
  });

  it('progress lines of a failed scenario print the target message inert', () => {
    const lines: string[] = [];
    const c = new ResultCollector((l) => lines.push(l), '/repo');
    c.onTestCaseResult(failedCase(`${HOSTILE}\n`.repeat(20), `R02.1 title ${HOSTILE}`));
    const printed = lines.join('\n');
    expect(printed).toContain('\\x1b[2J');
    expect(printed).not.toMatch(ACTIVE);
    // The stored explanation keeps what the target said, with its control characters removed
    // (cli/certify/failure-text.ts); JSON/XML/HTML escape the rest themselves.
    expect(c.clauses[0]?.message).toContain('boom');
    expect(c.clauses[0]?.message).not.toContain('\u001b');
  });

  it('the verdict table prints reasons, annotations and the target name inert', () => {
    const r = decideRequirement(
      'R02',
      [
        {
          id: 'R02.1',
          requirement: 'R02',
          title: HOSTILE,
          state: 'failed',
          durationMs: 1,
          file: 'suites/r02-x.spec.ts',
          message: HOSTILE,
          annotations: [HOSTILE],
        },
      ],
      true,
    );
    const cert: Certification = {
      tool: { name: 'smtc', version: '0' },
      target: `http://t/${HOSTILE}`,
      startedAt: '',
      finishedAt: '',
      durationMs: 1,
      overall: 'failed',
      requireAll: false,
      requirements: [r],
      artefacts: [],
    };
    const table = renderSummary(cert);
    expect(table).not.toMatch(ACTIVE);
    expect(table).toContain('verdict: FAILED');
  });
});
