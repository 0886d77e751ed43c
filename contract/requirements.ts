/** The contract's ten certification requirements, as suites and verdicts name them. */
export const REQUIREMENTS = [
  { id: 'R01', title: 'completed and interrupted thread restore after worker/control-plane failure' },
  { id: 'R02', title: 'exact durable-head selection and rejection of pending/stale state' },
  { id: 'R03', title: 'idempotent duplicate state writes and explicit ambiguous-crash behavior' },
  { id: 'R04', title: 'zero cross-binding, epoch, adapter, or lease-generation state access' },
  { id: 'R05', title: 'user/agent/organization memory isolation and default policies' },
  { id: 'R06', title: 'revision-conflict and consolidation provenance tests' },
  { id: 'R07', title: 'memory injection, scope escalation, retention, approval, and deletion tests' },
  {
    id: 'R08',
    title: 'one causal trace across control plane, worker, state, memory, tools, subagents, and encoding',
  },
  { id: 'R09', title: 'malformed external context and forbidden-baggage rejection' },
  { id: 'R10', title: 'telemetry leak canaries and bounded collector-outage tests' },
] as const;

export type RequirementId = (typeof REQUIREMENTS)[number]['id'];

/** A clause of a requirement's suite: the requirement and the clause's number, e.g. `R04.12`. */
export type ClauseId = `${RequirementId}.${number}`;

export function isRequirementId(x: string): x is RequirementId {
  return REQUIREMENTS.some((r) => r.id === x);
}
