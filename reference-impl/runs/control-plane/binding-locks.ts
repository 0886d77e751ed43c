/**
 * One run at a time per binding: runs on the same thread are serialized in the control plane
 * (a second run would otherwise race the first to the head and lose with a conflict). Bounded:
 * beyond the limit of bindings with queued runs a new run is refused as rate-limited.
 */
import { ContractError } from '../../../contract/errors.js';

const MAX_LOCKED = 10_000;

export class BindingLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(bindingId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(bindingId);
    if (!previous && this.tails.size >= MAX_LOCKED) throw new ContractError('rate_limited', 'too many bindings busy');
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = (previous ?? Promise.resolve()).then(() => mine);
    this.tails.set(bindingId, tail);
    try {
      await previous;
      return await fn();
    } finally {
      release();
      if (this.tails.get(bindingId) === tail) this.tails.delete(bindingId);
    }
  }
}
