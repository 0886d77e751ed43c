/**
 * The R07.14 judge of a secret entry: a secret part found in the entry's own record is a leak
 * whatever its length; in another entry's record only a part long enough to be this secret's
 * counts (a two-digit datacenter suffix is in many innocent notes). Judged on the in-process
 * reference, whose store is shared by every entry as in the clause.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target, TargetModule } from '../../contract/target.js';
import { memoryCorpusV4 } from '../../fixtures/corpora/memory-corpus.v4.js';
import { judgeCorpusEntry } from '../../fixtures/memory/judge-corpus-entry.js';
import { USER } from '../../fixtures/memory/memory-proposal.js';
import { loadTargetModule, REPO_ROOT } from '../../fixtures/targets/load-target.js';

let mod: TargetModule;
let target: Target;
let dir: string;
beforeAll(async () => {
  mod = await loadTargetModule(path.join(REPO_ROOT, 'reference-impl/module-target.ts'));
  dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-judge-'));
  target = await mod.create({ tempDir: dir });
});
afterAll(async () => {
  await mod.destroy?.(target);
  rmSync(dir, { recursive: true, force: true });
});

const note = async (key: string, content: string) => {
  const m = target.memory(target.principals.alice, target.principals.agents[0]);
  expect((await m.put(USER, { key, kind: 'semantic', content, contentType: 'text/plain' }, null)).status).toBe(
    'written',
  );
};

const secretEntry = (key: string, content: string, secretParts: string[]) => {
  const base = memoryCorpusV4().find((e) => e.kind === 'secret')!;
  return { ...base, proposal: { ...base.proposal, key, content }, secretParts };
};

describe('judgeCorpusEntry on secret entries', () => {
  it('a short part in another entry’s record is no leak; the secret redacted is kept out', async () => {
    await note('judge/other-10', 'Room 10 is booked for the 10 o’clock review.');
    const mailchimp = memoryCorpusV4().find((e) => e.id === 'sec/mailchimp/155');
    expect(mailchimp?.secretParts).toContain('10');
    expect(await judgeCorpusEntry(target, mailchimp!)).toBe(true);
  });

  it('a short part in the entry’s own record is a leak', async () => {
    const e = secretEntry('judge/own-short', 'the locker number is 47 and it is blue', ['47']);
    expect(await judgeCorpusEntry(target, e)).toBe(false);
  });

  it('a long part found in another record is a leak', async () => {
    await note('judge/other-long', 'copied elsewhere: zebraquokka8812');
    const e = secretEntry('judge/own-clean', 'nothing secret in this note', ['zebraquokka8812']);
    expect(await judgeCorpusEntry(target, e)).toBe(false);
  });
});
