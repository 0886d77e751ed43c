import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStateBackend } from '../../reference-impl/state/sqlite-state-backend.js';
import { binding, describeStateBackendCases } from './state-backend-cases.js';
import { type StateTestContext, stateTestContext } from './state-test-context.js';

let t: StateTestContext;
afterEach(() => t?.dispose());

describe('SQLite state backend', () => {
  it('keeps its tables under the state_ prefix in the shared database', () => {
    t = stateTestContext();
    const tables = t.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
    expect(tables).toEqual(['state_bindings', 'state_heads', 'state_pending', 'state_runs', 'state_sessions']);
  });

  it('bounds bindings per owner', async () => {
    t = stateTestContext();
    const be = new SqliteStateBackend(t.db);
    expect(await be.createBinding(binding('b1'), 2)).toBe(true);
    expect(await be.createBinding(binding('b2'), 2)).toBe(true);
    expect(await be.createBinding(binding('b3'), 2)).toBe(false);
    expect(await be.createBinding(binding('b4', 'bob'), 2)).toBe(true);
    expect(be.ownerOf('b1')).toBe('alice');
    expect(be.ownerOf('nope')).toBeNull();
  });
});

describeStateBackendCases('SQLite state backend: the shared backend contract', async () => {
  t = stateTestContext();
  const db = t.db;
  return {
    backend: new SqliteStateBackend(db),
    other: async () => new SqliteStateBackend(db),
    earlierEpochHead: 'kept',
  };
});
