import { z } from 'zod';

/** The first entry of every archive: what it holds and how to check it. */
export const MANIFEST_NAME = 'manifest.json';
export const MANIFEST_FORMAT = 'desktop-ai-assistant-portal-backup';

/** Archive paths: the database under `database/`, the data folder's files under `data/`. */
export const SQLITE_ENTRY = 'database/portal.sqlite';
export const POSTGRES_ENTRY = 'database/portal.pgdump';
export const KEYS_PREFIX = 'data/keys/';
export const RELEASES_PREFIX = 'data/releases/';

/** Relative, forward slashes, no `..`, no oddities: an archive path never escapes its folder. */
const SAFE_PATH = /^(?:database|data\/keys|data\/releases)\/(?:[\w.+@=-]+\/)*[\w.+@=-]+$/;
export const isSafeArchivePath = (path: string) =>
  SAFE_PATH.test(path) && !path.split('/').some((part) => part === '.' || part === '..');

export const backupManifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  formatVersion: z.literal(1),
  /** The release that wrote it. */
  appVersion: z.string(),
  createdAt: z.string(),
  database: z.object({
    dialect: z.enum(['sqlite', 'postgres']),
    /** The last migration applied: the schema's level. */
    migration: z.string().nullable(),
  }),
  files: z.array(
    z.object({
      path: z.string().refine(isSafeArchivePath, 'not a path a backup holds'),
      bytes: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
  /**
   * Secrets set by environment variables rather than generated into DATA_DIR/keys: not in the
   * archive, so a restore needs them set the same again (only their names are kept).
   */
  secretsFromEnvironment: z.array(z.string()),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;
