/**
 * Test identities a target authenticates. Suites hold `Principal` handles; what a handle
 * means (a bearer token over HTTP, an object in-process) is the target's business. Namespaces
 * and scopes are always computed by the target from the authenticated principal.
 */
export const ROLES = ['user', 'application', 'admin', 'approver'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  /** Stable test label, e.g. `alice`; not the raw subject. */
  readonly id: string;
  readonly subject: string;
  readonly organization: string;
  readonly roles: readonly Role[];
  /** Opaque credential (bearer token for HTTP targets). */
  readonly credential: string;
}

/**
 * The identities every target provides: two users in org A (alice, bob), one user in org B
 * (carol), an application/admin identity per org, and an approver in org A distinct from
 * the users.
 */
export interface Principals {
  readonly alice: Principal;
  readonly bob: Principal;
  readonly carol: Principal;
  readonly adminA: Principal;
  readonly adminB: Principal;
  readonly approverA: Principal;
  /** An agent id every principal may use, and a second one for agent isolation tests. */
  readonly agents: readonly [string, string];
  /** A credential that authenticates nobody. */
  readonly anonymousCredential: string;
  /**
   * A trusted internal service (a user-role identity in alice's organization): the target's
   * own, server-side ingress policy continues the incoming trace context of runs this
   * credential starts, and no other caller's (contract: "ignore or replace malformed/untrusted
   * context according to ingress policy"). Trust is never something a request can claim.
   * Absent when the target trusts no caller's context; clauses that need one report not run.
   */
  readonly internalService?: Principal;
}
