import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase, SQLITE_FILE_NAME } from '../../src/server/platform/db/database.js';
import { migrateToLatest } from '../../src/server/platform/db/migrate.js';
import {
  type DatabaseTemplates,
  dropPostgresDatabase,
  postgresDatabaseUrl,
  TEST_POSTGRES_URL,
  withAdminClient,
} from './databases.js';
import { isAlive } from './process-alive.js';

const TEMPLATE_PREFIX = 'portal_template_';

/** A run that was killed left its template behind; other runs on this machine may be using theirs. */
async function dropTemplatesOfDeadRuns(): Promise<void> {
  const { rows } = await withAdminClient((client) =>
    client.query<{ datname: string }>('select datname from pg_database where datname like $1', [
      `${TEMPLATE_PREFIX}%`,
    ]),
  );
  for (const { datname } of rows) {
    const pid = Number(datname.slice(TEMPLATE_PREFIX.length));
    if (Number.isInteger(pid) && (pid === process.pid || !isAlive(pid))) await dropPostgresDatabase(datname);
  }
}

/**
 * Global setup of the Node tests: runs the migrations once per run, into a SQLite file and (with
 * TEST_POSTGRES_URL) a PostgreSQL database, which each test server then copies instead of
 * migrating an empty database itself (about two seconds a suite on PostgreSQL, the same on a
 * busy machine as the rest of a small suite). Returns the teardown that removes both.
 */
export default async function prepareDatabaseTemplates(project: TestProject): Promise<() => Promise<void>> {
  const sqliteDir = await mkdtemp(join(tmpdir(), 'portal-template-'));
  const postgresName = TEST_POSTGRES_URL ? `${TEMPLATE_PREFIX}${process.pid}` : undefined;
  const teardown = async () => {
    await rm(sqliteDir, { recursive: true, force: true });
    if (postgresName) await dropPostgresDatabase(postgresName);
  };
  try {
    const sqlite = createDatabase({ databaseUrl: undefined, dataDir: sqliteDir });
    await migrateToLatest(sqlite.db);
    // Closing the last connection folds the write-ahead log into the file, so the file is all of it.
    await sqlite.db.destroy();
    const sqliteFile = join(sqliteDir, SQLITE_FILE_NAME);
    if (existsSync(`${sqliteFile}-wal`))
      throw new Error(`${sqliteFile}-wal is left after closing the template`);

    if (postgresName) {
      await dropTemplatesOfDeadRuns();
      await withAdminClient((client) => client.query(`create database ${postgresName}`));
      const postgres = createDatabase({ databaseUrl: postgresDatabaseUrl(postgresName), dataDir: sqliteDir });
      await migrateToLatest(postgres.db);
      await postgres.db.destroy();
      // PostgreSQL copies a database only while nobody is connected to it: nobody may, from now on.
      await withAdminClient((client) =>
        client.query(`alter database ${postgresName} allow_connections false`),
      );
    }

    const templates: DatabaseTemplates = { sqliteFile, ...(postgresName ? { postgresName } : {}) };
    project.provide('databaseTemplates', templates);
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}
