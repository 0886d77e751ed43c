/**
 * The pre-flight probe, run in its own process so a target that never finishes loading, never
 * answers or blocks the event loop can be killed from outside: loads the target (argv[2]),
 * creates one instance in a fresh directory, asks it something cheap, destroys it. Each step is
 * announced on stdout as one JSON line before it starts, so the parent can say which overran.
 * The parent owns the instance's directory (argv[3]) and removes it, however this process ends.
 */
import { checkTarget } from '../../contract/define-target.js';
import type { Target, TargetModule } from '../../contract/target.js';
import { loadTargetModule } from '../../fixtures/targets/load-target.js';

export type PreflightStep = 'load' | 'create' | 'check' | 'destroy';
export type PreflightLine =
  | { readonly step: PreflightStep }
  | { readonly ok: true; readonly serialSuites: boolean; readonly name: string }
  | { readonly error: string; readonly step: PreflightStep };

const say = (line: PreflightLine) => process.stdout.write(`${JSON.stringify(line)}\n`);

const spec = process.argv[2] ?? '';
const tempDir = process.argv[3] ?? '';
let step: PreflightStep = 'load';
let mod: TargetModule | undefined;
let target: Target | undefined;
const begin = (s: PreflightStep) => {
  step = s;
  say({ step: s });
};
// Stopped by the parent's watchdog: exit, so exit hooks stop what the target spawned.
process.once('SIGTERM', () => process.exit(143));
try {
  begin('load');
  mod = await loadTargetModule(spec);
  begin('create');
  target = await mod.create({ tempDir });
  begin('check');
  if (typeof target !== 'object' || target === null || typeof target.capabilities !== 'object') {
    throw new Error('create() did not return a Target (an object with capabilities)');
  }
  // The members its declared capabilities need, located (as the suites will check them).
  checkTarget(target, `target from ${mod.name}`);
  await target.telemetry?.health();
  await target.clock?.now();
  begin('destroy');
  await mod.destroy?.(target);
  target = undefined;
  say({ ok: true, serialSuites: mod.serialSuites === true, name: mod.name });
} catch (e) {
  const message = e instanceof Error ? e.message : String(e);
  say({ error: message.slice(0, 4000), step });
  if (target) await Promise.resolve(mod?.destroy?.(target)).catch(() => {});
  process.exitCode = 1;
}
// Whatever the target left running (timers, sockets) must not keep the probe alive.
process.exit();
