/**
 * Run-scoped delegation tokens: what a sandbox worker process presents for memory and tool
 * authorization instead of the caller's own bearer token. A token stands for one caller and one
 * agent, for one run: the control plane mints it when it dispatches the run and revokes it when
 * the run ends (or after a bounded lifetime). The server accepts it only on memory and tool
 * routes and only for its agent, so a compromised worker can act for that caller and agent
 * during that run — never as the caller elsewhere, never after. Only digests are kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../../../contract/principals.js';

const MAX_LIVE = 10_000;
const DEFAULT_TTL_MS = 10 * 60_000;

export interface Delegation {
  readonly principal: Principal;
  readonly agent: string;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class Delegations {
  private readonly live = new Map<string, Delegation & { readonly expiresAt: number }>();

  constructor(private readonly ttlMs: number = DEFAULT_TTL_MS) {}

  mint(principal: Principal, agent: string): string {
    const token = `sdt_${randomBytes(32).toString('base64url')}`;
    this.live.set(digest(token), { principal, agent, expiresAt: performance.now() + this.ttlMs });
    // Bounded: the oldest delegations go first (their runs are the longest over).
    while (this.live.size > MAX_LIVE) {
      const oldest = this.live.keys().next().value;
      if (oldest === undefined) break;
      this.live.delete(oldest);
    }
    return token;
  }

  revoke(token: string): void {
    this.live.delete(digest(token));
  }

  /** The delegation a token stands for, while it is live. */
  resolve(token: string): Delegation | null {
    if (typeof token !== 'string' || token.length === 0 || token.length > 256) return null;
    const d = this.live.get(digest(token));
    if (!d) return null;
    if (performance.now() > d.expiresAt) {
      this.live.delete(digest(token));
      return null;
    }
    return { principal: d.principal, agent: d.agent };
  }
}
