/**
 * Authentication for the reference: a principal is who its credential says, never who the
 * object claims to be. A caller that hands over `{ subject: 'carol', credential: <alice> }`
 * is alice. Credentials are random per target instance and compared in constant time.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ContractError } from '../../contract/errors.js';
import type { Principal, Principals, Role } from '../../contract/principals.js';
import type { Identity } from './identity.js';

interface Seed {
  id: keyof Omit<Principals, 'agents' | 'anonymousCredential'>;
  subject: string;
  organization: string;
  roles: Role[];
  /**
   * The server's ingress policy for this credential: 'trusted' continues the trace context of
   * its requests (a trusted internal service); everyone else's is replaced. Configured here,
   * on the server, per credential — a request cannot claim it.
   */
  ingress?: 'trusted';
}

const SEEDS: readonly Seed[] = [
  { id: 'alice', subject: 'user-alice', organization: 'org-a', roles: ['user'] },
  { id: 'bob', subject: 'user-bob', organization: 'org-a', roles: ['user'] },
  { id: 'carol', subject: 'user-carol', organization: 'org-b', roles: ['user'] },
  { id: 'adminA', subject: 'app-a', organization: 'org-a', roles: ['application', 'admin'] },
  { id: 'adminB', subject: 'app-b', organization: 'org-b', roles: ['application', 'admin'] },
  { id: 'approverA', subject: 'approver-a', organization: 'org-a', roles: ['approver'] },
  { id: 'internalService', subject: 'svc-internal', organization: 'org-a', roles: ['user'], ingress: 'trusted' },
];

export const AGENTS = ['agent-alpha', 'agent-beta'] as const;

export interface SavedCredentials {
  readonly principals: Readonly<Record<string, string>>;
  readonly anonymous: string;
}

export class Authenticator {
  private readonly byToken = new Map<string, Identity>();
  /** Principal ids whose incoming trace context the ingress policy continues. */
  private readonly ingressTrusted = new Set<string>();
  readonly principals: Principals;

  /**
   * `saved` restores the credentials of an earlier instance (a served target restarted on the
   * same data directory keeps its identities); missing ones are minted.
   */
  constructor(saved?: SavedCredentials) {
    const entries: Record<string, Principal> = {};
    for (const s of SEEDS) {
      const credential = saved?.principals[s.id] ?? `smtc_${randomBytes(24).toString('base64url')}`;
      const identity: Identity = {
        principalId: s.id,
        subject: s.subject,
        organization: s.organization,
        roles: s.roles,
      };
      this.byToken.set(credential, identity);
      if (s.ingress === 'trusted') this.ingressTrusted.add(s.id);
      entries[s.id] = { id: s.id, subject: s.subject, organization: s.organization, roles: s.roles, credential };
    }
    this.principals = {
      ...(entries as unknown as Omit<Principals, 'agents' | 'anonymousCredential'>),
      agents: AGENTS,
      anonymousCredential: saved?.anonymous ?? `smtc_${randomBytes(24).toString('base64url')}`,
    };
  }

  /** The credentials to save for a restart (principal id → token, and the anonymous one). */
  saved(): SavedCredentials {
    const principals: Record<string, string> = {};
    for (const s of SEEDS) principals[s.id] = this.principals[s.id]!.credential;
    return { principals, anonymous: this.principals.anonymousCredential };
  }

  /** Resolve a credential; throws `unauthenticated` for anything unknown or malformed. */
  authenticate(p: Pick<Principal, 'credential'> | null | undefined): Identity {
    const token = p && typeof p.credential === 'string' ? p.credential : '';
    if (token.length === 0 || token.length > 256) throw new ContractError('unauthenticated');
    const given = Buffer.from(token);
    for (const [known, identity] of this.byToken) {
      const k = Buffer.from(known);
      if (k.length === given.length && timingSafeEqual(k, given)) return identity;
    }
    throw new ContractError('unauthenticated');
  }

  /**
   * Whether the ingress policy continues this caller's trace context: decided by the
   * credential alone (never by the request); anyone unauthenticated is untrusted.
   */
  trustsIngressOf(p: Pick<Principal, 'credential'> | null | undefined): boolean {
    try {
      return this.ingressTrusted.has(this.authenticate(p).principalId);
    } catch {
      return false;
    }
  }

  isAgent(agent: unknown): agent is string {
    return typeof agent === 'string' && (AGENTS as readonly string[]).includes(agent);
  }
}
