/**
 * Storage inspection (a test control): where the reference keeps memory data — the memory
 * tables, the SQLite database file and its write-ahead log, the in-memory search indexes —
 * and which of them still hold a body. Retention work already due runs first, as it would on
 * the next access to each namespace.
 */
import { existsSync, readFileSync } from 'node:fs';
import { ContractError } from '../../contract/errors.js';
import type { StorageResidue } from '../../contract/target.js';
import type { MemoryDeps } from './memory-deps.js';
import { purgeAllExpired } from './purge-expired.js';

const TABLES = ['sqlite:memory_records', 'sqlite:memory_approvals', 'sqlite:memory_audit'] as const;
const LOCATIONS = [...TABLES, 'sqlite:database-file', 'sqlite:write-ahead-log', 'search-index'] as const;

function fileHolds(file: string, needle: Buffer): boolean {
  return existsSync(file) && readFileSync(file).includes(needle);
}

export function storageResidue(deps: MemoryDeps, needle: string): StorageResidue {
  if (typeof needle !== 'string' || needle.length < 8 || needle.length > 256) {
    throw new ContractError('invalid_argument', 'needle must be a string of 8..256 characters');
  }
  purgeAllExpired(deps);
  const bytes = Buffer.from(needle, 'utf8');
  const found: string[] = deps.store.tablesHolding(needle);
  const file = deps.store.file;
  if (fileHolds(file, bytes)) found.push('sqlite:database-file');
  if (fileHolds(`${file}-wal`, bytes)) found.push('sqlite:write-ahead-log');
  if (deps.indexes.holdsText(needle)) found.push('search-index');
  return { locations: [...LOCATIONS], found };
}
