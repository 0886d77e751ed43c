/**
 * The provisioning decisions, on real files and processes in a temp SMTC_CACHE_DIR: scripts
 * that stand in for a wrong-version binary and for a Go toolchain (so no real build runs here),
 * a cache dir that cannot be written, a build that hangs, the real Go toolchain pointed at an
 * unreachable module proxy, and the machine's Toxiproxy (as the kit finds it) copied into the cache.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notRun } from '../../fixtures/scenario/need.js';
import { cachePaths, locateBinary } from '../../fixtures/services/locate-binary.js';
import { type ProvisionOptions, provisionBinary } from '../../fixtures/services/provision-binary.js';
import { TOXIPROXY } from '../../fixtures/services/service-binaries.js';

function script(file: string, body: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A machine with nothing installed: PATH without Toxiproxy, an empty home, an empty cache, a stand-in `go`. */
function machine(goBody?: string) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'smtc-prov-'));
  const log = path.join(root, 'go.log');
  const go = script(
    path.join(root, 'bin/go'),
    `echo "$*" >> "${log}"
case "$1" in
  version) echo "go version go1.99.0 linux/amd64" ;;
  *) ${goBody ?? 'exit 1'} ;;
esac`,
  );
  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/bin:/bin',
    HOME: path.join(root, 'home'),
    SMTC_CACHE_DIR: path.join(root, 'cache'),
    GO_BIN: go,
  };
  const goCalls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  return { root, env, goCalls };
}

// The stand-in `go install` writes a "Toxiproxy" that reports the pinned version.
const INSTALLS_TOXIPROXY = `printf '#!/bin/sh\\necho "toxiproxy-server version 2.12.0"\\n' > "$GOBIN/server"; chmod +x "$GOBIN/server"`;

const noDocker = async () => false;

