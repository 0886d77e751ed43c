/**
 * The reference's audit reader validates its filter before it reads: a filter that is not an
 * object, or a key that is not a string or is longer than any key can be, is refused as
 * `invalid_argument` (the contract's R06 clauses send only well-formed filters; this is the
 * reference's own input validation, found by mutation testing).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { note, USER } from '../../fixtures/memory/memory-proposal.js';
import { MEMORY_POLICY } from '../../reference-impl/memory/memory-policy.js';
import { createMemoryService } from '../../reference-impl/memory/memory-service.js';
import { memoryContext, type TestContext } from './memory-context.js';

let ctx: TestContext | undefined;
afterEach(() => ctx?.dispose());

function service() {
  ctx = memoryContext();
  const svc = createMemoryService(ctx, { ownsBinding: () => false });
  return { svc, p: ctx.auth.principals };
}

describe('reference audit reader', () => {
  it('refuses a malformed filter as invalid_argument and reads with a well-formed one', async () => {
    const { svc, p } = service();
    await svc.memory(p.alice, p.agents[0]!).put(USER, note('k', 'audited note'), null);
    for (const filter of [null, 'k', 5, true]) {
      await expect(svc.audit.memory(p.adminA, filter as never)).rejects.toMatchObject({ code: 'invalid_argument' });
    }
    for (const key of [5, null, {}, 'x'.repeat(MEMORY_POLICY.maxKeyLength + 1)]) {
      await expect(svc.audit.memory(p.adminA, { key } as never)).rejects.toMatchObject({ code: 'invalid_argument' });
    }
    expect((await svc.audit.memory(p.adminA, { key: 'k' })).map((e) => e.key)).toEqual(['k']);
    expect(await svc.audit.memory(p.adminA, { key: 'x'.repeat(MEMORY_POLICY.maxKeyLength) })).toEqual([]);
    expect((await svc.audit.memory(p.adminA)).length).toBeGreaterThan(0);
  });

  it('refuses a caller without the admin role', async () => {
    const { svc, p } = service();
    await expect(svc.audit.memory(p.alice)).rejects.toMatchObject({ code: 'forbidden' });
  });
});
