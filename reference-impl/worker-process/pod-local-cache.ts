/**
 * The worker's pod-local cache: every durable head this worker loads or commits is written to
 * its slot directory. Restore never reads it — `load_head` always asks the control plane's
 * ThreadStateStore. Nothing of the reference reads it back: it is what a pod's disk holds, so
 * R01 can show that a restore which trusted it would be wrong.
 */
import type { ThreadStateStore } from '../../contract/state.js';
import { writeCachedHead } from '../runs/remote/pod-cache-file.js';

export class PodLocalCache {
  constructor(protected readonly slotDir: string) {}

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
      load_head: async (scope) => remember(await store.load_head(scope)),
      write_native_state: (...a) => store.write_native_state(...a),
      commit_head: async (...a) => remember(await store.commit_head(...a)),
      mark_uncertain: (...a) => store.mark_uncertain(...a),
      run_status: (...a) => store.run_status(...a),
      reconcile: (...a) => store.reconcile(...a),
    };
  }
}
