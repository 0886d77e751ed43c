/**
 * The reference's production code holds no test-only branch: mutants are assembled from its
 * parts (fixtures/mutants/reference-parts-mutant.ts), never switched on inside it. A source scan,
 * so it costs milliseconds: no file under reference-impl/ imports a mutant or names a mutation
 * hook, and only the two modules that hand the served reference to the kit's HTTP adapter
 * import anything from fixtures/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

const ROOT = path.join(REPO_ROOT, 'reference-impl');
/** The served reference as a kit target: they load the kit's HTTP target adapter, not mutants. */
const KIT_ADAPTERS = new Set(['http-module-target.ts', 'http-served-target.ts']);

const sources = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: f, text: readFileSync(path.join(ROOT, f), 'utf8') }));

/** Module specifiers of static and dynamic imports and re-exports. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

describe('reference-impl is production code', () => {
  it('has sources to scan', () => {
    expect(sources.length).toBeGreaterThan(50);
  });

  it('imports nothing from fixtures/ (but the kit adapters of the served reference), and no mutant at all', () => {
    const offending = sources.flatMap(({ file, text }) =>
      specifiers(text)
        .filter((s) => s.startsWith('.'))
        .map((s) => path.relative(REPO_ROOT, path.resolve(path.dirname(path.join(ROOT, file)), s)))
        .filter((to) => to.startsWith(`fixtures${path.sep}`))
        .filter((to) => !KIT_ADAPTERS.has(file) || to.startsWith(path.join('fixtures', 'mutants')))
        .map((to) => `${file} → ${to}`),
    );
    expect(offending).toEqual([]);
  });

  it('names no mutation hook', () => {
    const hooks = /mutation[-_ ]?hooks?|MUTATION_HOOKS|options\.mutation\b|\bmutant\b/i;
    expect(sources.filter(({ text }) => hooks.test(text)).map(({ file }) => file)).toEqual([]);
  });
});
