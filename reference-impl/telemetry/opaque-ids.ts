/**
 * Opaque identifiers for telemetry: binding, run, agent and sandbox ids are exported only as
 * truncated HMAC-SHA256 digests under a key that is random per target instance, so a trace
 * correlates within one deployment but reveals nothing and cannot be joined across deployments.
 */
import { createHmac, randomBytes } from 'node:crypto';

export type OpaqueKind = 'binding' | 'run' | 'agent' | 'sandbox';

export class OpaqueIds {
  private readonly key: Buffer;

  constructor(key: Buffer = randomBytes(32)) {
    this.key = key;
  }

  of(kind: OpaqueKind, id: string): string {
    return createHmac('sha256', this.key).update(kind).update('\u0000').update(id).digest('hex').slice(0, 32);
  }
}
