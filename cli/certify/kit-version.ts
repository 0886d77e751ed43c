import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

let cached: string | undefined;

/** The kit's version (package.json): recorded in verdicts and bound into replay tokens. */
export function kitVersion(): string {
  cached ??= (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
