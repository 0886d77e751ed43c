/**
 * Thread-state routes → Target.threadState(session): the session comes from the worker's lease
 * credential; the body's scope is the contract's scope argument, checked by the target.
 */
import type { Handler } from './route-handler.js';

export const stateLoadHead: Handler<'stateLoadHead'> = async ({ target, session, body }) => ({
  head: await target.threadState(session).load_head(body.scope),
});

export const stateWriteNative: Handler<'stateWriteNative'> = ({ target, session, body }) =>
  target.threadState(session).write_native_state(body.scope, body.codec, body.payload, body.idempotencyKey);

export const stateCommitHead: Handler<'stateCommitHead'> = ({ target, session, body }) =>
  target
    .threadState(session)
    .commit_head(body.scope, body.pending, body.expectedDurableRevision, body.runId, body.options);

export const stateMarkUncertain: Handler<'stateMarkUncertain'> = async ({ target, session, body }) => {
  await target.threadState(session).mark_uncertain(body.scope, body.runId, body.reason);
  return {};
};

export const stateRunStatus: Handler<'stateRunStatus'> = async ({ target, session, body }) => ({
  run: await target.threadState(session).run_status(body.scope, body.runId),
});

export const stateReconcile: Handler<'stateReconcile'> = ({ target, session, body }) =>
  target.threadState(session).reconcile(body.scope, body.runId, body.resolution);
