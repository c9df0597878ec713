import { existsSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../db/tables.js';
import { migrationStatus, type MigrationStatus } from '../db/migrate.js';
import { BackupError } from './backup-error.js';

/**
 * Copies the live SQLite database with SQLite's online backup, while the server keeps writing:
 * the copy is the database as it was at one instant. better-sqlite3's first step copies every
 * page at once, inside one read transaction (WAL lets writers go on meanwhile), so a busy server
 * cannot make the copy start over, as it could one taken in small steps.
 */
export async function snapshotSqlite(sourceFile: string, targetFile: string): Promise<void> {
  if (!existsSync(sourceFile))
    throw new BackupError(`There is no database at ${sourceFile} to back up (is DATA_DIR the server's?).`);
  const source = new SqliteDatabase(sourceFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(targetFile);
  } finally {
    source.close();
  }
}

export interface SqliteFileCheck {
  /** SQLite's `integrity_check`: `['ok']` or the problems it found. */
  integrity: string[];
  migrations: MigrationStatus;
}

/** Runs SQLite's integrity check on a database file and reads its schema level. */
export async function checkSqliteFile(file: string): Promise<SqliteFileCheck> {
  let sqlite: SqliteDatabase.Database;
  try {
    sqlite = new SqliteDatabase(file, { fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${file} cannot be opened as a SQLite database`, { cause: error });
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const integrity = (sqlite.pragma('integrity_check') as { integrity_check: string }[]).map(
      (row) => row.integrity_check,
    );
    return { integrity, migrations: await migrationStatus(db) };
  } catch (error) {
    if (error instanceof SqliteDatabase.SqliteError)
      throw new BackupError(`${file} is not a sound SQLite database: ${error.message}`, { cause: error });
    throw error;
  } finally {
    await db.destroy();
  }
}
