import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readArchive } from '../../../src/server/platform/backup/backup-archive.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';

const HOUR_MS = 3_600_000;
const PASSPHRASE = 'the scheduled backups passphrase';

describeOnEveryDatabase(
  'backups: scheduled by the scheduler, pruned to BACKUP_KEEP',
  (server) => {
    afterAll(async () => {
      await rm(server().config.backup?.dir ?? '', { recursive: true, force: true });
    });

    const archives = async () =>
      (await readdir(server().config.backup?.dir ?? '')).filter((name) => name !== 'notes.txt').sort();

    it('takes one when the newest is BACKUP_INTERVAL_HOURS old, and keeps the newest BACKUP_KEEP', async () => {
      const s = server();
      const dir = s.config.backup?.dir ?? '';
      // Something the operator keeps in the same folder is never counted nor deleted.
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'notes.txt'), 'kept by the operator');
      expect(await s.app.scheduler.runOnce()).toBe(true);
      const first = await archives();
      expect(first).toEqual([expect.stringMatching(/^portal-backup-\d{8}T\d{6}Z\.tar\.gz\.enc$/)]);

      // Not due again within the interval: a run every minute does not take a backup every minute.
      s.clock.advance(HOUR_MS / 2);
      await s.app.scheduler.runOnce();
      expect(await archives()).toEqual(first);

      const taken: string[][] = [];
      // The test clock keeps running while a backup is taken: the last run's span, not one instant.
      let lastRun = { from: '', to: '' };
      for (let run = 0; run < 3; run += 1) {
        s.clock.advance(HOUR_MS);
        const from = s.clock.now().toISOString();
        await s.app.scheduler.runOnce();
        lastRun = { from, to: s.clock.now().toISOString() };
        taken.push(await archives());
      }
      expect(taken.map((names) => names.length)).toEqual([2, 2, 2]);
      // The oldest went first: what is left are the two newest, the last one just taken.
      const left = taken.at(-1) ?? [];
      expect(left).not.toContain(first[0]);
      expect(left).toEqual([taken[1]?.[1], expect.any(String)]);

      expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('kept by the operator');

      // Encrypted with BACKUP_PASSPHRASE, and readable with it: taken at the clock's time.
      const newest = join(dir, left[1] ?? '');
      expect((await readFile(newest)).subarray(0, 8).toString()).toBe('DAPBKE01');
      const manifest = await readArchive(newest, PASSPHRASE);
      expect(manifest.database.dialect).toBe(s.dialect);
      expect(manifest.createdAt >= lastRun.from && manifest.createdAt <= lastRun.to, manifest.createdAt).toBe(
        true,
      );
    });
  },
  {
    env: {
      BACKUP_DIR: join(tmpdir(), `portal-scheduled-backups-${randomBytes(4).toString('hex')}`),
      BACKUP_INTERVAL_HOURS: '1',
      BACKUP_KEEP: '2',
      BACKUP_PASSPHRASE: PASSPHRASE,
    },
  },
);
