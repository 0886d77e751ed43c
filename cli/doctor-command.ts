/**
 * `smtc doctor`: every service the kit can use, where it was found or how it would be
 * provisioned, and its version. Exit 0 when the selection can be fully run (each service it
 * needs is ready, or — without --provision — can be built by `smtc certify`), else 1; 2 for
 * bad usage. `--provision` builds what is missing now (CI); `--exports` prints
 * `export NAME='path'` lines for the binaries found, on stdout, for a shell to `eval`.
 */
import { type Inventory, inventory } from '../fixtures/services/kit-services.js';
import { parseOnlyList, selectionOf } from './certify/selection.js';
import { terminalLine } from './report/terminal-text.js';

export interface DoctorFlags {
  readonly profile?: string;
  readonly only?: string;
  readonly all?: boolean;
  readonly provision?: boolean;
  /** commander's `--no-provision` (default true). */
  readonly provisioning?: boolean;
  readonly exports?: boolean;
}

function shellQuote(v: string): string {
  return `'${v.replace(/'/g, `'\\''`)}'`;
}

export function renderInventory(inv: Inventory, heading: string): string {
  const docker =
    inv.docker === 'not asked'
      ? 'not asked (everything was found locally)'
      : inv.docker
        ? 'reachable (testcontainers)'
        : 'no engine answers: skipped';
  const lines = [
    heading,
    `  cache ${inv.cacheDir} (SMTC_CACHE_DIR) · Go ${inv.go?.version ?? 'not found'} · Docker ${docker}`,
  ];
  const w = Math.max(...inv.rows.map((r) => r.title.length));
  for (const r of inv.rows) {
    const state = r.needed ? r.state : `${r.state}, not needed`;
    lines.push(
      `  ${r.title.padEnd(w)}  ${state.padEnd(10)}  ${(r.version ?? '-').padEnd(8)}  ${terminalLine(r.where)}`,
      `  ${' '.repeat(w)}  used by ${r.usedBy}${r.fix && r.state !== 'ready' ? `; fix: ${r.fix}` : ''}`,
    );
  }
  lines.push(
    inv.runnable
      ? '  the selection can be fully run'
      : `  the selection cannot be fully run: ${inv.rows
          .filter((r) => r.needed && r.state !== 'ready' && r.state !== 'buildable')
          .map((r) => r.title)
          .join(', ')} missing`,
  );
  return `${lines.join('\n')}\n`;
}

export async function doctor(flags: DoctorFlags): Promise<number> {
  const selection = selectionOf({
    ...(flags.profile !== undefined ? { profile: flags.profile } : {}),
    ...(flags.only !== undefined ? { only: parseOnlyList(flags.only) } : {}),
  });
  // Exiting (not dying) on a signal runs the exit hook that stops a build's process group.
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  const provision = flags.provisioning !== false && process.env.SMTC_NO_PROVISION !== '1';
  // With --exports, stdout is for the shell: the report goes to stderr.
  const report = flags.exports ? process.stderr : process.stdout;
  const inv = await inventory({
    requirements: selection.requirements,
    all: Boolean(flags.all),
    build: Boolean(flags.provision),
    provision,
    progress: (line) => report.write(`${line}\n`),
  });
  const what = selection.profile ? `profile ${selection.profile}` : `--only ${selection.requirements.join(',')}`;
  report.write(
    renderInventory(
      inv,
      `smtc doctor: ${what}${flags.all ? ' and the kit’s own tests (--all)' : ''}${provision ? '' : ' (--no-provision)'}`,
    ),
  );
  if (flags.exports) {
    for (const r of inv.rows)
      if (r.exportAs) process.stdout.write(`export ${r.exportAs.name}=${shellQuote(r.exportAs.value)}\n`);
  }
  return inv.runnable ? 0 : 1;
}
