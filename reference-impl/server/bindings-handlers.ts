/** Bindings routes → Target.bindings, with the caller's own Principal handle. */
import type { Handler } from './route-handler.js';

export const bindingsOpen: Handler<'bindingsOpen'> = ({ target, principal, body }) =>
  target.bindings.open(principal, body.spec);

export const bindingsGet: Handler<'bindingsGet'> = ({ target, principal, body }) =>
  target.bindings.get(principal, body.bindingId);

export const bindingsClear: Handler<'bindingsClear'> = ({ target, principal, body }) =>
  target.bindings.clear(principal, body.bindingId);

export const bindingsAcquireLease: Handler<'bindingsAcquireLease'> = async ({
  target,
  principal,
  body,
  rememberSession,
}) => {
  const session = await target.bindings.acquireLease(principal, body.bindingId);
  rememberSession(session);
  return session;
};
