/**
 * reference-impl/run-entry.mjs runs a TypeScript entry as a cached esbuild bundle: each module
 * keeps its own import.meta.url (the server finds its worker entry by it), the entry sees the
 * command line it would have had, the bundle is reused while its sources are unchanged and
 * rebuilt when one changes.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runEntryArgs } from '../../reference-impl/run-entry-command.js';

const RUN_ENTRY = path.join(REPO_ROOT, 'reference-impl/run-entry.mjs');
const CHILD = path.join(REPO_ROOT, 'test/spawn/run-entry-child.ts');
const CACHE = path.join(REPO_ROOT, 'node_modules/.cache/smtc-entries');

type Seen = { self: string; argv: string[]; typed: number; schema: string };
function run(...args: string[]): Seen {
  return JSON.parse(execFileSync(process.execPath, [RUN_ENTRY, CHILD, ...args], { encoding: 'utf8', timeout: 30_000 }));
}

/** What a served mutant's server and workers run: run-entry-command.ts's line, from source. */
function runFromSource(...args: string[]): Seen {
  const [script, ...rest] = runEntryArgs(CHILD, { partsModule: 'a-parts-module.ts' });
  return JSON.parse(
    execFileSync(process.execPath, [script ?? '', ...rest, ...args], { encoding: 'utf8', timeout: 30_000 }),
  );
}

function bundleOfChild(): string {
  const f = readdirSync(CACHE).find((n) => /^run-entry-child-[0-9a-f]{16}\.mjs$/.test(n));
  if (!f) throw new Error(`no bundle of the child in ${CACHE}`);
  return path.join(CACHE, f);
}

describe('run-entry: precompiled entry points', () => {
  it('runs the entry compiled, with its own import.meta.url and its own argv', () => {
    const seen = run('--flag', 'value');
    expect(seen).toEqual({ self: CHILD, argv: [CHILD, '--flag', 'value'], typed: 1, schema: 'function' });
    expect(statSync(bundleOfChild()).size).toBeGreaterThan(0);
  }, 30_000);

  it('reuses the bundle while its sources are unchanged and rebuilds it when one changes', () => {
    run();
    const built = statSync(bundleOfChild()).mtimeMs;
    run();
    expect(statSync(bundleOfChild()).mtimeMs).toBe(built);
    // A source's mtime moves (an edit): the next spawn must not run the old bundle.
    const later = new Date(Date.now() + 5_000);
    utimesSync(CHILD, later, later);
    run();
    expect(statSync(bundleOfChild()).mtimeMs).toBeGreaterThan(built);
  }, 60_000);

  it('with a parts module runs the entry from source (one copy of each module), never a stale or new bundle', () => {
    run();
    const built = statSync(bundleOfChild()).mtimeMs;
    const later = new Date(Date.now() + 10_000);
    utimesSync(CHILD, later, later);
    expect(runFromSource('--x')).toEqual({ self: CHILD, argv: [CHILD, '--x'], typed: 1, schema: 'function' });
    expect(statSync(bundleOfChild()).mtimeMs).toBe(built);
  }, 60_000);
});
