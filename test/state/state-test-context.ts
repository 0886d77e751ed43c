/** A reference thread-state service over a real SQLite file in a temp dir, for unit tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TargetOptions } from '../../contract/target.js';
import { Authenticator } from '../../reference-impl/identity/authenticator.js';
import { AdjustableClock } from '../../reference-impl/platform/clock.js';
import { type Db, openSqlite } from '../../reference-impl/platform/sqlite.js';
import type { ReferenceContext } from '../../reference-impl/reference-context.js';
import { createStateService, type StateService } from '../../reference-impl/state/state-service.js';

export interface StateTestContext {
  readonly dir: string;
  readonly file: string;
  readonly ctx: ReferenceContext;
  readonly db: Db;
  readonly service: StateService;
  /** Close the database and open the same file again, with a fresh service over it. */
  reopen(): StateTestContext;
  dispose(): void;
}

export function stateTestContext(options: TargetOptions = {}, dir?: string): StateTestContext {
  const d = dir ?? mkdtempSync(path.join(os.tmpdir(), 'smtc-state-test-'));
  const file = path.join(d, 'state.sqlite');
  const db = openSqlite(file);
  const ctx: ReferenceContext = {
    db,
    clock: new AdjustableClock(),
    auth: new Authenticator(),
    env: { tempDir: d, options },
    options,
  };
  const service = createStateService(ctx);
  return {
    dir: d,
    file,
    ctx,
    db,
    service,
    reopen() {
      db.close();
      return stateTestContext(options, d);
    },
    dispose() {
      if (db.open) db.close();
      rmSync(d, { recursive: true, force: true });
    },
  };
}
