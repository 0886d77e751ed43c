/**
 * The reference MemoryBroker service: the contract's broker per caller and agent, approvals,
 * audit reads and the static tool authorization, over the target's shared SQLite database.
 * Shared learning (agent-scope writes) is off unless the target was created with it.
 */
import type { Approvals, Audit, MemoryBroker, MemoryPolicy } from '../../contract/memory.js';
import type { Principal } from '../../contract/principals.js';
import type { Capabilities, StorageInspection, ToolAuthorization } from '../../contract/target.js';
import type { ReferenceContext } from '../reference-context.js';
import { createApprovals } from './approvals-service.js';
import { createAuditReader } from './audit-reader.js';
import type { OwnsBinding } from './episodic-source.js';
import { ReferenceMemoryBroker } from './memory-broker.js';
import type { MemoryDeps } from './memory-deps.js';
import { MEMORY_BOUNDS, MEMORY_POLICY } from './memory-policy.js';
import { SearchIndexes } from './search-index.js';
import { MemoryStore } from './sqlite-memory-store.js';
import { storageResidue } from './storage-residue.js';
import { isLive, type LiveRecord } from './stored-record.js';
import { createToolAuthorization } from './tool-authorization.js';

export interface MemoryService {
  readonly capabilities: Capabilities;
  readonly policy: MemoryPolicy;
  memory(caller: Principal, agent: string): MemoryBroker;
  readonly approvals: Approvals;
  readonly audit: Audit;
  readonly tools: ToolAuthorization;
  readonly storage: StorageInspection;
}

export function createMemoryService(ctx: ReferenceContext, deps: { ownsBinding: OwnsBinding }): MemoryService {
  const store = new MemoryStore(ctx.db);
  const sharedLearning = ctx.options.sharedLearning === true;
  const indexes = new SearchIndexes(
    (ns) => store.liveRecords(ns).filter((r): r is LiveRecord => isLive(r, ctx.clock.now())),
    MEMORY_BOUNDS.maxCachedIndexes,
  );
  const memoryDeps: MemoryDeps = {
    store,
    indexes,
    clock: ctx.clock,
    auth: ctx.auth,
    ownsBinding: deps.ownsBinding,
    sharedLearning,
  };
  return {
    capabilities: { memory: true, sharedLearning, storageInspection: true },
    policy: MEMORY_POLICY,
    memory: (caller, agent) => new ReferenceMemoryBroker(memoryDeps, caller, agent),
    approvals: createApprovals(memoryDeps),
    audit: createAuditReader(memoryDeps),
    tools: createToolAuthorization(ctx.auth),
    storage: { residue: async (needle) => storageResidue(memoryDeps, needle) },
  };
}
