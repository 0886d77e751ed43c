/**
 * Lease sessions this server handed out, by credential digest, so a worker's scope is derived
 * server-side from its bearer token. A credential the server does not remember (issued before
 * a restart, say) is passed to the target as presented: the target authenticates lease
 * credentials itself and must reject any scope its credential does not cover.
 */
import { createHash } from 'node:crypto';
import type { WorkerSession } from '../../contract/bindings.js';
import type { StateScope } from '../../contract/state.js';

const MAX_REMEMBERED = 10_000;

function digest(credential: string): string {
  return createHash('sha256').update(credential).digest('hex');
}

export class WorkerSessions {
  private readonly byDigest = new Map<string, StateScope>();

  remember(session: WorkerSession): void {
    const d = digest(session.credential);
    this.byDigest.delete(d);
    this.byDigest.set(d, session.scope);
    // Bounded: forget the oldest sessions first (they are the first to be fenced anyway).
    while (this.byDigest.size > MAX_REMEMBERED) {
      const oldest = this.byDigest.keys().next().value;
      if (oldest === undefined) break;
      this.byDigest.delete(oldest);
    }
  }

  /** The session a lease credential stands for; the claimed scope only when unknown here. */
  session(credential: string, claimedScope: StateScope): WorkerSession {
    return { credential, scope: this.byDigest.get(digest(credential)) ?? claimedScope };
  }
}
