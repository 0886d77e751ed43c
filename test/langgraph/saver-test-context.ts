/**
 * ContractCheckpointSavers for tests: each over a fresh reference state service — SQLite in a
 * temp dir, or the MongoDB backend on a fresh database of a real MongoDB-wire server — reached
 * the way the owner side reaches it (one binding per LangGraph thread, worked through leases).
 */
import type { TargetOptions } from '../../contract/target.js';
import type { ReferenceContext } from '../../reference-impl/reference-context.js';
import { ContractCheckpointSaver } from '../../reference-impl/runs/worker/langgraph/contract-checkpoint-saver.js';
import { ownerThreadSessions } from '../../reference-impl/runs/worker/langgraph/thread-sessions.js';
import type { StateService } from '../../reference-impl/state/state-service.js';
import { mongoStateTestContext } from '../state/mongodb-test-context.js';
import { stateTestContext } from '../state/state-test-context.js';

export interface SaverContext {
  readonly saver: ContractCheckpointSaver;
  readonly service: StateService;
  readonly ctx: ReferenceContext;
  dispose(): Promise<void>;
}

export const SAVER_SPEC = { environment: 'env', harness: 'langgraph' } as const;

export function saverOver(service: StateService, ctx: ReferenceContext): ContractCheckpointSaver {
  return new ContractCheckpointSaver(ownerThreadSessions(service, ctx.auth.principals.alice, SAVER_SPEC));
}

export function sqliteSaver(options: TargetOptions = {}): SaverContext {
  const t = stateTestContext(options);
  return {
    saver: saverOver(t.service, t.ctx),
    service: t.service,
    ctx: t.ctx,
    dispose: async () => t.dispose(),
  };
}

export async function mongoSaver(url: string, options: TargetOptions = {}): Promise<SaverContext> {
  const t = await mongoStateTestContext(url, options);
  const { service } = await t.client();
  return { saver: saverOver(service, t.ctx), service, ctx: t.ctx, dispose: () => t.dispose() };
}
