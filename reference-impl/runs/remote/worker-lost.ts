/**
 * The control plane lost a sandbox worker in the middle of a run: the process exited, the
 * connection was reset, or it did not answer within the bound. What the client already saw is
 * the control plane's to judge (uncertain durability after output); nothing is replayed.
 */
export class WorkerLostError extends Error {
  override name = 'WorkerLostError';
  constructor(readonly how: 'exited' | 'connection' | 'timeout') {
    super(`sandbox worker lost (${how})`);
  }
}
