/**
 * The in-process reference broker the probe sets write to: one target per test file (its hooks
 * are registered by the call), and `put` proposes a note as Alice's first agent in her user
 * namespace (JSON when it looks like JSON).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { MemoryProposal } from '../../contract/memory.js';
import type { Target, TargetModule } from '../../contract/target.js';
import { USER } from '../../fixtures/memory/memory-proposal.js';
import { loadTargetModule, REPO_ROOT } from '../../fixtures/targets/load-target.js';

export function probeBroker(keyPrefix: string) {
  let mod: TargetModule;
  let target: Target;
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    mod = await loadTargetModule(path.join(REPO_ROOT, 'reference-impl/module-target.ts'));
    dir = mkdtempSync(path.join(os.tmpdir(), `smtc-${keyPrefix}-`));
    target = await mod.create({ tempDir: dir });
  });
  afterAll(async () => {
    await mod.destroy?.(target);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** The target itself, once the file's `beforeAll` has run. */
    target: () => target,
    put(content: string) {
      const p: MemoryProposal = {
        key: `${keyPrefix}/${n++}`,
        kind: 'semantic',
        content,
        contentType: content.startsWith('{') ? 'application/json' : 'text/plain',
      };
      return target.memory(target.principals.alice, target.principals.agents[0]).put(USER, p, null);
    },
  };
}
