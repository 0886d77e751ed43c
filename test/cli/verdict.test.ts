import { describe, expect, it } from 'vitest';
import { kitVersion } from '../../cli/certify/kit-version.js';
import { decodeReplayToken } from '../../cli/certify/replay-token.js';
import { type ClauseResult, decideRequirement, overallOf, replayOf } from '../../cli/certify/verdict.js';
import { renderHtmlReport } from '../../cli/report/html-report.js';
import { renderJunit } from '../../cli/report/junit-xml.js';

const clause = (over: Partial<ClauseResult>): ClauseResult => ({
  id: 'R02.1',
  requirement: 'R02',
  title: 't',
  state: 'passed',
  durationMs: 1,
  file: 'suites/r02-x.spec.ts',
  annotations: [],
  ...over,
});

describe('verdict rules', () => {
  it('a requirement with no clauses is not run, never certified', () => {
    const v = decideRequirement('R02', [], true);
    expect(v.verdict).toBe('not_run');
    expect(v.reasons[0]).toMatch(/no suite/);
  });
  it('one failure fails the requirement even if others passed or did not run', () => {
    const v = decideRequirement(
      'R02',
      [
        clause({}),
        clause({ id: 'R02.2', state: 'not_run' }),
        clause({ id: 'R02.3', state: 'failed', seed: 7, path: '0:1' }),
      ],
      true,
    );
    expect(v.verdict).toBe('failed');
    expect(v.reasons.join()).toContain('seed 7');
  });
  it('anything not run makes the requirement not run, and the whole run not certified', () => {
    const reqs = [
      decideRequirement('R02', [clause({}), clause({ id: 'R02.2', state: 'not_run', message: 'no toxiproxy' })], true),
    ];
    expect(reqs[0]?.verdict).toBe('not_run');
    expect(overallOf(reqs)).toBe('not_certified');
  });
  it('certified only when every clause passed', () => {
    expect(decideRequirement('R02', [clause({}), clause({ id: 'R02.2' })], true).verdict).toBe('certified');
    expect(overallOf([decideRequirement('R02', [clause({})], true)])).toBe('certified');
  });
  it('clauses of other requirements do not count', () => {
    expect(decideRequirement('R03', [clause({})], true).verdict).toBe('not_run');
  });
  it('extracts fast-check replay data', () => {
    const msg = 'Property failed after 3 tests\n{ seed: -1819918769, path: "2:0:1", endOnFailure: true }';
    expect(replayOf(msg)).toEqual({ seed: -1819918769, path: '2:0:1' });
    const token = replayOf(`${msg}\nCounterexample: [Write(s0) /*replayPath="AAB:q"*/]`, 'R02.2').replayToken ?? '';
    expect(decodeReplayToken(token, kitVersion())).toEqual({
      clause: 'R02.2',
      seed: -1819918769,
      path: '2:0:1',
      commands: 'AAB:q',
    });
    expect(replayOf('plain failure')).toEqual({});
  });
});

describe('reports', () => {
  const cert = {
    tool: { name: 'smtc' as const, version: '0' },
    target: 't<"&>',
    startedAt: 'a',
    finishedAt: 'b',
    durationMs: 1,
    overall: 'failed' as const,
    requireAll: false,
    requirements: [
      decideRequirement('R02', [clause({ state: 'failed', message: 'boom <script>\u0001', seed: 1, path: '0' })], true),
    ],
    artefacts: [],
  };
  it('JUnit escapes foreign text and control characters and carries replay data', () => {
    const xml = renderJunit(cert);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('\u0001');
    expect(xml).toContain('seed 1, path &quot;0&quot;');
    expect(xml).toMatch(/failures="1"/);
  });
  it('HTML escapes everything it did not write itself', () => {
    const html = renderHtmlReport(cert);
    expect(html).not.toContain('<script>');
    expect(html).toContain('t&lt;&quot;&amp;&gt;');
    expect(html).toContain('data-verdict="failed"');
  });
});

describe('terminal summary', () => {
  it('groups clauses that share one reason into one line, keeping distinct reasons apart', async () => {
    const { groupReasons } = await import('../../cli/report/terminal-summary.js');
    expect(groupReasons(['R08.1: no collector', 'R08.2: no collector', 'R08.3: other', 'plain'])).toEqual([
      'R08.1, R08.2: no collector',
      'R08.3: other',
      'plain',
    ]);
  });
});
