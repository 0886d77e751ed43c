/**
 * `smtc doctor` as a user runs it, on a machine made empty for the purpose (a temp home and
 * SMTC_CACHE_DIR, a PATH without the services, no Go, a Docker host that refuses): it lists
 * every service with where it is or why not, exits 1 when the selected profile needs what is
 * missing and 0 when it does not, hands found binaries on as shell exports, and refuses an
 * unknown profile. Nothing is built. Three CLI starts: a few seconds on a quiet machine.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctor as runDoctor } from '../../cli/doctor-command.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function doctor(args: readonly string[], extra: NodeJS.ProcessEnv = {}): Promise<Run> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'smtc-doctor-'));
  const env: NodeJS.ProcessEnv = {
    PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: path.join(root, 'home'),
    SMTC_CACHE_DIR: path.join(root, 'cache'),
    GO_BIN: path.join(root, 'no-go'),
    DOCKER_HOST: 'tcp://127.0.0.1:9', // nothing listens: no engine answers, deterministically
    ...extra,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'cli/smtc.mjs'), 'doctor', ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function fakeToxiproxy(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'smtc-doctor-bin-')), 'toxiproxy-server');
  writeFileSync(file, '#!/bin/sh\necho "toxiproxy-server version 2.12.0"\n');
  chmodSync(file, 0o755);
  return file;
}

describe('smtc doctor', () => {
  it('exits 1 for a profile whose services are missing, 0 for one that needs none, and exports what it found', async () => {
    const checker = path.join(mkdtempSync(path.join(os.tmpdir(), 'smtc-doctor-hc-')), 'history-check');
    mkdirSync(path.dirname(checker), { recursive: true });
    writeFileSync(checker, '');
    const [threadState, memory, found] = await Promise.all([
      doctor(['--profile', 'thread-state']),
      doctor(['--only', 'R05']),
      doctor(['--profile', 'thread-state@1', '--exports'], {
        TOXIPROXY_BIN: fakeToxiproxy(),
        SMTC_HISTORY_CHECK_BIN: checker,
      }),
    ]);

    expect(threadState.code, threadState.stderr).toBe(1);
    expect(threadState.stdout).toMatch(/^smtc doctor: profile thread-state@1\n/);
    expect(threadState.stdout).toMatch(/· Go not found · Docker no engine answers: skipped/);
    expect(threadState.stdout).toMatch(
      /Toxiproxy +missing +- +no Toxiproxy binary installed \(PATH, ~\/go\/bin\) or in the cache; no Docker engine answers and no Go toolchain to build it/,
    );
    expect(threadState.stdout).toMatch(
      /fix: install Go \(https:\/\/go\.dev\/dl\/\), then run `npx smtc doctor --provision`/,
    );
    expect(threadState.stdout).toMatch(/the selection cannot be fully run: Toxiproxy, history-check missing\n$/);

    expect(memory.code, memory.stderr).toBe(0);
    expect(memory.stdout).toMatch(/^smtc doctor: --only R05\n/);
    expect(memory.stdout).toMatch(/Toxiproxy +missing, not needed/);
    expect(memory.stdout).toMatch(/the selection can be fully run\n$/);

    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toMatch(/^export TOXIPROXY_BIN='[^']+\/toxiproxy-server'$/m);
    expect(found.stderr).toMatch(/Toxiproxy +ready +v2\.12\.0 +\S+ \(TOXIPROXY_BIN\)/);
  }, 240_000);

  it('refuses an unknown profile before looking at anything', async () => {
    await expect(runDoctor({ profile: 'no-such-profile' })).rejects.toThrow(/no-such-profile/);
  });
});
