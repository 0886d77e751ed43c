/**
 * Fresh target instances of the served reference (`POST /_smtc/targets`): each one is a whole
 * reference target — its own SQLite file, identities, admin token, telemetry pipeline and
 * sandbox worker process — in a directory of its own under the server's data directory, its
 * workers calling back through `/_smtc/targets/{id}`. The list of instances is kept on disk
 * (0600), so a control plane killed and restarted on the same data brings every instance back
 * with its state and tokens, as it brings back its root target. Bounded in number; deleting an
 * instance removes its data.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ContractError } from '../../contract/errors.js';
import { INSTANCE_ID, instancePath, TargetEnvSchema } from '../../contract/http/target-instances-protocol.js';
import { persistedAdminToken } from '../identity/persisted-admin-token.js';
import { createReferenceTarget, type ReferenceTarget } from '../reference-target.js';
import type { ErrorLog } from './error-reply.js';
import type { ServedTarget, TargetInstances } from './route-handler.js';

type TargetEnv = z.output<typeof TargetEnvSchema>;

/** Live instances at once: each holds a worker process and a SQLite file. */
export const MAX_INSTANCES = 32;

const REGISTRY_FILE = 'registry.json';
const RegistrySchema = z.object({
  version: z.literal(1),
  instances: z.array(z.object({ id: z.string().regex(INSTANCE_ID), env: TargetEnvSchema })).max(MAX_INSTANCES),
});

interface Instance {
  readonly env: TargetEnv;
  /** Settles once the instance serves (or failed to start). */
  readonly started: Promise<ServedTarget & { readonly target: ReferenceTarget }>;
  served?: ServedTarget & { readonly target: ReferenceTarget };
  failed?: true;
}

export interface ReferenceInstancesOptions {
  /** The server's data directory; instances live in `<dataDir>/targets/<id>/`. */
  readonly dataDir: string;
  /** Sandbox worker processes of the root; an instance runs one (none when the root runs none). */
  readonly workers: number;
  readonly log: ErrorLog;
  /** The parts module every instance is assembled with (reference-parts.ts). */
  readonly partsModule?: string;
}

export class ReferenceInstances implements TargetInstances {
  private readonly dir: string;
  private readonly instances = new Map<string, Instance>();
  /** Instances whose creation has not answered yet: nobody knows their id. */
  private readonly creating = new Set<string>();
  private rootUrl: string | null = null;
  private closed = false;

  constructor(private readonly opts: ReferenceInstancesOptions) {
    this.dir = path.join(opts.dataDir, 'targets');
  }

  /** The server listens at `url`: bring back every instance the registry lists. */
  async attach(url: string): Promise<void> {
    this.rootUrl = url;
    const listed = this.loadRegistry();
    // An unreadable registry names nothing for sure: then no directory is taken for a leftover.
    if (listed !== null) this.removeUnlisted(new Set(listed.map((i) => i.id)));
    for (const { id, env } of listed ?? []) this.instances.set(id, this.start(id, env));
    await Promise.all([...this.instances.values()].map((i) => i.started.catch(() => {})));
  }

  /**
   * `clientGone` says whether the caller has gone (aborted, interrupted): an instance nobody
   * learnt the id of could never be deleted, so it is removed instead of handed out.
   */
  async create(env: TargetEnv, clientGone: () => boolean = () => false): Promise<{ id: string; served: ServedTarget }> {
    if (this.rootUrl === null || this.closed) throw new ContractError('unavailable', 'the server is not serving');
    if (this.instances.size >= MAX_INSTANCES) {
      throw new ContractError('entry_limit', 'too many target instances: delete some first');
    }
    const id = randomBytes(16).toString('base64url');
    const instance = this.start(id, env);
    this.instances.set(id, instance);
    this.creating.add(id);
    this.saveRegistry();
    try {
      const served = await instance.started;
      // close() removes what was being created when it began; this removes what the client left.
      if (this.closed) throw new ContractError('unavailable', 'the server is closing');
      if (clientGone()) throw new ContractError('unavailable', 'the client went away');
      return { id, served };
    } catch (e) {
      if (!this.closed) await this.destroy(id).catch(() => {});
      throw e;
    } finally {
      this.creating.delete(id);
    }
  }

