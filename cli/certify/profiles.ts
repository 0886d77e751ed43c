/**
 * Named, versioned selections of requirements a CI can gate on. A profile's version changes
 * whenever its requirement list does, so a pipeline pinned to `thread-state@1` notices.
 */
import { REQUIREMENTS, type RequirementId } from '../../contract/requirements.js';

export interface Profile {
  readonly name: string;
  readonly version: number;
  readonly description: string;
  readonly requirements: readonly RequirementId[];
}

export const PROFILES: readonly Profile[] = [
  {
    name: 'thread-state',
    version: 1,
    description: 'thread state that survives disposable pods (R01–R04)',
    requirements: ['R01', 'R02', 'R03', 'R04'],
  },
  {
    name: 'memory',
    version: 1,
    description: 'long-term memory: isolation, conflicts, injection, retention (R05–R07)',
    requirements: ['R05', 'R06', 'R07'],
  },
  {
    name: 'tracing',
    version: 1,
    description: 'one causal trace, context hygiene, leak canaries and outages (R08–R10)',
    requirements: ['R08', 'R09', 'R10'],
  },
  {
    name: 'full',
    version: 1,
    description: 'every requirement of the contract (R01–R10)',
    requirements: REQUIREMENTS.map((r) => r.id),
  },
];

export function profileNamed(name: string): Profile | undefined {
  // `thread-state@1` pins the version; a pin to any other version is unknown.
  const [base, pin] = name.split('@');
  const p = PROFILES.find((x) => x.name === base);
  if (!p || (pin !== undefined && String(p.version) !== pin)) return undefined;
  return p;
}
