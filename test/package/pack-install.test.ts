/**
 * An outside implementer adopts smtc: the kit is packed (`npm pack`), installed from the
 * tarball into an empty project outside the checkout (npm's cache, no registry when it is
 * warm; install scripts off — a target that needs no native module needs none), and a
 * module target written there — plain JavaScript and TypeScript, importing the contract
 * types and helpers by the package's exports, declaring only `threadState` and leaving every
 * other member out — is certified with `npx smtc certify --only R02.1`. The README's module
 * target example type-checks there as written (with the adopter's own tsc), against a
 * declaration of the engine it wraps.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The adopter's own type-checker, the versions this checkout pins (so a warm cache has them). */
const ADOPTER_TOOLS = ['typescript@5.9.3', '@types/node@20.19.25'];

async function install(dir: string, tarball: string): Promise<string> {
  const args = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--save-dev', tarball, ...ADOPTER_TOOLS];
  try {
    return (await run(npm, ['--offline', ...args], { cwd: dir, timeout: 300_000 })).stderr;
  } catch (e) {
    // A cold npm cache (first run on a machine): fetch what is missing once.
    if (!/ENOTCACHED/.test(String((e as { stderr?: string }).stderr ?? e))) throw e;
    return (await run(npm, ['--prefer-offline', ...args], { cwd: dir, timeout: 900_000 })).stderr;
  }
}

function certify(dir: string, target: string) {
  return run(
    'npx',
    ['--no-install', 'smtc', 'certify', '--target', target, '--only', 'R02.1', '-q', '--out', 'report'],
    {
      cwd: dir,
      timeout: 300_000,
      env: { ...process.env, SMTC_TARGET: '' },
    },
  ).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code, out: `${e.stdout}${e.stderr}` }),
  );
}

/** The tarball's dir and the adopter's project: removed after, passed or failed (each holds an install). */
const made: string[] = [];
const tempDir = (prefix: string) => {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('adopting smtc from a packed tarball', () => {
  it('installs outside the checkout and certifies a JavaScript and a TypeScript module target there', async () => {
    const packDir = tempDir('smtc-pack-');
    const { stdout } = await run(npm, ['pack', '--silent', '--pack-destination', packDir], {
      cwd: REPO_ROOT,
      timeout: 120_000,
    });
    const tarball = path.join(packDir, stdout.trim().split('\n').at(-1) ?? '');
    const dir = tempDir('smtc-adopter-');
    writeFileSync(
      path.join(dir, 'package.json'),
      '{ "name": "adopter", "version": "1.0.0", "private": true, "type": "module" }\n',
    );
    await install(dir, tarball);
    const installed = path.join(dir, 'node_modules/smtc');
    expect(existsSync(path.join(installed, 'contract/CONTRACT.md'))).toBe(true);
    expect(existsSync(path.join(installed, 'test'))).toBe(false);

    const js = readFileSync(path.join(REPO_ROOT, 'test/package/naive-target.mjs.txt'), 'utf8');
    writeFileSync(path.join(dir, 'naive-target.mjs'), js);
    // The TypeScript one imports the contract's types by the package's exports.
    writeFileSync(
      path.join(dir, 'naive-target.ts'),
      `import type { TargetModule } from 'smtc/contract/target.js';\nimport { ERROR_REGISTRY } from 'smtc/errors';\nimport naive from './naive-target.mjs';\n\nif (!ERROR_REGISTRY) throw new Error('no error registry');\nconst target: TargetModule = { name: 'naive-ts', create: (env) => naive.create(env) };\nexport default target;\n`,
    );
    // The README's example, as written, against the installed kit's types.
    writeFileSync(path.join(dir, 'my-target.ts'), readmeExample());
    writeFileSync(path.join(dir, 'my-engine.d.ts'), MY_ENGINE_DECLARATION);
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(ADOPTER_TSCONFIG));
    const tsc = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], {
      cwd: dir,
      timeout: 180_000,
    }).then(
      () => '',
      (e: { stdout?: string }) => e.stdout ?? String(e),
    );
    expect(tsc).toBe('');

    for (const target of ['./naive-target.mjs', './naive-target.ts']) {
      const r = await certify(dir, target);
      expect({ target, code: r.code }, r.out).toEqual({ target, code: 0 });
      const verdict = JSON.parse(readFileSync(path.join(dir, 'report/verdict.json'), 'utf8'));
      expect(verdict.overall).toBe('certified');
      expect(verdict.targetInfo.capabilities).toEqual({ threadState: true });
      expect(verdict.requirements.find((x: { id: string }) => x.id === 'R02').clauses).toHaveLength(1);
    }
  }, 1_200_000);
});

/** The first TypeScript block of the README's module-target section. */
function readmeExample(): string {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Certify your own implementation (module target)'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('the README has no TypeScript example in its module-target section');
  return block;
}

/** The engine the example wraps is the adopter's: only its shape, in the contract's types. */
const MY_ENGINE_DECLARATION = `import type { Target } from 'smtc/contract/target.js';
export interface MyEngine {
  testPrincipals(): Target['principals'];
  readonly bindings: Target['bindings'];
  stateFacade: Target['threadState'];
  readonly stateLimits: NonNullable<Target['stateLimits']>;
  memoryBroker: Target['memory'];
  readonly memoryPolicy: NonNullable<Target['memoryPolicy']>;
  readonly approvals: Target['approvals'];
  readonly audit: Target['audit'];
  readonly toolAuthorization: Target['tools'];
  readonly runs: NonNullable<Target['runs']>;
  readonly telemetry: NonNullable<Target['telemetry']>;
  readonly testClock: NonNullable<Target['clock']>;
}
export function createMyEngine(options: { dataDir: string; otlpUrl: string | undefined }): Promise<MyEngine>;
`;

/** A strict project of the adopter's (nothing from this checkout's tsconfig). */
const ADOPTER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  },
  files: ['my-target.ts'],
};
