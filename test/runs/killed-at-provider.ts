/** Start a run whose provider call is held, SIGKILL the worker once the call arrived, let go. */
import type { RunOutcome } from '../../contract/runs.js';
import type { Target } from '../../contract/target.js';
import type { ProviderStub } from '../../fixtures/stubs/provider-stub.js';

export async function killedAtProvider(
  t: Target,
  provider: ProviderStub,
  start: () => Promise<RunOutcome>,
): Promise<RunOutcome> {
  const hold = provider.holdNext();
  const pending = start();
  await hold.arrived;
  await t.faults!.killPart!('worker', 'SIGKILL');
  hold.release();
  return pending;
}
