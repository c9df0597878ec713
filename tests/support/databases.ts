import { randomBytes } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { SQLITE_FILE_NAME } from '../../src/server/platform/db/database.js';

/** Where the PostgreSQL runs of the server suites create their databases; unset skips them. */
export const TEST_POSTGRES_URL = process.env['TEST_POSTGRES_URL'];

export type DialectUnderTest = 'sqlite' | 'postgres';

export const postgresSkipReason =
  'TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)';

/** Databases migrated once per run by database-templates-setup.ts, for test servers to copy. */
export interface DatabaseTemplates {
  /** A migrated SQLite file, to copy into a server's data directory. */
  sqliteFile: string;
  /** A migrated PostgreSQL database (nobody may connect), to create databases from. */
  postgresName?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/** The run's templates; undefined where no global setup made them (a test server then migrates). */
const databaseTemplates = (): DatabaseTemplates | undefined => inject('databaseTemplates');

export async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** TEST_POSTGRES_URL with another database. */
export function postgresDatabaseUrl(name: string): string {
  if (!TEST_POSTGRES_URL) throw new Error(postgresSkipReason);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export const dropPostgresDatabase = (name: string): Promise<void> =>
  withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`)).then(
    () => undefined,
  );

/**
 * A fresh PostgreSQL database for one suite; returns its URL. Empty, or with `migrated` a copy of
 * the run's migrated template when there is one (the server's own migration then finds nothing to do).
 */
export async function createPostgresDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_POSTGRES_URL) throw new Error(postgresSkipReason);
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? databaseTemplates()?.postgresName : undefined;
  await withAdminClient(async (client) => {
    await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    // A commit then returns without waiting for its log to reach the disk (a few milliseconds each
    // on a test machine): the same answers and order, only a crash of PostgreSQL could lose them.
    await client.query(`alter database ${name} set synchronous_commit = off`);
  });
  return { url: postgresDatabaseUrl(name), drop: () => dropPostgresDatabase(name) };
}

/**
 * Puts a copy of the run's migrated SQLite database into a server's data directory, when there is
 * one; the server's own migration then finds nothing to do.
 */
export async function placeMigratedSqlite(dataDir: string): Promise<void> {
  const template = databaseTemplates()?.sqliteFile;
  if (template) await copyFile(template, join(dataDir, SQLITE_FILE_NAME));
}
