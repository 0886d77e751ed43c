/** Memory, approvals, audit and tool-authorization routes → the served Target's parts. */
import type { MemoryProposal } from '../../contract/memory.js';
import type { Handler } from './route-handler.js';

export const memoryGet: Handler<'memoryGet'> = async ({ target, principal, body }) => ({
  record: await target.memory(principal, body.agent).get(body.scope, body.key),
});

export const memorySearch: Handler<'memorySearch'> = async ({ target, principal, body }) => ({
  records: await target.memory(principal, body.agent).search(body.scope, body.query, body.limit),
});

export const memoryPut: Handler<'memoryPut'> = ({ target, principal, body }) =>
  // The proposal is handed over as sent: judging its fields is the memory-write pipeline's job.
  target.memory(principal, body.agent).put(body.scope, body.proposal as MemoryProposal, body.expectedRevision);

export const memoryDelete: Handler<'memoryDelete'> = ({ target, principal, body }) =>
  target.memory(principal, body.agent).delete(body.scope, body.key, body.expectedRevision);

export const approvalsList: Handler<'approvalsList'> = async ({ target, principal }) => ({
  approvals: await target.approvals.list(principal),
});

export const approvalsDecide: Handler<'approvalsDecide'> = ({ target, principal, body }) =>
  target.approvals.decide(principal, body.approvalId, body.decision);

export const auditMemory: Handler<'auditMemory'> = async ({ target, principal, body }) => ({
  entries: await target.audit.memory(principal, body.filter),
});

export const toolsMayInvoke: Handler<'toolsMayInvoke'> = async ({ target, principal, body }) => ({
  allowed: await target.tools.mayInvoke(principal, body.agent, body.tool),
});

export const toolsMayReach: Handler<'toolsMayReach'> = async ({ target, principal, body }) => ({
  allowed: await target.tools.mayReach(principal, body.agent, body.host),
});
