/**
 * The reference as a W3C Trace Context test service (w3c-test-service.ts), for running the
 * W3C harness `test/test.py` against it:
 *
 *   node --import tsx reference-impl/w3c/main.ts --enable-test-controls [--port 5000]
 *
 * Test-only, so it refuses to start without `--enable-test-controls`. Prints
 * `{"ready":true,"url":"http://127.0.0.1:PORT/test"}` once it accepts requests; SIGTERM/SIGINT
 * close it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startRelay, startW3CTestService } from '../../fixtures/w3c/w3c-test-service.js';
import { createReferenceTarget } from '../reference-target.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'enable-test-controls': { type: 'boolean', default: false },
  },
  strict: true,
});
if (!values['enable-test-controls']) {
  process.stderr.write('w3c test service: test-only, start it with --enable-test-controls\n');
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write('w3c test service: --port must be an integer in 0..65535\n');
  process.exit(2);
}

const tempDir = mkdtempSync(path.join(tmpdir(), 'smtc-w3c-'));
const relay = await startRelay();
const target = await createReferenceTarget({ tempDir, trustedServiceUrl: relay.url });
const service = await startW3CTestService(target, relay.queue, port);
process.stdout.write(`${JSON.stringify({ ready: true, url: `${service.url}/test` })}\n`);

async function stop(): Promise<void> {
  await service.close();
  relay.server.close();
  await target.close();
  rmSync(tempDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
