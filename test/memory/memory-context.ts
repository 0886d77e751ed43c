/** A reference context over a real SQLite file in a fresh temp dir, for memory unit tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TargetOptions } from '../../contract/target.js';
import { Authenticator } from '../../reference-impl/identity/authenticator.js';
import { AdjustableClock } from '../../reference-impl/platform/clock.js';
import { openSqlite } from '../../reference-impl/platform/sqlite.js';
import type { ReferenceContext } from '../../reference-impl/reference-context.js';

export interface TestContext extends ReferenceContext {
  dispose(): void;
}

export function memoryContext(options: TargetOptions = {}): TestContext {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'smtc-memory-unit-'));
  const db = openSqlite(path.join(tempDir, 'memory.sqlite'));
  return {
    db,
    clock: new AdjustableClock(),
    auth: new Authenticator(),
    env: { tempDir },
    options,
    dispose() {
      db.close();
      rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
