/**
 * A target as its author writes it: members for capabilities it does not declare may be
 * left out. `checkTarget` (the kit runs it on every target it creates; `defineTarget` lets an
 * author run it first) names what is missing or of the wrong type, located — `target.memory:
 * expected a function (required by capability "memory")` — and stands in for the members an
 * undeclared capability would need with ones that refuse clearly if ever reached.
 */
import { z } from 'zod';
import { CAPABILITIES, type Capability, type Target } from './target.js';

/** What a module target's `create()` may return. */
export type TargetDefinition = Pick<Target, 'name' | 'capabilities'> & Partial<Omit<Target, 'name' | 'capabilities'>>;

type Kind = 'function' | 'object';
/** The members each capability needs (dotted names are methods of a member, e.g. `faults.killPart`). */
const NEEDS: Readonly<Record<Capability, readonly (readonly [string, Kind])[]>> = {
  threadState: [
    ['principals', 'object'],
    ['bindings', 'object'],
    ['threadState', 'function'],
  ],
  memory: [
    ['principals', 'object'],
    ['memory', 'function'],
    ['memoryPolicy', 'object'],
    ['approvals', 'object'],
    ['audit', 'object'],
    ['tools', 'object'],
  ],
  runs: [
    ['principals', 'object'],
    ['bindings', 'object'],
    ['runs', 'object'],
    ['tools', 'object'],
  ],
  telemetry: [['telemetry', 'object']],
  settableClock: [['clock', 'object']],
  sharedLearning: [],
  failpoints: [
    ['faults.setFailpoint', 'function'],
    ['faults.clearFailpoints', 'function'],
  ],
  processFaults: [
    ['faults.killPart', 'function'],
    ['faults.restartPart', 'function'],
    ['faults.poisonLocalCache', 'function'],
  ],
  networkFaults: [['faults.networkLinks', 'function']],
  remoteTraceLinks: [],
  storageInspection: [['storage.residue', 'function']],
  reconciliationFailpoints: [['faults.setFailpoint', 'function']],
};

const Base = z.object({
  name: z.string().min(1).max(200),
  capabilities: z.partialRecord(z.enum(CAPABILITIES), z.boolean()),
  harnesses: z.array(z.string().min(1).max(200)).max(100).optional(),
});

export class TargetShapeError extends Error {
  override name = 'TargetShapeError';
}

function at(obj: unknown, dotted: string): unknown {
  let v: unknown = obj;
  for (const k of dotted.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** Every problem, located; empty when the target is usable for what it declares. */
export function targetProblems(t: unknown): string[] {
  const base = Base.safeParse(t);
  if (!base.success) {
    return base.error.issues.map((i) => `target.${i.path.map(String).join('.')}: ${i.message}`);
  }
  const problems: string[] = [];
  for (const cap of CAPABILITIES) {
    if (!base.data.capabilities[cap]) continue;
    for (const [member, kind] of NEEDS[cap]) {
      const v = at(t, member);
      const ok = kind === 'function' ? typeof v === 'function' : v !== null && typeof v === 'object';
      if (!ok)
        problems.push(
          `target.${member}: expected ${kind === 'function' ? 'a function' : 'an object'} (required by capability "${cap}")`,
        );
    }
  }
  return [...new Set(problems)];
}

/** A member the target left out because it does not declare what needs it. */
function absent(name: string, member: string): unknown {
  const refuse = () => {
    throw new TargetShapeError(`target "${name}" has no ${member}: it does not declare a capability that needs it`);
  };
  return new Proxy(refuse, {
    get: (_f, key) => (key === 'then' || typeof key === 'symbol' ? undefined : refuse()),
  });
}

/** Checks a created target (throws TargetShapeError with every located problem) and completes it. */
export function checkTarget(t: TargetDefinition | Target, source = 'target'): Target {
  const problems = targetProblems(t);
  if (problems.length > 0) throw new TargetShapeError(`${source}: ${problems.join('; ')}`);
  const members = ['principals', 'bindings', 'threadState', 'memory', 'approvals', 'audit', 'tools'] as const;
  const missing = members.filter((m) => (t as Partial<Target>)[m] === undefined);
  if (missing.length === 0) return t as Target;
  const filled = new Map<PropertyKey, unknown>(missing.map((m) => [m, absent(t.name, m)]));
  // The target's own object stays the receiver (class methods, private fields, getters).
  return new Proxy(t as Target, {
    get: (target, key) => {
      if (filled.has(key)) return filled.get(key);
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
    has: (target, key) => filled.has(key) || Reflect.has(target, key),
  });
}

/** For authors: `create: async (env) => defineTarget({ name, capabilities: { threadState: true }, … })`. */
export function defineTarget(t: TargetDefinition): Target {
  return checkTarget(t);
}
