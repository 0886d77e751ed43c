import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Certification } from '../certify/verdict.js';

export function writeVerdictJson(dir: string, c: Certification): string {
  const file = path.join(dir, 'verdict.json');
  writeFileSync(file, `${JSON.stringify(c, null, 2)}\n`);
  return file;
}
