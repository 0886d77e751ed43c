#!/usr/bin/env node
// `npm run mutation -- <area> [stryker options]`: StrykerJS over reference-impl/<area>.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AREAS } from './areas.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [area, ...rest] = process.argv.slice(2);
if (!area || !Object.hasOwn(AREAS, area)) {
  console.error(
    `usage: npm run mutation -- <${Object.keys(AREAS).join('|')}> [stryker run options, e.g. --mutate FILE]`,
  );
  process.exit(2);
}
const stryker = path.join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js');
const r = spawnSync(process.execPath, [stryker, 'run', 'mutation/stryker.config.mjs', ...rest], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SMTC_MUTATION_AREA: area },
});
process.exit(r.status ?? 1);
