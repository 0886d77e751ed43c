/**
 * Process faults of the served reference, as its control plane can inflict them on its own
 * children: real signals to every sandbox worker process, a restart of every worker slot, and
 * poisoning the slots' pod-local caches. The control plane itself is killed and restarted by
 * whoever supervises it (the kit's HTTP adapter in spawn mode), never by itself.
 */
import { ContractError } from '../../../contract/errors.js';
import { type Faults, PROCESS_PARTS, PROCESS_SIGNALS } from '../../../contract/target.js';
import type { RemoteWorkerPool } from './remote-worker-pool.js';

const MARKER = /^[\x20-\x7e]{1,256}$/;

function checkPart(part: unknown): 'worker' {
  if (!(PROCESS_PARTS as readonly unknown[]).includes(part)) throw new ContractError('invalid_argument', 'part');
  if (part !== 'worker') throw new ContractError('not_found', 'the control plane is signalled by its supervisor');
  return part;
}

export function processFaults(
  pool: RemoteWorkerPool,
): Required<Pick<Faults, 'killPart' | 'restartPart' | 'poisonLocalCache' | 'processIds'>> {
  return {
    async killPart(part, signal) {
      checkPart(part);
      if (!(PROCESS_SIGNALS as readonly unknown[]).includes(signal))
        throw new ContractError('invalid_argument', 'signal');
      await pool.signalAll(signal);
    },
    async restartPart(part) {
      checkPart(part);
      await pool.restartAll();
    },
    async poisonLocalCache(bindingId, marker) {
      if (typeof bindingId !== 'string' || bindingId.length === 0 || bindingId.length > 256) {
        throw new ContractError('invalid_argument', 'bindingId');
      }
      if (typeof marker !== 'string' || !MARKER.test(marker)) throw new ContractError('invalid_argument', 'marker');
      pool.poisonLocalCache(bindingId, marker);
    },
    async processIds() {
      return { controlPlane: process.pid, workers: pool.pids() };
    },
  };
}
