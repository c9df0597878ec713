import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { createDatabase, SQLITE_FILE_NAME } from '../db/database.js';
import { migrationStatus } from '../db/migrate.js';
import { appVersion } from '../version.js';
import { readArchive, writeArchive } from './backup-archive.js';
import { BackupError } from './backup-error.js';
import { filesBelow, sha256OfFile, stageFile } from './backup-files.js';
import {
  type BackupManifest,
  KEYS_PREFIX,
  MANIFEST_FORMAT,
  POSTGRES_ENTRY,
  RELEASES_PREFIX,
  SQLITE_ENTRY,
} from './backup-manifest.js';
import { dumpPostgres } from './postgres-dump.js';
import { checkSqliteFile, snapshotSqlite } from './sqlite-snapshot.js';

export interface BackupOptions {
  /** The archive to write; it must not exist yet. */
  file: string;
  passphrase?: string | undefined;
  now: Date;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
}

/** Secrets a restore cannot bring back: set by environment, so not in DATA_DIR/keys. */
function secretsFromEnvironment(config: Config): string[] {
  const set: [string, unknown][] = [
    ['JWT_SECRET', config.jwt.secret],
    ['TWO_FACTOR_KEY', config.twoFactorKey],
    ['LEASE_SIGNING_KEY', config.licensing.signingKey],
    ['PAYMENT_SANDBOX_SECRET', config.payments.sandboxSecret],
  ];
  return set.filter(([, value]) => value !== undefined).map(([name]) => name);
}

/**
 * Writes one archive of everything a restore needs: the database as it was at one instant (SQLite's
 * online backup, or pg_dump), the generated secrets and signing keys of DATA_DIR/keys, and the
 * published installers; then reads it back through and checks every file, so an archive that
 * cannot be read fails now rather than on the day it is needed. The server may keep serving.
 */
export async function createBackup(config: Config, options: BackupOptions): Promise<BackupResult> {
  const file = resolve(options.file);
  if (existsSync(file)) throw new BackupError(`${file} exists already: choose another --out.`);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // Beside the archive: its file system has room for it, and a rename finishes it.
  const folder = await mkdtemp(join(dirname(file), '.portal-backup-'));
  const partial = `${file}.partial`;
  try {
    await mkdir(join(folder, 'database'), { mode: 0o700 });
    let migration: string | null;
    if (config.databaseUrl) {
      const { db } = createDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        poolSize: 1,
      });
      try {
        migration = (await migrationStatus(db)).applied.at(-1) ?? null;
      } finally {
        await db.destroy();
      }
      await dumpPostgres(config.databaseUrl, join(folder, POSTGRES_ENTRY));
    } else {
      const snapshot = join(folder, SQLITE_ENTRY);
      await snapshotSqlite(join(config.dataDir, SQLITE_FILE_NAME), snapshot);
      const check = await checkSqliteFile(snapshot);
      // A damaged database is not worth keeping as the newest backup: say so while the old ones exist.
      if (check.integrity.join() !== 'ok')
        throw new BackupError(
          `The database fails SQLite's integrity check: ${check.integrity.slice(0, 5).join('; ')}`,
        );
      migration = check.migrations.applied.at(-1) ?? null;
    }
    const staged = [config.databaseUrl ? POSTGRES_ENTRY : SQLITE_ENTRY];
    const keysFolder = join(config.dataDir, 'keys');
    // Drafts of a secret being written at this moment (secrets.ts) are not secrets yet.
    for (const path of (await filesBelow(keysFolder)).filter((name) => !name.endsWith('.tmp'))) {
      await stageFile(join(keysFolder, path), join(folder, KEYS_PREFIX, path));
      staged.push(`${KEYS_PREFIX}${path}`);
    }
    // Nor is an installer being published at this moment (releases.ts copies it in as a .part).
    const releases = (await filesBelow(config.licensing.releasesDir)).filter(
      (name) => !name.endsWith('.part'),
    );
    for (const path of releases) {
      await stageFile(join(config.licensing.releasesDir, path), join(folder, RELEASES_PREFIX, path));
      staged.push(`${RELEASES_PREFIX}${path}`);
    }
    const manifest: BackupManifest = {
      format: MANIFEST_FORMAT,
      formatVersion: 1,
      appVersion,
      createdAt: options.now.toISOString(),
      database: { dialect: config.databaseUrl ? 'postgres' : 'sqlite', migration },
      files: await Promise.all(
        staged.map(async (path) => ({ path, ...(await sha256OfFile(join(folder, path))) })),
      ),
      secretsFromEnvironment: secretsFromEnvironment(config),
    };
    await writeArchive(folder, manifest, partial, options.passphrase);
    try {
      await readArchive(partial, options.passphrase);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new BackupError(`The backup was written but cannot be read back (${reason}); it was not kept.`, {
        cause: error,
      });
    }
    await rename(partial, file);
    return { file, bytes: (await stat(file)).size, manifest };
  } finally {
    await rm(partial, { force: true });
    await rm(folder, { recursive: true, force: true });
  }
}