  lookup(id: string): ServedTarget | 'restoring' | undefined {
    const i = this.instances.get(id);
    if (!i || i.failed) return undefined;
    return i.served ?? 'restoring';
  }

  async destroy(id: string): Promise<void> {
    const i = this.instances.get(id);
    if (!i) throw new ContractError('not_found');
    this.instances.delete(id);
    this.saveRegistry();
    try {
      const served = await i.started.catch(() => null);
      await served?.target.close();
    } finally {
      // Even when stopping failed: the registry no longer names it, so nothing would remove it later.
      this.removeDir(id);
    }
  }

  /**
   * Server shutdown: stop every instance, keep its data (a restart brings it back) — except an
   * instance still being created, whose creator never learns its id: it is removed entirely.
   */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.instances.entries()];
    await Promise.all(
      all.map(async ([id, i]) => {
        if (this.creating.has(id)) return this.destroy(id).catch(() => {});
        return (await i.started.catch(() => null))?.target.close();
      }),
    );
  }

  private start(id: string, env: TargetEnv): Instance {
    const tempDir = path.join(this.dir, id);
    const instance: Instance = {
      env,
      started: (async () => {
        mkdirSync(tempDir, { recursive: true, mode: 0o700 });
        const target = await createReferenceTarget(
          { ...env, tempDir },
          {
            workers: this.opts.workers > 0 ? 1 : 0,
            ...(this.opts.partsModule ? { partsModule: this.opts.partsModule } : {}),
          },
        );
        try {
          await target.attachControlPlane(`${this.rootUrl}${instancePath(id)}`);
        } catch (e) {
          await target.close();
          throw e;
        }
        return { target, adminToken: persistedAdminToken(tempDir), delegations: target.delegations ?? undefined };
      })(),
    };
    instance.started.then(
      (served) => {
        instance.served = served;
      },
      (e: unknown) => {
        instance.failed = true;
        this.opts.log({
          component: 'target-instances',
          event: 'start_failed',
          error: e instanceof Error ? e.name : typeof e,
        });
      },
    );
    return instance;
  }

  private removeDir(id: string): void {
    rmSync(path.join(this.dir, id), { recursive: true, force: true, maxRetries: 3 });
  }

  /**
   * An instance directory the registry does not name belongs to no instance: one that failed to
   * come back after a restart (dropped from the registry by the next save) or whose creation a
   * crash cut short. Nothing else could ever delete it.
   */
  private removeUnlisted(listed: ReadonlySet<string>): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return; // no instance was ever created
    }
    for (const name of names) if (INSTANCE_ID.test(name) && !listed.has(name)) this.removeDir(name);
  }

  /** The registered instances; null when the registry exists but cannot be read. */
  private loadRegistry(): { id: string; env: TargetEnv }[] | null {
    let text: string;
    try {
      text = readFileSync(path.join(this.dir, REGISTRY_FILE), 'utf8');
    } catch {
      return []; // first start
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = null;
    }
    const r = RegistrySchema.safeParse(raw);
    if (!r.success) {
      this.opts.log({ component: 'target-instances', event: 'registry_unreadable' });
      return null;
    }
    return r.data.instances;
  }

  private saveRegistry(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const body = {
      version: 1,
      instances: [...this.instances.entries()].filter(([, i]) => !i.failed).map(([id, i]) => ({ id, env: i.env })),
    };
    // Written whole, then renamed: a kill mid-write leaves the previous registry intact.
    const tmp = path.join(this.dir, `${REGISTRY_FILE}.tmp`);
    writeFileSync(tmp, JSON.stringify(body), { mode: 0o600 });
    renameSync(tmp, path.join(this.dir, REGISTRY_FILE));
  }
}
