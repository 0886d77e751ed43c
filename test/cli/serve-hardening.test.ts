/**
 * `smtc serve` on a shared machine: it refuses a non-loopback --host unless told otherwise,
 * its pid file names the process with its start time, the manifest's kill command signals a
 * process only while it is still the one the file names (never a reused pid), and a clean
 * shutdown removes the pid file; a SIGTERM while it creates a target instance leaves no trace of
 * that instance (no registry entry, no directory, no process).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../cli/loopback-host.js';
import { serve } from '../../cli/serve-command.js';
import { processStartTime } from '../../cli/serve-pid-file.js';
import { ProcessSupervisor, processAlive } from '../../fixtures/faults/process-supervisor.js';
import { processesNaming } from '../../fixtures/faults/processes-naming.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { startSmtcServe } from '../selftest/smtc-serve.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-serve-hardening-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('smtc serve hardening', () => {
  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.8.9.1', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.org', '128.0.0.1', '']) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });

  it('refuses a non-loopback --host before starting anything', async () => {
    const dataDir = path.join(dir, 'refused');
    const opts = { port: 0, dataDir, workers: 0, enableTestControls: false, out: () => {} };
    await expect(serve({ ...opts, host: '0.0.0.0' })).rejects.toThrow(/not a loopback address.*--allow-non-loopback/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('the command line says so in one line and exits 2', () => {
    const r = spawnSync(
      process.execPath,
      [
        path.join(REPO_ROOT, 'cli/smtc.mjs'),
        'serve',
        '--host',
        '0.0.0.0',
        '--port',
        '0',
        '--data-dir',
        path.join(dir, 'cli'),
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(
      /^smtc serve: --host 0\.0\.0\.0 is not a loopback address.*--allow-non-loopback[^\n]*$/,
    );
  }, 70_000);

  it('pid file: ours only, checked before a kill, removed on a clean shutdown', async () => {
    const dataDir = path.join(dir, 'served');
    const s = await serve({ host: '127.0.0.1', port: 0, dataDir, workers: 0, enableTestControls: true, out: () => {} });
    const pidFile = path.join(dataDir, 'control-plane.pid');
    let closed = false;
    try {
      expect(statSync(pidFile).mode & 0o777).toBe(0o600);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(readFileSync(pidFile, 'utf8').trim()).toBe(`${process.pid} ${processStartTime(process.pid)}`);
      const kill = (JSON.parse(readFileSync(s.manifestFile, 'utf8')) as { process: { kill: string[] } }).process.kill;
      const run = (signal: string) =>
        spawnSync(
          kill[0]!,
          kill.slice(1).map((a) => a.replace('{signal}', signal)),
          { encoding: 'utf8' },
        );
      // A stranger's process under a pid the file once named (same pid, another start time): untouched.
      const stranger = spawn('sleep', ['30'], { stdio: 'ignore' });
      const pid = stranger.pid!;
      try {
        const saved = readFileSync(pidFile, 'utf8');
        writeFileSync(pidFile, `${pid} 1\n`);
        const refused = run('SIGTERM');
        expect(refused.status).toBe(3);
        expect(refused.stderr).toMatch(/stale pid file/);
        expect(processAlive(pid)).toBe(true);
        // The same process named with its real start time is signalled.
        writeFileSync(pidFile, `${pid} ${processStartTime(pid)}\n`);
        const exited = new Promise((r) => stranger.once('exit', r));
        expect(run('SIGTERM').status).toBe(0);
        await exited;
        writeFileSync(pidFile, saved);
      } finally {
        stranger.kill('SIGKILL');
      }
      await s.close();
      closed = true;
      expect(existsSync(pidFile)).toBe(false);
    } finally {
      if (!closed) await s.close();
    }
  });

  it('SIGTERM while an instance is being created: no registry entry, no directory, no process of it is left', async () => {
    const dataDir = path.join(dir, 'interrupted-create');
    const supervisor = new ProcessSupervisor();
    try {
      const { url, manifest } = await startSmtcServe(supervisor, dataDir, 1);
      const admin = (JSON.parse(readFileSync(manifest, 'utf8')) as { adminToken: string }).adminToken;
      const server = childPid(dataDir);
      const creating = request(`${url}/_smtc/targets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: '{}',
      }).then(
        (r) => r.statusCode,
        () => 'no answer',
      );
      const targets = path.join(dataDir, 'targets');
      // The instance's worker is starting (its argv names the instance's directory): mid-creation.
      await until(() => processesNaming(targets).length > 0);
      process.kill(server, 'SIGTERM');
      await until(() => !processAlive(server), 15_000);
      expect(await creating).not.toBe(200);
      expect(readdirSync(targets)).toEqual(['registry.json']);
      expect(JSON.parse(readFileSync(path.join(targets, 'registry.json'), 'utf8'))).toEqual({
        version: 1,
        instances: [],
      });
      await until(() => processesNaming(dataDir).length === 0, 5_000);
    } finally {
      await supervisor.stopAll();
    }
  }, 90_000);
});

/** The pid the data directory's pid file names (smtc serve writes it when it is ready). */
function childPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'control-plane.pid'), 'utf8').split(' ')[0]);
}

async function until(done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
