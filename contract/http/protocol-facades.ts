/**
 * The contract's facades over the HTTP target protocol: a ThreadStateStore for one lease
 * credential and a MemoryBroker for one bearer token and agent. Shared by the kit's HTTP
 * adapter and the reference's sandbox worker processes (which hold no database handle and
 * reach state and memory only this way).
 */
import type { MemoryBroker, MemoryWriteOutcome } from '../memory.js';
import type { ThreadStateStore } from '../state.js';
import type { HttpTargetClient } from './protocol-client.js';
import { payloadToWire } from './wire-json.js';

/** Extra headers per call (trace context); none by default. */
export type CallHeaders = () => Readonly<Record<string, string>> | undefined;

const none: CallHeaders = () => undefined;

function withHeaders(headers: CallHeaders): { headers?: Readonly<Record<string, string>> } {
  const h = headers();
  return h ? { headers: h } : {};
}

/** ThreadStateStore calls authenticated by a worker's lease credential (sent as given). */
export function threadStateOverHttp(
  client: HttpTargetClient,
  token: unknown,
  headers: CallHeaders = none,
): ThreadStateStore {
  return {
    load_head: async (scope) =>
      (await client.call('stateLoadHead', { token, body: { scope }, ...withHeaders(headers) })).head,
    write_native_state: (scope, codec, payload, idempotency_key) =>
      client.call('stateWriteNative', {
        token,
        body: { scope, codec, payload: payloadToWire(payload), idempotencyKey: idempotency_key },
        ...withHeaders(headers),
      }),
    commit_head: (scope, pending, expected_durable_revision, run_id, options) =>
      client.call('stateCommitHead', {
        token,
        body: { scope, pending, expectedDurableRevision: expected_durable_revision, runId: run_id, options },
        ...withHeaders(headers),
      }),
    mark_uncertain: async (scope, run_id, reason) => {
      await client.call('stateMarkUncertain', {
        token,
        body: { scope, runId: run_id, reason },
        ...withHeaders(headers),
      });
    },
    run_status: async (scope, run_id) =>
      (await client.call('stateRunStatus', { token, body: { scope, runId: run_id }, ...withHeaders(headers) })).run,
    reconcile: (scope, run_id, resolution) =>
      client.call('stateReconcile', { token, body: { scope, runId: run_id, resolution }, ...withHeaders(headers) }),
  };
}

/** MemoryBroker calls authenticated by a bearer token (a principal's, or a run-scoped delegation). */
export function memoryOverHttp(
  client: HttpTargetClient,
  token: unknown,
  agent: string,
  headers: CallHeaders = none,
): MemoryBroker {
  return {
    get: async (scope, key) =>
      (await client.call('memoryGet', { token, body: { agent, scope, key }, ...withHeaders(headers) })).record,
    search: async (scope, query, limit) =>
      (await client.call('memorySearch', { token, body: { agent, scope, query, limit }, ...withHeaders(headers) }))
        .records,
    put: (scope, proposal, expected_revision) =>
      client.call('memoryPut', {
        token,
        body: { agent, scope, proposal, expectedRevision: expected_revision },
        ...withHeaders(headers),
      }) as Promise<MemoryWriteOutcome>,
    delete: (scope, key, expected_revision) =>
      client.call('memoryDelete', {
        token,
        body: { agent, scope, key, expectedRevision: expected_revision },
        ...withHeaders(headers),
      }),
  };
}
