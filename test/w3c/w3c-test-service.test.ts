/**
 * The reference's W3C test-service mode, driven the way W3C's test.py drives it (test.py itself
 * runs in w3c-referee.test.ts and `npm run w3c:trace-context`): a plain POST with real header lines
 * and a JSON array of callbacks; every callback receives the reference's own traceparent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, startW3CTestService, type W3CTestService } from '../../fixtures/w3c/w3c-test-service.js';
import { createReferenceTarget, type ReferenceTarget } from '../../reference-impl/reference-target.js';

const TRACE = '12345678901234567890123456789012';
const SPAN = '1234567890123456';

let tempDir: string;
let target: ReferenceTarget;
let relay: Awaited<ReturnType<typeof startRelay>>;
let service: W3CTestService;
let harness: Server;
let harnessUrl: string;
const received = new Map<string, string[]>();

beforeAll(async () => {
  tempDir = mkdtempSync(path.join(tmpdir(), 'smtc-w3c-test-'));
  relay = await startRelay();
  target = await createReferenceTarget({ tempDir, trustedServiceUrl: relay.url });
  service = await startW3CTestService(target, relay.queue, 0);
  harness = createServer((req, res) => {
    const lines: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]!.toLowerCase() === 'traceparent') lines.push(req.rawHeaders[i + 1]!);
    }
    received.set(req.url!, lines);
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => harness.listen(0, '127.0.0.1', resolve));
  harnessUrl = `http://127.0.0.1:${(harness.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await service?.close();
  relay?.server.close();
  harness?.close();
  await target?.close();
  rmSync(tempDir, { recursive: true, force: true });
});

/** POSTs like test.py (header lines as given) and returns each callback's traceparent lines. */
async function drive(headers: [string, string][], callbacks: number): Promise<string[][]> {
  received.clear();
  const urls = Array.from({ length: callbacks }, (_, i) => `${harnessUrl}/callback/${i}`);
  const body = JSON.stringify(urls.map((url) => ({ url, arguments: [] })));
  expect(await post(headers, body)).toBe(200);
  return urls.map((u) => received.get(new URL(u).pathname) ?? []);
}

/** A raw HTTP/1.1 POST: header lines exactly as given, so duplicates and casing survive. */
function post(headers: [string, string][], body: string): Promise<number> {
  const { hostname, port } = new URL(service.url);
  const head = [
    'POST /test HTTP/1.1',
    `Host: ${hostname}:${port}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...headers.map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head.join('\r\n')}\r\n\r\n${body}`));
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('latin1');
    });
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

describe('W3C test-service mode of the reference', () => {
  it('continues an OWS-padded traceparent, with its own parent-id on every callback', async () => {
    const seen = await drive([['traceparent', `\t 00-${TRACE}-${SPAN}-01 \t`]], 3);
    for (const lines of seen) expect(lines).toHaveLength(1);
    const parsed = seen.map((l) => l[0]!.split('-'));
    expect(parsed.map((p) => p[1])).toEqual([TRACE, TRACE, TRACE]);
    expect(new Set(parsed.map((p) => p[2])).size).toBe(3);
    expect(parsed.map((p) => p[2])).not.toContain(SPAN);
  }, 60_000);

  it('restarts on two traceparent lines, keeps a higher version and the Level 2 random flag', async () => {
    const [dup] = await drive(
      [
        ['traceparent', `00-${TRACE}-${SPAN}-01`],
        ['TraceParent', `00-${TRACE.replace('1', 'a')}-${SPAN}-01`],
      ],
      1,
    );
    expect(dup![0]!.split('-')[1]).not.toBe(TRACE);
    const [future] = await drive([['traceparent', `cc-${TRACE}-${SPAN}-01-what-the-future-will-be-like`]], 1);
    expect(future![0]!.split('-').slice(0, 2)).toEqual(['00', TRACE]);
    const [random] = await drive([['traceparent', `00-${TRACE}-${SPAN}-02`]], 1);
    expect(Number.parseInt(random![0]!.split('-')[3]!, 16) & 0x02).toBe(0x02);
  }, 60_000);

  it('refuses a body that is not a list of loopback callbacks', async () => {
    expect(await post([], JSON.stringify([{ url: 'http://example.com/x', arguments: [] }]))).toBe(400);
  });
});
