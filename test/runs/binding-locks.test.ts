/**
 * The reference control plane's one-run-at-a-time-per-binding lock (its own design, not a
 * contract requirement: the contract's compare-and-set would let a racing run lose with a
 * conflict). From the Stryker runs triage (family R2 in mutation/survivors.md): no suite starts
 * runs on one binding together.
 */
import { describe, expect, it } from 'vitest';
import { BindingLocks } from '../../reference-impl/runs/control-plane/binding-locks.js';

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => {
    open = r;
  });
  return { p, open };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('binding locks (reference)', () => {
  it('runs on one binding never overlap, in arrival order, also once the first has ended', async () => {
    const locks = new BindingLocks();
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const work = (i: number) => async () => {
      inside++;
      most = Math.max(most, inside);
      order.push(i);
      await gates[i]!.p;
      inside--;
      return i;
    };
    const a = locks.run('b', work(0));
    const b = locks.run('b', work(1));
    const c = locks.run('b', work(2));
    await tick();
    expect(order).toEqual([0]);
    gates[0]!.open();
    await a;
    await tick();
    // A run arriving after the first ended still queues behind the two waiting ones.
    const d = locks.run('b', work(3));
    await tick();
    expect(order).toEqual([0, 1]);
    gates[1]!.open();
    gates[2]!.open();
    gates[3]!.open();
    expect(await Promise.all([b, c, d])).toEqual([1, 2, 3]);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(most).toBe(1);
  });

  it('a failing run releases the binding; other bindings do not wait', async () => {
    const locks = new BindingLocks();
    const g = gate();
    const held = locks.run('b1', () => g.p);
    expect(await locks.run('b2', async () => 'other')).toBe('other');
    g.open();
    await held;
    await expect(locks.run('b1', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await locks.run('b1', async () => 'next')).toBe('next');
  });

  it('forgets a binding once its last run ended', async () => {
    const locks = new BindingLocks();
    const g = gate();
    const first = locks.run('b', () => g.p);
    const second = locks.run('b', async () => undefined);
    g.open();
    await Promise.all([first, second]);
    expect((locks as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
  });

  it('refuses a new binding as rate_limited once 10 000 bindings are busy, still queues on a busy one', async () => {
    const locks = new BindingLocks();
    const g = gate();
    const busy = Array.from({ length: 10_000 }, (_, i) => locks.run(`b${i}`, () => g.p));
    await expect(locks.run('one-more', async () => 1)).rejects.toMatchObject({ code: 'rate_limited' });
    const queued = locks.run('b0', async () => 'queued');
    g.open();
    await Promise.all(busy);
    expect(await queued).toBe('queued');
    expect(await locks.run('one-more', async () => 1)).toBe(1);
  });
});
