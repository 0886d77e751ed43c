/**
 * No process outlives what started it: the served reference's sandbox workers (their argv names
 * their slot directory, under the test's data dir) are gone after a control-plane SIGKILL, after
 * `destroy` — even with a worker stopped by SIGSTOP — and after the process that created the
 * target is itself SIGKILLed. Checked in /proc, with bounded waits.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../fixtures/faults/process-supervisor.js';
import { processesNaming } from '../../fixtures/faults/processes-naming.js';
import referenceOverHttp from '../../reference-impl/http-module-target.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'smtc-orphans-'));
  dirs.push(d);
  return d;
}

async function noneWithin(dir: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = processesNaming(dir);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesNaming(dir);
  }
  return left;
}

describe('no orphan processes', () => {
  it('workers die with a SIGKILLed control plane; destroy leaves nothing, even a stopped worker', async () => {
    const dir = tempDir();
    const t = await referenceOverHttp.create({ tempDir: dir });
    try {
      const before = await t.faults!.processIds!();
      expect(before.workers.filter((p) => p > 0)).toHaveLength(1);
      expect(processesNaming(dir).length).toBeGreaterThanOrEqual(2);
      await t.faults!.killPart!('control_plane', 'SIGKILL');
      for (const pid of [before.controlPlane, ...before.workers]) expect(processAlive(pid)).toBe(false);
      expect(await noneWithin(dir, 10_000)).toEqual([]);

      await t.faults!.restartPart!('control_plane');
      const after = await t.faults!.processIds!();
      expect(after.workers.every((p) => p > 0 && !before.workers.includes(p))).toBe(true);
      await t.faults!.killPart!('worker', 'SIGSTOP');
    } finally {
      await referenceOverHttp.destroy!(t);
    }
    expect(await noneWithin(dir, 15_000)).toEqual([]);
  });

  it('the served target and its workers exit when the process that created it is SIGKILLed', async () => {
    const dir = tempDir();
    const here = path.dirname(fileURLToPath(import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'served-target-child.ts'), dir], {
      cwd: path.resolve(here, '../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const ids = await new Promise<{ controlPlane: number; workers: number[] }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('helper not ready in 60 s')), 60_000);
        let buf = '';
        child.stdout!.on('data', (d: Buffer) => {
          buf += d.toString('utf8');
          const nl = buf.indexOf('\n');
          if (nl >= 0) {
            clearTimeout(timer);
            resolve(JSON.parse(buf.slice(0, nl)));
          }
        });
      });
      expect(processesNaming(dir).length).toBeGreaterThanOrEqual(2);
      child.kill('SIGKILL');
      await exited;
      expect(await noneWithin(dir, 15_000)).toEqual([]);
      for (const pid of [ids.controlPlane, ...ids.workers]) expect(processAlive(pid)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      // Belt and braces: never leave this test's processes behind, whatever failed above.
      for (const pid of processesNaming(dir)) process.kill(pid, 'SIGKILL');
    }
  });
});
