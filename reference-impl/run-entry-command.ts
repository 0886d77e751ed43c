/**
 * The command line that runs one of the reference's TypeScript entry points (the server, a
 * sandbox worker) through run-entry.mjs: precompiled JavaScript — except with a parts module
 * (TypeScript loaded at run time that replaces or wraps one of the reference's parts), where the
 * entry runs from source through tsx so the parts and the entry share one copy of each module
 * (a bundle would hold a second copy, and the parts' classes would not be the entry's).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RUN_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'run-entry.mjs');

export function runEntryArgs(entry: string, opts: { readonly partsModule?: string | undefined } = {}): string[] {
  return [RUN_ENTRY, ...(opts.partsModule ? ['--from-source'] : []), entry];
}
