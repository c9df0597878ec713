import { createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import { createDatabase, SQLITE_FILE_NAME } from '../db/database.js';
import { migrations, migrationStatus } from '../db/migrate.js';
import { readArchive } from './backup-archive.js';
import { BackupError } from './backup-error.js';
import {
  type BackupManifest,
  KEYS_PREFIX,
  POSTGRES_ENTRY,
  RELEASES_PREFIX,
  SQLITE_ENTRY,
} from './backup-manifest.js';
import { restorePostgres } from './postgres-dump.js';
import { checkSqliteFile } from './sqlite-snapshot.js';

export interface RestoreResult {
  manifest: BackupManifest;
  /** `ok` from SQLite's integrity check, or pg_restore's success on PostgreSQL. */
  databaseCheck: string;
}

const isInside = (folder: string, path: string) => {
  const rest = relative(folder, path);
  return !rest.startsWith('..') && !isAbsolute(rest);
};

async function refuseUnlessEmpty(folder: string, setting: string): Promise<void> {
  if (!existsSync(folder)) return;
  const held = await readdir(folder);
  if (held.length === 0) return;
  const shown = held.slice(0, 4).join(', ') + (held.length > 4 ? ', …' : '');
  throw new BackupError(
    `${setting} (${folder}) is not empty: it holds ${shown}. A restore writes only into an empty folder, ` +
      `so that nothing is overwritten: point ${setting} at a new folder, or move this one's contents away first.`,
  );
}

async function refuseUnlessEmptyDatabase(databaseUrl: string, dataDir: string): Promise<void> {
  const { db } = createDatabase({ databaseUrl, dataDir, poolSize: 1 });
  try {
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    if (tables.length > 0)
      throw new BackupError(
        `The database of DATABASE_URL is not empty (it has ${tables.length} tables, e.g. ${tables[0]?.name}). ` +
          'A restore loads only into an empty database: create a new one (createdb) and point DATABASE_URL at it.',
      );
  } finally {
    await db.destroy();
  }
}

function refuseOtherDatabase(manifest: BackupManifest, config: Config): void {
  if (manifest.database.dialect === 'sqlite' && config.databaseUrl)
    throw new BackupError(
      'This backup holds a SQLite database, but DATABASE_URL names PostgreSQL: unset DATABASE_URL to restore it.',
    );
  if (manifest.database.dialect === 'postgres' && !config.databaseUrl)
    throw new BackupError(
      'This backup holds a PostgreSQL dump: set DATABASE_URL to an empty PostgreSQL database to restore it into.',
    );
  const level = manifest.database.migration;
  if (level !== null && !(level in migrations))
    throw new BackupError(
      `This backup comes from a newer release (${manifest.appVersion}, schema ${level}), which this one does ` +
        'not know: restore it with that release or a later one.',
    );
}

/**
 * Brings a backup back into an empty DATA_DIR (and, on PostgreSQL, an empty database): reads the
 * archive through into a folder of its own inside DATA_DIR, every checksum checked, then moves the
 * files into place and checks the database. It refuses a folder or database holding anything, and
 * leaves them empty again when it fails.
 */
export async function restoreBackup(
  config: Config,
  archive: string,
  passphrase: string | undefined,
): Promise<RestoreResult> {
  const file = resolve(archive);
  if (!existsSync(file)) throw new BackupError(`There is no archive at ${file}.`);
  const { dataDir } = config;
  const { releasesDir } = config.licensing;
  await refuseUnlessEmpty(dataDir, 'DATA_DIR');
  if (!isInside(dataDir, releasesDir)) await refuseUnlessEmpty(releasesDir, 'RELEASES_DIR');
  if (config.databaseUrl) await refuseUnlessEmptyDatabase(config.databaseUrl, dataDir);

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const unpacked = await mkdtemp(join(dataDir, '.restore-'));
  let placed = false;
  try {
    const manifest = await readArchive(file, passphrase, {
      onManifest: (read) => refuseOtherDatabase(read, config),
      async onFile(path: string, content: Readable) {
        const target = join(unpacked, path);
        await mkdir(dirname(target), { recursive: true, mode: 0o700 });
        await pipeline(content, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
      },
    });
    placed = true;
    let databaseCheck: string;
    if (manifest.database.dialect === 'sqlite') {
      const database = join(dataDir, SQLITE_FILE_NAME);
      await rename(join(unpacked, SQLITE_ENTRY), database);
      const check = await checkSqliteFile(database);
      if (check.integrity.join() !== 'ok')
        throw new BackupError(
          `The restored database fails SQLite's integrity check: ${check.integrity.slice(0, 5).join('; ')}`,
        );
      databaseCheck = 'SQLite integrity check: ok';
    } else {
      await restorePostgres(config.databaseUrl ?? '', join(unpacked, POSTGRES_ENTRY));
      const { db } = createDatabase({ databaseUrl: config.databaseUrl, dataDir, poolSize: 1 });
      try {
        const level = (await migrationStatus(db)).applied.at(-1) ?? null;
        if (level !== manifest.database.migration)
          throw new BackupError(
            `The restored database is at schema ${level}, not ${manifest.database.migration} as backed up.`,
          );
      } finally {
        await db.destroy();
      }
      databaseCheck = 'pg_restore: ok';
    }
    const keys = join(unpacked, KEYS_PREFIX);
    if (existsSync(keys)) await rename(keys, join(dataDir, 'keys'));
    const releases = join(unpacked, RELEASES_PREFIX);
    if (existsSync(releases)) {
      await mkdir(dirname(releasesDir), { recursive: true });
      // A rename where RELEASES_DIR is on the same file system, else a copy.
      await rename(releases, releasesDir).catch(() => cp(releases, releasesDir, { recursive: true }));
    }
    return { manifest, databaseCheck };
  } catch (error) {
    // Empty it was, and empty it is left, ready for another try.
    if (placed) {
      for (const name of await readdir(dataDir))
        await rm(join(dataDir, name), { recursive: true, force: true });
      if (!isInside(dataDir, releasesDir)) await rm(releasesDir, { recursive: true, force: true });
    }
    throw error;
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}
