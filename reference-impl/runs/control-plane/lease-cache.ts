/**
 * `sandbox.claim_or_reuse`: the control plane keeps the worker session of each binding it last
 * claimed and reuses it while it is still current (same epoch and lease generation as the
 * binding now has); otherwise it acquires a new lease, which fences every older worker.
 */
import type { BindingInfo, Bindings, WorkerSession } from '../../../contract/bindings.js';
import type { Principal } from '../../../contract/principals.js';

const MAX_CACHED = 1024;

export class LeaseCache {
  protected readonly sessions = new Map<string, WorkerSession>();

  constructor(protected readonly bindings: Bindings) {}

  async claimOrReuse(owner: Principal, binding: BindingInfo): Promise<{ session: WorkerSession; reused: boolean }> {
    const cached = this.sessions.get(binding.bindingId);
    if (cached && cached.scope.epoch === binding.epoch && cached.scope.leaseGeneration === binding.leaseGeneration) {
      return { session: cached, reused: true };
    }
    const session = await this.bindings.acquireLease(owner, binding.bindingId);
    this.sessions.delete(binding.bindingId);
    this.sessions.set(binding.bindingId, session);
    if (this.sessions.size > MAX_CACHED) this.sessions.delete(this.sessions.keys().next().value as string);
    return { session, reused: false };
  }

  /** Forget the binding's session: the next claim takes a new lease (fencing the old one). */
  forget(bindingId: string): void {
    this.sessions.delete(bindingId);
  }
}
