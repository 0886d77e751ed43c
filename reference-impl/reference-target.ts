/**
 * Composes the reference Harness Engine slice into a Target: thread state, memory and runs
 * are separate services over one SQLite file, each declaring the capabilities it provides.
 */
import path from 'node:path';
import { ContractError } from '../contract/errors.js';
import type { Capabilities, HarnessEnv, Target } from '../contract/target.js';
import { Authenticator } from './identity/authenticator.js';
import { createMemoryService } from './memory/memory-service.js';
import { AdjustableClock } from './platform/clock.js';
import { failpointControl } from './platform/failpoint-control.js';
import { openSqlite } from './platform/sqlite.js';
import type { ReferenceContext } from './reference-context.js';
import { createRunService } from './runs/run-service.js';
import { createStateService } from './state/state-service.js';

export interface ReferenceTarget extends Target {
  close(): Promise<void>;
}

export async function createReferenceTarget(env: HarnessEnv): Promise<ReferenceTarget> {
  const db = openSqlite(path.join(env.tempDir, 'smtc-reference.sqlite'));
  const clock = new AdjustableClock();
  const auth = new Authenticator();
  const ctx: ReferenceContext = { db, clock, auth, env, options: env.options ?? {} };

  const state = createStateService(ctx);
  const memory = createMemoryService(ctx, { ownsBinding: (p, b) => state.ownsBinding(p, b) });
  const runs = await createRunService(ctx, { state, memory });

  const capabilities: Capabilities = {
    ...state.capabilities,
    ...memory.capabilities,
    ...runs.capabilities,
    settableClock: true,
    failpoints: true,
  };
  return {
    name: 'smtc-reference (embedded SQLite)',
    capabilities,
    principals: auth.principals,
    bindings: state.bindings,
    threadState: (session) => state.threadState(session),
    stateLimits: state.limits,
    memory: (caller, agent) => memory.memory(caller, agent),
    memoryPolicy: memory.policy,
    approvals: memory.approvals,
    audit: memory.audit,
    tools: memory.tools,
    ...(runs.runs ? { runs: runs.runs } : {}),
    ...(runs.telemetry ? { telemetry: runs.telemetry } : {}),
    clock: {
      now: async () => clock.now(),
      advance: async (ms) => {
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new ContractError('invalid_argument', 'ms');
        clock.advance(ms);
      },
    },
    faults: failpointControl([state.failpoints]),
    async close() {
      await runs.close();
      db.close();
    },
  };
}
