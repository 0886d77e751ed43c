/**
 * fixtures/scenario/held-call.ts: a call held at a failpoint is judged only from an attempt
 * where its change was acknowledged before the hold could have ended; a slower attempt is
 * repeated with the next hold, and with none left the scenario fails saying so.
 */
import { describe, expect, it } from 'vitest';
import type { Target } from '../../contract/target.js';
import { heldAcrossChanges } from '../../fixtures/scenario/held-call.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A target whose only part used here is its failpoints: the armed sleep, as the reference runs it. */
function fakeTarget() {
  const armed: string[] = [];
  let hold = 0;
  let cleared = 0;
  const target = {
    name: 'fake',
    faults: {
      async setFailpoint(name: string, term: string) {
        armed.push(`${name}=${term}`);
        hold = Number(/sleep\((\d+)\)/.exec(term)?.[1]);
      },
      async clearFailpoints() {
        cleared++;
      },
    },
  } as unknown as Target;
  return { target, armed, cleared: () => cleared, hold: () => hold };
}

describe('a call held across a change', () => {
  it('arms the point for each scenario, changes while the calls are held, and hands back each outcome', async () => {
    const f = fakeTarget();
    const order: string[] = [];
    const { outcomes } = await heldAcrossChanges(
      f.target,
      'state.write.before',
      async () =>
        ['a', 'b'].map((n) => ({
          call: async () => {
            await sleep(f.hold());
            order.push(`${n} done`);
            if (n === 'b') throw new Error('refused');
            return n;
          },
          change: async () => {
            order.push(`${n} changed`);
          },
        })),
      [200],
    );
    expect(f.armed).toEqual(['state.write.before=2*sleep(200)']);
    expect(f.cleared()).toBe(1);
    expect(order.slice(0, 2).sort()).toEqual(['a changed', 'b changed']);
    expect(outcomes[0]).toEqual({ ok: true, value: 'a' });
    expect(outcomes[1]?.ok).toBe(false);
  });

  it('repeats an attempt whose change came back after the hold could have ended, on fresh scenarios', async () => {
    const f = fakeTarget();
    let builds = 0;
    const { scenarios } = await heldAcrossChanges(
      f.target,
      'state.commit.before',
      async () => {
        const attempt = ++builds;
        return [{ attempt, call: () => sleep(f.hold()), change: () => sleep(attempt === 1 ? 120 : 0) }];
      },
      [100, 300],
    );
    expect(builds).toBe(2);
    expect(scenarios[0]?.attempt).toBe(2);
    expect(f.armed).toEqual(['state.commit.before=1*sleep(100)', 'state.commit.before=1*sleep(300)']);
    expect(f.cleared()).toBe(2);
  });

  it('fails, naming the point and the delays, when no hold was long enough', async () => {
    const f = fakeTarget();
    await expect(
      heldAcrossChanges(
        f.target,
        'state.write.before',
        async () => [{ call: () => sleep(f.hold()), change: () => sleep(150) }],
        [60, 100],
      ),
    ).rejects.toThrow(
      /no change landed while the call was held at state\.write\.before \(60 ms hold: .*; 100 ms hold: /,
    );
    expect(f.cleared()).toBe(2);
  });
});
