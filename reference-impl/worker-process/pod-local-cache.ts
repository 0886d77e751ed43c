/**
 * The worker's pod-local cache: every durable head this worker loads or commits is written to
 * its slot directory. Restore never reads it — `load_head` always asks the control plane's
 * ThreadStateStore. Only the test-only mutation hooks read it (the bugs R01 must catch).
 */
import type { ThreadStateStore } from '../../contract/state.js';
import { MUTATION_HOOKS, type MutationHooks } from '../mutation-hooks.js';
import { readCachedHead, writeCachedHead } from '../runs/remote/pod-cache-file.js';

export class PodLocalCache {
  /** Bindings this worker process has served (the `new-worker-ignores-head` hook only). */
  private readonly served = new Set<string>();

  constructor(
    private readonly slotDir: string,
    private readonly hooks: MutationHooks,
  ) {}

  /** The store a run uses: the remote facade, with every head it returns remembered locally. */
  wrap(store: ThreadStateStore): ThreadStateStore {
    const remember = <H extends Parameters<typeof writeCachedHead>[1] | null>(head: H): H => {
      if (head) {
        try {
          writeCachedHead(this.slotDir, head);
        } catch {
          // A full or read-only pod disk never fails a run: the cache is only a cache.
        }
      }
      return head;
    };
    return {
      load_head: async (scope) => {
        if (this.hooks.has(MUTATION_HOOKS.restoreFromPodCache)) {
          const cached = readCachedHead(this.slotDir, scope.bindingId);
          if (cached) return cached;
        }
        if (this.hooks.has(MUTATION_HOOKS.newWorkerIgnoresHead) && !this.served.has(scope.bindingId)) {
          this.served.add(scope.bindingId);
          return null;
        }
        this.served.add(scope.bindingId);
        return remember(await store.load_head(scope));
      },
      write_native_state: (...a) => store.write_native_state(...a),
      commit_head: async (...a) => remember(await store.commit_head(...a)),
      mark_uncertain: (...a) => store.mark_uncertain(...a),
      run_status: (...a) => store.run_status(...a),
      reconcile: (...a) => store.reconcile(...a),
    };
  }
}
