/**
 * What one run certifies: a profile, an ad-hoc `--only` list of requirements and clauses
 * (`R02,R03.3`), or the one clause of a replay. Turned into the suite files to run and a
 * vitest test-name pattern, so a clause selection runs that clause and nothing else.
 */
import { isRequirementId, REQUIREMENTS, type RequirementId } from '../../contract/requirements.js';
import { PROFILES, profileNamed } from './profiles.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Selection {
  /** `profile` (name@version), `only` or `replay`. */
  readonly kind: 'profile' | 'only' | 'replay';
  readonly profile?: string;
  readonly requirements: readonly RequirementId[];
  /** Clause ids selected on their own (`R03.3`); their requirements run only those clauses. */
  readonly clauses: readonly string[];
}

/** `R2` → `R02`, `r03.3` → `R03.3`; anything else is a usage error naming the item. */
export function parseOnlyList(value: string): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean)
    .map((s) => s.replace(/^R(\d)(?=\.|$)/, 'R0$1'));
  if (items.length === 0) throw new UsageError('--only: expected requirement or clause ids, e.g. R02,R03.3');
  for (const id of items) {
    const m = /^(R\d{2})(\.\d+)?$/.exec(id);
    if (!m || !isRequirementId(m[1] ?? '')) {
      throw new UsageError(`--only: unknown requirement or clause "${id}" (expected R01..R10 or a clause like R03.3)`);
    }
  }
  return items;
}

export function selectionOf(o: { profile?: string; only?: readonly string[] }): Selection {
  if (o.profile !== undefined && o.only !== undefined) {
    throw new UsageError('--profile and --only are exclusive: a profile is a fixed selection');
  }
  if (o.profile !== undefined) {
    const p = profileNamed(o.profile);
    if (!p) {
      const known = PROFILES.map((x) => `${x.name}@${x.version}`).join(', ');
      throw new UsageError(`unknown profile "${o.profile}" (known: ${known})`);
    }
    return { kind: 'profile', profile: `${p.name}@${p.version}`, requirements: p.requirements, clauses: [] };
  }
  if (o.only !== undefined) {
    const whole = new Set(o.only.filter((x) => !x.includes('.')));
    // A clause of a requirement selected whole is already in.
    const clauses = [...new Set(o.only.filter((x) => x.includes('.') && !whole.has(x.slice(0, 3))))];
    const reqs = new Set([...whole, ...clauses.map((c) => c.slice(0, 3))]);
    return {
      kind: 'only',
      requirements: REQUIREMENTS.map((r) => r.id).filter((id) => reqs.has(id)),
      clauses,
    };
  }
  const full = profileNamed('full');
  return { kind: 'profile', profile: `full@${full?.version}`, requirements: full?.requirements ?? [], clauses: [] };
}

export function replaySelection(clause: string): Selection {
  return { kind: 'replay', requirements: [clause.slice(0, 3) as RequirementId], clauses: [clause] };
}

/** Is this clause (or file-level `R02`) in the selection? */
export function isSelected(s: Selection, id: string): boolean {
  const req = id.slice(0, 3);
  if (!s.requirements.includes(req as RequirementId)) return false;
  const partial = s.clauses.filter((c) => c.startsWith(`${req}.`));
  if (partial.length === 0) return true;
  // A requirement selected by its clauses only: those clauses, and its file-level errors.
  return id === req || partial.includes(id);
}

/** The vitest test-name pattern, or undefined when whole requirements only are selected. */
export function testNamePattern(s: Selection): RegExp | undefined {
  if (s.clauses.length === 0) return undefined;
  const partialReqs = new Set(s.clauses.map((c) => c.slice(0, 3)));
  const alts = [
    ...s.clauses.map((c) => `${c.replace('.', '\\.')}(?!\\d)`),
    ...s.requirements.filter((r) => !partialReqs.has(r)).map((r) => `${r}\\.\\d`),
  ];
  return new RegExp(`\\b(?:${alts.join('|')})`);
}
