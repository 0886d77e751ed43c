import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProcessSupervisor } from '../../fixtures/faults/process-supervisor.js';

const script = `
const { spawn } = require('node:child_process');
// a grandchild that would outlive a naive kill
const g = spawn(process.execPath, ['-e', 'setInterval(()=>{}, 1000)'], { stdio: 'ignore' });
console.log('ready ' + g.pid);
let n = 0; setInterval(() => { n++; console.log('tick ' + n); }, 20);
`;

/** Running (a zombie left for a non-reaping init counts as dead). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

describe('process supervisor', () => {
  it('starts, pauses, resumes and SIGKILLs a process group, leaving no orphan', async () => {
    const sup = new ProcessSupervisor();
    try {
      const p = await sup.start({ name: 'w', command: process.execPath, args: ['-e', script], ready: /^ready \d+$/ });
      const grandchild = Number(p.readyLine.split(' ')[1]);
      expect(alive(grandchild)).toBe(true);
      await sup.pause('w');
      const frozen = p.output().length;
      await new Promise((r) => setTimeout(r, 150));
      expect(p.output().length).toBe(frozen); // a stopped process writes nothing
      await sup.resume('w');
      await new Promise((r) => setTimeout(r, 150));
      expect(p.output().length).toBeGreaterThan(frozen);
      await sup.kill('w');
      expect((await p.exited()).signal).toBe('SIGKILL');
      await new Promise((r) => setTimeout(r, 100));
      expect(alive(grandchild)).toBe(false);
    } finally {
      await sup.stopAll();
    }
  });

  it('bounds the wait for readiness and reports the output', async () => {
    const sup = new ProcessSupervisor();
    await expect(
      sup.start({
        name: 'x',
        command: process.execPath,
        args: ['-e', 'console.log("nope"); setInterval(()=>{},1000)'],
        ready: /^ready$/,
        readyTimeoutMs: 500,
      }),
    ).rejects.toThrow(/not ready within 500 ms[\s\S]*nope/);
    await sup.stopAll();
  });

  it('restarts a killed process with the same spec', async () => {
    const sup = new ProcessSupervisor();
    try {
      const a = await sup.start({
        name: 'r',
        command: process.execPath,
        args: ['-e', 'console.log("ready"); setInterval(()=>{},1000)'],
        ready: /^ready$/,
      });
      const b = await sup.restart('r');
      expect(b.pid).not.toBe(a.pid);
      expect(alive(a.pid)).toBe(false);
    } finally {
      await sup.stopAll();
    }
  });
});
