/**
 * The embedded default store: one SQLite file in WAL mode with synchronous=FULL, so a commit
 * that returned survives `kill -9` of the process (and of the machine's page cache flush).
 */
import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';

export type Db = Database.Database;

export function openSqlite(file: string): Db {
  // Every tenant's data: readable by this user only. SQLite gives the -wal and -shm files the
  // database file's mode, so creating it 0600 (and tightening an older one) covers all three.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}
