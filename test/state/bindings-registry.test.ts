/**
 * The reference's bindings registry beyond what the suites reach: its per-owner binding bound
 * (100 000, too large for a suite to exhaust) and `ownsBinding`, the ownership question the
 * memory service asks for episodic references (never through the Target interface).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectRejection } from '../../fixtures/assertions/contract-error.js';
import { BindingsRegistry } from '../../reference-impl/state/bindings-registry.js';
import { SqliteStateBackend } from '../../reference-impl/state/sqlite-state-backend.js';
import { type StateTestContext, stateTestContext } from './state-test-context.js';

let t: StateTestContext | undefined;
afterEach(() => t?.dispose());

const SPEC = { environment: 'env', harness: 'scripted', codec: 'scripted/v1' };

const bindingCount = (c: StateTestContext) =>
  c.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM state_bindings').get()!.n;

describe('reference bindings registry', () => {
  it('an owner at the bindings bound is refused with entry_limit, and no binding is handed out', async () => {
    t = stateTestContext();
    const backend = new SqliteStateBackend(t.db);
    // The backend says the owner is at the bound (its own bound is tested in sqlite-state-backend.test.ts).
    const full = Object.assign(Object.create(backend) as SqliteStateBackend, {
      createBinding: async () => false,
    });
    const registry = new BindingsRegistry(full, t.ctx.auth);
    const alice = t.ctx.auth.principals.alice;
    await expectRejection(registry.open(alice, SPEC), ['entry_limit']);
    expect(bindingCount(t)).toBe(0);
    // Under the bound the same call opens a binding that exists.
    const ok = await new BindingsRegistry(backend, t.ctx.auth).open(alice, SPEC);
    expect((await t.service.bindings.get(alice, ok.bindingId)).bindingId).toBe(ok.bindingId);
    expect(bindingCount(t)).toBe(1);
  });

  it('ownsBinding is true only for the owner’s own binding, false for any malformed id, and never throws', async () => {
    t = stateTestContext();
    const alice = t.ctx.auth.principals.alice;
    const own = await t.service.bindings.open(alice, SPEC);
    const owns = (p: unknown, b: unknown) => t!.service.ownsBinding(p as string, b as string);
    expect(owns('alice', own.bindingId)).toBe(true);
    expect(owns('bob', own.bindingId)).toBe(false);
    expect(owns('alice', 'bnd_unknown')).toBe(false);
    // A missing principal must not match a missing binding (both "no owner").
    for (const p of [null, undefined, 0, {}, ['alice']]) {
      expect(owns(p, 'bnd_unknown'), `principal ${String(p)}`).toBe(false);
      expect(owns(p, own.bindingId), `principal ${String(p)}`).toBe(false);
    }
    for (const b of [null, undefined, 5, {}, [own.bindingId], { bindingId: own.bindingId }]) {
      expect(owns('alice', b), `binding id ${JSON.stringify(b)}`).toBe(false);
    }
    expect(owns('alice', 'x'.repeat(100_000))).toBe(false);
  });
});
