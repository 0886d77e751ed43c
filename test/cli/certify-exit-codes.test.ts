/**
 * The exit codes of `smtc certify`, one case each (README's table, cli/certify/exit-codes.ts),
 * run as users run it. Bad input exits 2 with one clear line on stderr and writes nothing
 * that could be mistaken for a verdict.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CertifyFlags, certifyInputs } from '../../cli/certify/certify-inputs.js';
import { EXIT } from '../../cli/certify/exit-codes.js';
import { kitVersion } from '../../cli/certify/kit-version.js';
import { encodeReplayToken } from '../../cli/certify/replay-token.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runCertify } from '../selftest/run-certify.js';

const IN_PROCESS = path.join(REPO_ROOT, 'reference-impl/module-target.ts');
const MUTANT = path.join(REPO_ROOT, 'fixtures/mutants/selects-newest-pending.ts');
const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-exit-'));
const file = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};
// A target that declares no capability at all: every scenario is "not run".
const NOTHING = file(
  'declares-nothing.mjs',
  `export default { name: 'declares-nothing', async create() { return { name: 'declares-nothing', capabilities: {} }; } };\n`,
);

describe('smtc certify exit codes', () => {
  it('0: --only R02 --strict when R02 is certified (--fail-fast never cuts a passing run short)', async () => {
    const run = await runCertify(['--target', IN_PROCESS, '--only', 'R02', '--strict', '--fail-fast']);
    expect(run.exitCode, run.output).toBe(EXIT.ok);
    expect(run.verdict?.overall).toBe('certified');
    expect(run.verdict?.stopped).toBeUndefined();
    expect(run.verdict?.selection).toEqual({ kind: 'only', requirements: ['R02'], clauses: [] });
  }, 600_000);

  it('1: a selected clause failed', async () => {
    const run = await runCertify(['--target', MUTANT, '--only', 'R02.5']);
    expect(run.exitCode, run.output).toBe(EXIT.failed);
    const r02 = run.verdict?.requirements.find((r) => r.id === 'R02');
    expect(r02?.clauses.map((c) => [c.id, c.state])).toEqual([['R02.5', 'failed']]);
    expect(r02?.clauses[0]?.replayToken).toMatch(/^[A-Za-z0-9_-]+$/);
  }, 600_000);

  it('1: --fail-fast stops at the first failed clause of the requirement; what did not finish is not run', async () => {
    const run = await runCertify(['--target', MUTANT, '--only', 'R02', '--fail-fast']);
    expect(run.exitCode, run.output).toBe(EXIT.failed);
    expect(run.verdict?.overall).toBe('failed');
    expect(run.verdict?.stopped).toMatch(/--fail-fast/);
    const states = run.verdict?.requirements.find((r) => r.id === 'R02')?.clauses.map((c) => c.state) ?? [];
    expect(states).toContain('failed');
    expect(states).toContain('not_run');
  }, 600_000);

  it('3: --strict with a selected requirement not run (R01 needs process faults the in-process target lacks)', async () => {
    const run = await runCertify(['--target', IN_PROCESS, '--only', 'R01,R02.1', '--strict']);
    expect(run.exitCode, run.output).toBe(EXIT.notCertified);
  }, 600_000);

  it('4: a target that declares nothing never exits 0, with or without --strict', async () => {
    for (const strict of [[], ['--strict']]) {
      const run = await runCertify(['--target', NOTHING, '--only', 'R02', ...strict]);
      expect(run.exitCode, run.output).toBe(EXIT.nothingExercised);
      expect(run.verdict?.targetInfo?.capabilities).toEqual({});
    }
  }, 600_000);
});

describe('smtc certify bad input: exit 2, one line, no verdict (as a process)', () => {
  const cases: [string, string[], RegExp][] = [
    ['--manifest with a path target', ['--target', IN_PROCESS, '--manifest', 'x.json'], /--manifest goes with/],
    ['an unknown option', ['--frobnicate'], /unknown option/],
    ['a malformed replay token', ['--replay', 'not a token!'], /--replay: malformed token/],
    [
      'a target file with a syntax error, located',
      ['--target', file('broken.ts', 'export default { name: "x", create( };\n')],
      /failed to load: .*broken\.ts:1:\d+: ERROR: /,
    ],
    [
      'a module exporting the wrong shape, located',
      ['--target', file('wrong-shape.mjs', 'export default { name: 42, create: "no" };\n')],
      /default export\.name: .*expected string/,
    ],
    ['a target that does not exist', ['--target', path.join(dir, 'missing.ts')], /not found/],
    [
      'an HTTP target that does not answer',
      ['--target', 'http://127.0.0.1:1', '--manifest', path.join(REPO_ROOT, 'contract/http/manifest.example.json')],
      /could not be reached/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it.concurrent(what, async () => {
      const out = path.join(dir, `out-${what.replace(/\W+/g, '-')}`);
      mkdirSync(out);
      // Generous bounds: these start the CLI concurrently on a shared, loaded machine.
      const run = await runCertify([...args], 240_000, out);
      expect(run.exitCode, run.output).toBe(EXIT.unusable);
      expect(run.output).toMatch(message);
      // One line, no stack (commander adds its "(add --help for usage)" hint).
      const lines = run.output
        .trim()
        .split('\n')
        .filter((l) => l !== '(add --help for usage)');
      expect(lines.length, run.output).toBe(1);
      expect(existsSync(path.join(out, 'verdict.json'))).toBe(false);
    }, 300_000);
  }
});

describe('smtc certify options: one clear line per bad value (parsed once)', () => {
  const token = (kit: string) => encodeReplayToken({ clause: 'R02.3', seed: 1, path: '0' }, kit);
  const cases: [string, CertifyFlags, RegExp][] = [
    ['an unknown requirement', { only: 'R99' }, /unknown requirement or clause "R99"/],
    ['an unknown profile', { profile: 'nope' }, /unknown profile "nope" \(known: thread-state@1/],
    ['a pinned profile version that does not exist', { profile: 'memory@9' }, /unknown profile "memory@9"/],
    ['--profile with --only', { profile: 'memory', only: 'R02' }, /exclusive/],
    ['--replay with --only', { replay: token(kitVersion()), only: 'R02' }, /exclusive/],
    ['--replay with --seed', { replay: token(kitVersion()), seed: '3' }, /exclusive/],
    ['a replay token that is not JSON', { replay: 'abcd' }, /--replay: malformed token/],
    [
      'a replay token with a bad path',
      {
        replay: Buffer.from(JSON.stringify({ v: 1, kit: kitVersion(), clause: 'R02.3', seed: 1, path: 'x' })).toString(
          'base64url',
        ),
      },
      /--replay: malformed token \(path: /,
    ],
    ['a replay token from another kit version', { replay: token('9.9.9') }, /from smtc 9\.9\.9, this is smtc/],
    ['a run budget out of range', { runsScale: '0' }, /--runs-scale: /],
    ['a seed that is not an integer', { seed: '1.5' }, /--seed: /],
  ];
  for (const [what, flags, message] of cases) {
    it(what, () => {
      expect(() => certifyInputs(flags, {})).toThrow(message);
    });
  }
  it('a bad environment value is named too', () => {
    expect(() => certifyInputs({}, { SMTC_RUNS_SCALE: 'lots' })).toThrow(/environment: runsScale: /);
    expect(() => certifyInputs({}, { SMTC_PATH: '0:1' })).toThrow(/--replay TOKEN/);
  });
  it('service discovery variables are settings: validated, named, handed to the suites', () => {
    for (const [name, value, want] of [
      ['TOXIPROXY_URL', 'localhost:8474', /^environment: TOXIPROXY_URL: a http\(s\) URL$/],
      ['SMTC_MONGODB_URL', 'http://127.0.0.1:27017', /^environment: SMTC_MONGODB_URL: a mongodb:\/\/ URL$/],
      ['FERRETDB_POSTGRESQL_URL', 'mysql://x', /^environment: FERRETDB_POSTGRESQL_URL: a postgres:\/\/ URL$/],
      ['FERRETDB_HANDLER', 'sqlite3', /^environment: FERRETDB_HANDLER: /],
    ] as const) {
      expect(() => certifyInputs({}, { [name]: value })).toThrow(want);
    }
    const { settings } = certifyInputs(
      {},
      { TOXIPROXY_URL: ' http://127.0.0.1:8474 ', FERRETDB_BIN: '/opt/ferretdb', GO_BIN: '', SMTC_CACHE_DIR: '/c' },
    );
    // Blank is unset; everything reaches the suites in the one settings object (vitest provide).
    expect(settings.services).toEqual({
      toxiproxyUrl: 'http://127.0.0.1:8474',
      ferretdbBin: '/opt/ferretdb',
      cacheDir: '/c',
    });
  });
  it('profiles, clause selections and replays select what they say', () => {
    expect(certifyInputs({ profile: 'thread-state' }, {}).selection).toEqual({
      kind: 'profile',
      profile: 'thread-state@1',
      requirements: ['R01', 'R02', 'R03', 'R04'],
      clauses: [],
    });
    expect(certifyInputs({}, {}).selection.profile).toBe('full@1');
    expect(certifyInputs({ only: 'r3.3,R2,R02.4' }, {}).selection).toEqual({
      kind: 'only',
      requirements: ['R02', 'R03'],
      clauses: ['R03.3'],
    });
    const r = certifyInputs({ replay: token(kitVersion()) }, {});
    expect(r.selection).toEqual({ kind: 'replay', requirements: ['R02'], clauses: ['R02.3'] });
    expect(r.settings.replay).toEqual({ clause: 'R02.3', seed: 1, path: '0' });
    expect(r.settings.seed).toBeUndefined();
  });
});
