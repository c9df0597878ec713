import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { ScheduledJob } from '../scheduler.js';
import { archiveName, archivesIn, pruneArchives } from './backup-retention.js';
import { createBackup } from './create-backup.js';

/**
 * The scheduler's backup (BACKUP_DIR): at a run that finds the newest archive there at least
 * BACKUP_INTERVAL_HOURS old, it takes one and deletes the oldest beyond BACKUP_KEEP. The time is
 * read from the archives themselves, so a restart, or the scheduler moving to another instance
 * that sees the same folder, neither skips a backup nor takes one twice.
 */
export function scheduledBackupJob(
  config: Config,
  settings: NonNullable<Config['backup']>,
  clock: Clock,
  log: FastifyBaseLogger,
): ScheduledJob {
  return {
    name: 'backup',
    async run() {
      const now = clock.now();
      const newest = (await archivesIn(settings.dir)).at(-1);
      if (newest && now.getTime() - newest.takenAt.getTime() < settings.intervalMs) return;
      const { file, bytes } = await createBackup(config, {
        file: join(settings.dir, archiveName(now, settings.passphrase !== undefined)),
        passphrase: settings.passphrase,
        now,
      });
      const pruned = await pruneArchives(settings.dir, settings.keep);
      log.info({ file, bytes, pruned }, 'backup written and read back');
    },
  };
}
