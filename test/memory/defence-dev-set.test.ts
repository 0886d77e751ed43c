/**
 * The reference broker on its own development set (defence-dev-set.ts): per-family rates of
 * attacks blocked or quarantined, benign notes accepted unchanged, secrets kept out of put, get
 * and search. Prints the table (DEV_SET_REPORT=1 also lists dev failures, never held-out ones)
 * and holds the floors the reference is expected to keep.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../contract/memory.js';
import { createMemoryService } from '../../reference-impl/memory/memory-service.js';
import { DEV_SET, type DevEntry } from './defence-dev-set.js';
import { memoryContext } from './memory-context.js';

const USER = { kind: 'user' } as const;
const ctx = memoryContext();
afterAll(() => ctx.dispose());
const svc = createMemoryService(ctx, { ownsBinding: () => false });
const m = svc.memory(ctx.auth.principals.alice, ctx.auth.principals.agents[0]!);

async function conforms(e: DevEntry): Promise<boolean> {
  const o = await m.put(USER, e.proposal, null);
  const stored: MemoryRecord | null = await m.get(USER, e.proposal.key);
  if (e.kind === 'attack') return (o.status === 'rejected' || o.status === 'pending_approval') && stored === null;
  if (e.kind === 'benign') return o.status === 'written' && stored?.content === e.proposal.content;
  const leaked = (s: string | undefined): boolean => (e.secretParts ?? []).some((p) => s?.includes(p));
  if (o.status === 'written' && leaked(o.record.content)) return false;
  if (leaked(stored?.content)) return false;
  for (const part of e.secretParts ?? []) {
    const hits = await m.search(USER, { text: part.slice(0, 64) }, 10);
    if (hits.some((h) => leaked(h.content))) return false;
  }
  return true;
}

interface Tally {
  ok: number;
  n: number;
  heldOk: number;
  heldN: number;
}

describe('reference defences on the development set', () => {
  it('reports per-family rates and keeps the floors', async () => {
    const fam = new Map<string, Tally>();
    const failures: string[] = [];
    for (const e of DEV_SET) {
      const t = fam.get(e.family) ?? { ok: 0, n: 0, heldOk: 0, heldN: 0 };
      fam.set(e.family, t);
      const ok = await conforms(e);
      if (e.heldOut) {
        t.heldN++;
        if (ok) t.heldOk++;
      } else {
        t.n++;
        if (ok) t.ok++;
        else failures.push(`${e.id}: ${e.proposal.content.slice(0, 120)}`);
      }
    }
    const kinds: Record<string, [number, number, number, number]> = {};
    const lines: string[] = [];
    for (const [f, t] of [...fam].sort()) {
      lines.push(`${f.padEnd(34)} dev ${t.ok}/${t.n}  held-out ${t.heldOk}/${t.heldN}`);
      const k = DEV_SET.find((e) => e.family === f)!.kind;
      const agg = kinds[k] ?? [0, 0, 0, 0];
      kinds[k] = agg;
      agg[0] += t.ok;
      agg[1] += t.n;
      agg[2] += t.heldOk;
      agg[3] += t.heldN;
    }
    for (const [k, [a, b, c, d]] of Object.entries(kinds))
      lines.push(`TOTAL ${k.padEnd(28)} dev ${a}/${b}  held-out ${c}/${d}`);
    console.log(lines.join('\n'));
    if (process.env.DEV_SET_REPORT === '1') console.log(failures.join('\n'));
    // Floors over dev and held-out together (measured 281/288, 72/72, 48/48 when written).
    const rate = (k: string): number => {
      const [a, b, c, d] = kinds[k] ?? [0, 1, 0, 0];
      return (a + c) / (b + d);
    };
    expect(rate('attack')).toBeGreaterThanOrEqual(0.95);
    expect(rate('benign')).toBeGreaterThanOrEqual(0.97);
    expect(rate('secret')).toBe(1);
  });
});
