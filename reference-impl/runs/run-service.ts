// PLACEHOLDER until runs and telemetry land: declares no capability.
import type { Runs } from '../../contract/runs.js';
import type { Capabilities } from '../../contract/target.js';
import type { TelemetryHealth } from '../../contract/tracing.js';
import type { MemoryService } from '../memory/memory-service.js';
import type { ReferenceContext } from '../reference-context.js';
import type { StateService } from '../state/state-service.js';

export interface RunService {
  readonly capabilities: Capabilities;
  readonly runs?: Runs;
  readonly telemetry?: { health(): Promise<TelemetryHealth>; flush(): Promise<void> };
  close(): Promise<void>;
}

export async function createRunService(
  _ctx: ReferenceContext,
  _deps: { state: StateService; memory: MemoryService },
): Promise<RunService> {
  return { capabilities: {}, close: async () => {} };
}
