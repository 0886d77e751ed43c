/** Every clause names a sentence that is really in the shipped contract, and every interpretation is explained there. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clauseContract, mappedClauses } from '../../contract/clauses.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

const text = readFileSync(path.join(REPO_ROOT, 'contract/CONTRACT.md'), 'utf8');
const flat = text.replace(/\s+/g, ' ');
const clarifications = text.slice(text.indexOf('## CLARIFICATIONS'));
const anchors = new Set(
  [...text.matchAll(/^#+ (.*)$/gm)].map((m) =>
    (m[1] ?? '')
      .toLowerCase()
      .replace(/[^\w\s-]/g, '')
      .replace(/\s+/g, '-'),
  ),
);
// Clause ids the suites declare (literal ones; generated families are covered by their pattern).
const declared = readdirSync(path.join(REPO_ROOT, 'suites'))
  .filter((f) => f.endsWith('.spec.ts'))
  .flatMap((f) => [...readFileSync(path.join(REPO_ROOT, 'suites', f), 'utf8').matchAll(/['`](R\d{2}\.\d+) /g)])
  .map((m) => m[1] ?? '');

describe('clauses trace to the contract', () => {
  it('every mapped sentence is verbatim in CONTRACT.md under an existing heading', () => {
    for (const id of new Set([...mappedClauses(), ...declared])) {
      const c = clauseContract(id);
      expect({ id, found: flat.includes(c.sentence) }).toEqual({ id, found: true });
      expect({ id, anchor: anchors.has(c.anchor) }).toEqual({ id, anchor: true });
    }
  });
  it('every clause a suite declares is mapped explicitly', () => {
    const missing = declared.filter((id) => !mappedClauses().includes(id));
    expect(missing).toEqual([]);
  });
  it('every interpretation is explained under CLARIFICATIONS', () => {
    for (const id of mappedClauses()) {
      if (!clauseContract(id).interpretation) continue;
      const [req, n] = id.split('.');
      const named = new RegExp(`${id.replace('.', '\\.')}\\b|${req}\\.\\d+–${req}\\.\\d+`).test(clarifications);
      expect({ id, named, n }).toEqual({ id, named: true, n });
    }
  });
});
