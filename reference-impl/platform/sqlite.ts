/**
 * The embedded default store: one SQLite file in WAL mode with synchronous=FULL, so a commit
 * that returned survives `kill -9` of the process (and of the machine's page cache flush).
 */
import Database from 'better-sqlite3';

export type Db = Database.Database;

export function openSqlite(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}
