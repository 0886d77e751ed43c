/**
 * The bundled reference certified over real HTTP without a process per target: each
 * `create(env)` serves a fresh reference on a loopback port of this process (the same server
 * and protocol as `main.ts`) and returns the HTTP adapter's Target for it. Every call still
 * crosses a real socket, schema validation and the error mapping; only process-fault
 * scenarios need `http-module-target.ts`, which starts the server as separate processes.
 * Fast enough for suites that create a fresh target per property run.
 */
import path from 'node:path';
import type { HarnessEnv, Target, TargetModule } from '../contract/target.js';
import { connectHttpTarget, type HttpTarget } from '../fixtures/targets/http/http-target.js';
import { type ReferenceServer, startReferenceServer } from './server/start-reference-server.js';

const servers = new WeakMap<Target, ReferenceServer>();

const referenceServedOverHttp: TargetModule = {
  name: 'smtc-reference (served over loopback HTTP)',
  async create(env: HarnessEnv) {
    const { tempDir, ...rest } = env;
    const server = await startReferenceServer({
      dataDir: path.join(tempDir, 'served'),
      env: rest,
      enableTestControls: true,
      workers: 0,
    });
    try {
      const target = await connectHttpTarget(server.manifest);
      servers.set(target, server);
      return target;
    } catch (e) {
      await server.close();
      throw e;
    }
  },
  async destroy(t) {
    await (t as HttpTarget).close();
    await servers.get(t)?.close();
  },
};
export default referenceServedOverHttp;
