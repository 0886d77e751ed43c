/**
 * The memory keys the suites write under say nothing about what is judged: a content screen may
 * read the key with the note (the reference's does), so a key named "attack" or "secret" could
 * get an attack refused for its key — a pass the screen did not earn — and a key like
 * "reported-…" (a verb of sending) got a harmless note refused (R07.23, 2026-12-05). A source scan
 * of every `freshKey('…')` prefix under suites/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

const SUITES = path.join(REPO_ROOT, 'suites');
/** Words a screen reads as an attack, a secret or a way out. */
const LOADED =
  /attack|inject|secret|password|token|credential|exfil|leak|evil|redirect|report|send|forward|post|upload|admin|grant|bypass/i;

const prefixes = readdirSync(SUITES)
  .filter((f) => f.endsWith('.ts'))
  .flatMap((f) =>
    [...readFileSync(path.join(SUITES, f), 'utf8').matchAll(/freshKey\(\s*'([^']*)'\s*\)/g)].map((m) => ({
      file: f,
      prefix: m[1]!,
    })),
  );

describe('memory keys in the suites are neutral', () => {
  it('finds the suites’ key prefixes', () => {
    expect(prefixes.length).toBeGreaterThan(40);
  });
  it('no freshKey prefix carries a word a content screen reads', () => {
    expect(prefixes.filter((p) => LOADED.test(p.prefix)).map((p) => `${p.file}: ${p.prefix}`)).toEqual([]);
  });
});