/** Alive and not a zombie (a killed orphan may wait for a reaper that never comes). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function stamp(env: NodeJS.ProcessEnv, version = TOXIPROXY.version) {
  const c = cachePaths(TOXIPROXY, env);
  mkdirSync(c.dir, { recursive: true });
  writeFileSync(c.stamp, JSON.stringify({ service: 'toxiproxy', version, go: 'go1.99.0', builtAt: 'x' }));
  return c;
}

describe('provisioning a service binary', () => {
  it('an explicit URL wins; an explicit binary that is not the service is refused, never replaced by a build', async () => {
    const m = machine(INSTALLS_TOXIPROXY);
    expect(locateBinary(TOXIPROXY, { ...m.env, TOXIPROXY_URL: 'http://127.0.0.1:8474' })).toMatchObject({
      kind: 'url',
      url: 'http://127.0.0.1:8474',
    });
    const impostor = script(path.join(m.root, 'impostor'), 'echo "hello"');
    const p = await provisionBinary(TOXIPROXY, {
      env: { ...m.env, TOXIPROXY_BIN: impostor },
      build: true,
      docker: noDocker,
    });
    expect(p).toMatchObject({
      kind: 'missing',
      reason: `TOXIPROXY_BIN=${impostor} does not identify itself as expected`,
    });
    expect(m.goCalls()).toEqual([]);
  });

  it("reads the service settings through the run settings' schema: a malformed URL is refused by name, its value not echoed", () => {
    const m = machine();
    const r = locateBinary(TOXIPROXY, { ...m.env, TOXIPROXY_URL: 'ftp://\u001b[2Jhost' });
    expect(r).toMatchObject({ kind: 'missing', explicit: true, reason: 'TOXIPROXY_URL: a http(s) URL' });
    expect(locateBinary(TOXIPROXY, { ...m.env, TOXIPROXY_URL: 'ftp://x' }, { binaryOnly: true })).toMatchObject({
      kind: 'missing',
      explicit: false,
    });
  });

  it('asks a binary what it is once per version of the file, not on every lookup', () => {
    const m = machine();
    const runs = path.join(m.root, 'runs.log');
    const bin = script(path.join(m.root, 'tp'), `echo x >> "${runs}"; echo "toxiproxy-server version 2.12.0"`);
    const env = { ...m.env, TOXIPROXY_BIN: bin };
    const count = () => readFileSync(runs, 'utf8').trim().split('\n').length;
    expect(locateBinary(TOXIPROXY, env)).toMatchObject({ kind: 'binary', version: 'v2.12.0' });
    expect(locateBinary(TOXIPROXY, env)).toMatchObject({ kind: 'binary', version: 'v2.12.0' });
    expect(count()).toBe(1);
    // Replaced (a rebuild): asked again, and its new answer is the one used.
    script(bin, `echo x >> "${runs}"; echo "toxiproxy-server version 2.1.0 (rebuilt)"`);
    expect(locateBinary(TOXIPROXY, env)).toMatchObject({ kind: 'binary', version: 'v2.1.0' });
    expect(count()).toBe(2);
  });

  it('a wrong-version cached binary is detected and rebuilt (with a progress line and its time); the next run reuses the cache', async () => {
    const m = machine(INSTALLS_TOXIPROXY);
    const c = stamp(m.env);
    script(c.bin, 'echo "toxiproxy-server version 2.1.0"');
    expect(locateBinary(TOXIPROXY, m.env)).toMatchObject({
      kind: 'missing',
      reason: `cached Toxiproxy binary ${c.bin} reports v2.1.0, not v2.12.0`,
    });
    const lines: string[] = [];
    const o: ProvisionOptions = { env: m.env, build: true, docker: noDocker, progress: (l) => lines.push(l) };
    expect(await provisionBinary(TOXIPROXY, o)).toMatchObject({
      kind: 'binary',
      bin: c.bin,
      source: 'cache',
      version: 'v2.12.0',
    });
    expect(m.goCalls()).toEqual(['version', 'install github.com/Shopify/toxiproxy/v2/cmd/server@v2.12.0']);
    expect(lines[0]).toMatch(
      /reports v2\.1\.0, not v2\.12\.0: building Toxiproxy v2\.12\.0 with go1\.99\.0 into .* \(at most 600 s\)/,
    );
    expect(lines[1]).toMatch(/^smtc: Toxiproxy v2\.12\.0 built in \d+\.\d s: /);
    expect(JSON.parse(readFileSync(c.stamp, 'utf8'))).toMatchObject({
      service: 'toxiproxy',
      version: 'v2.12.0',
      go: 'go1.99.0',
    });
    // Second run: found in the cache, Go not asked again.
    expect(await provisionBinary(TOXIPROXY, o)).toMatchObject({ kind: 'binary', source: 'cache' });
    expect(m.goCalls()).toHaveLength(2);
  });

  it('a corrupt cached binary, or one without a valid stamp, is not used', () => {
    const m = machine();
    const c = stamp(m.env);
    writeFileSync(c.bin, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    chmodSync(c.bin, 0o755);
    expect(locateBinary(TOXIPROXY, m.env)).toMatchObject({
      kind: 'missing',
      reason: expect.stringMatching(/does not run/),
    });
    stamp(m.env, 'v2.11.0');
    expect(locateBinary(TOXIPROXY, m.env)).toMatchObject({
      kind: 'missing',
      reason: expect.stringMatching(/has no valid stamp for v2\.12\.0/),
    });
  });

  it('a cache dir that cannot be written gives one clear line and builds nothing', async () => {
    const m = machine(INSTALLS_TOXIPROXY);
    // Beneath a regular file: unwritable for every user, root included (root ignores mode bits).
    const file = path.join(m.root, 'a-file');
    writeFileSync(file, '');
    const p = await provisionBinary(TOXIPROXY, {
      env: { ...m.env, SMTC_CACHE_DIR: file },
      build: true,
      docker: noDocker,
    });
    expect(p).toMatchObject({
      kind: 'missing',
      reason: `cache dir ${file}/toxiproxy/v2.12.0 is unusable (ENOTDIR): set SMTC_CACHE_DIR to a writable directory`,
    });
    if (process.getuid?.() !== 0) {
      const ro = path.join(m.root, 'read-only');
      mkdirSync(ro, { mode: 0o555 });
      const q = await provisionBinary(TOXIPROXY, {
        env: { ...m.env, SMTC_CACHE_DIR: ro },
        build: true,
        docker: noDocker,
      });
      expect(q).toMatchObject({ kind: 'missing', reason: expect.stringMatching(/is read-only \(EACCES\)/) });
    }
    expect(m.goCalls().filter((c) => c !== 'version')).toEqual([]);
  });

  it('a build that hangs is stopped at its bound, with everything it started', async () => {
    const m = machine();
    const pidFile = path.join(m.root, 'sleeper.pid');
    const hang = machine(`sleep 60 & echo $! > "${pidFile}"; wait`);
    const started = Date.now();
    const p = await provisionBinary(TOXIPROXY, { env: hang.env, build: true, docker: noDocker, timeoutMs: 1_500 });
    expect(p).toMatchObject({
      kind: 'missing',
      reason: expect.stringMatching(/^go install toxiproxy v2\.12\.0 did not finish within 2 s \(stopped\)/),
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 200));
    expect(running(pid)).toBe(false); // the build's own child is gone too
    expect(m.goCalls()).toEqual([]);
  });

  it('a real Go toolchain that cannot reach the module proxy gives one line naming it', async (ctx) => {
    const m = machine();
    const real = { ...m.env, GO_BIN: 'go', PATH: process.env.PATH ?? '' };
    const gopath = path.join(m.root, 'gopath');
    const env = {
      ...real,
      GOPATH: gopath,
      GOMODCACHE: path.join(gopath, 'mod'),
      GOCACHE: path.join(m.root, 'gocache'),
      GOPROXY: 'http://127.0.0.1:9', // nothing listens on the discard port
      GOSUMDB: 'off',
      GOFLAGS: '',
      GOTOOLCHAIN: 'local',
    };
    const p = await provisionBinary(TOXIPROXY, { env, build: true, docker: noDocker, timeoutMs: 60_000 });
    if (p.kind === 'missing' && /no Go toolchain/.test(p.reason)) notRun(ctx, 'no Go toolchain on PATH');
    expect(p).toMatchObject({
      kind: 'missing',
      reason: expect.stringMatching(
        /^go install toxiproxy v2\.12\.0: Go could not download the module \(GOPROXY=http:\/\/127\.0\.0\.1:9 not reachable\)/,
      ),
    });
  });

  it('with no Docker and no Go the fix names installing Go; with Docker answering nothing is built', async () => {
    const m = machine(INSTALLS_TOXIPROXY);
    const p = await provisionBinary(TOXIPROXY, {
      env: { ...m.env, GO_BIN: path.join(m.root, 'no-go') },
      build: true,
      docker: noDocker,
    });
    expect(p).toMatchObject({ kind: 'missing', fix: expect.stringMatching(/^install Go/) });
    expect(await provisionBinary(TOXIPROXY, { env: m.env, build: true, docker: async () => true })).toMatchObject({
      kind: 'docker',
    });
    expect(await provisionBinary(TOXIPROXY, { env: m.env, build: false, docker: noDocker })).toMatchObject({
      kind: 'buildable',
    });
    expect(m.goCalls().filter((c) => c !== 'version')).toEqual([]);
  });

  it('the Toxiproxy the kit finds (built with Go: `doctor --provision`), copied into a temp cache with its stamp, is found there with its version', async (ctx) => {
    // The machine's own Toxiproxy as the kit finds it (CI provisions it before the tests);
    // a `go install` build answers "version git" and its version comes from its build info.
    const found = locateBinary(TOXIPROXY, process.env, { binaryOnly: true });
    if (found.kind !== 'binary') notRun(ctx, 'no Toxiproxy binary to copy: run `npx smtc doctor --provision`');
    const m = machine();
    const c = stamp(m.env);
    copyFileSync(found.bin, c.bin);
    chmodSync(c.bin, 0o755);
    expect(locateBinary(TOXIPROXY, m.env)).toMatchObject({
      kind: 'binary',
      bin: c.bin,
      source: 'cache',
      version: 'v2.12.0',
    });
  });
});
