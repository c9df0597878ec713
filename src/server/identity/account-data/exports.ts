import type { FastifyBaseLogger } from 'fastify';
import type { DataExport } from '../../../shared/api/account-data.js';
import { API_BASE_PATH } from '../../../shared/routes.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { DataExportRow } from '../../platform/db/tables.js';
import { HttpError, notFound } from '../../platform/http-error.js';
import { timeOrderedId } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { dataExportReadyMail } from '../../platform/mail/templates.js';
import type { RequestMeta } from '../../platform/request-meta.js';

import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent, securityEventsOfUser } from '../../platform/security-log/service.js';
import { mailLanguage } from '../users/mail-preferences.js';
import { readPreferences } from '../users/profile.js';
import { findUserById, lockUserRow } from '../users/repository.js';
import { type ExportFile, jsonFile, packArchive } from './archive.js';
import type { AccountDataParts } from './parts.js';
import {
  claimDataExport,
  clearExpiredArchives,
  findDataExportByTokenHash,
  findOpenDataExport,
  insertDataExport,
  latestDataExport,
  nextDataExportToBuild,
  updateClaimedDataExport,
} from './repository.js';

/** How long the mailed link works. */
export const EXPORT_LINK_HOURS = 24;
/** How long one build may hold an export before another server takes it up (a stopped server's). */
const BUILD_CLAIM_MS = 10 * 60 * 1000;
/** Builds that failed this often are given up (the customer may ask again). */
const MAX_ATTEMPTS = 3;

/** A build cut short because the server is stopping: handed back for the next server, not a failure. */
class BuildStopped extends Error {}

const exportNotFound = () => notFound('export_not_found', 'This download link is not valid');

export function dataExportView(row: DataExportRow, now: string): DataExport {
  const expired = row.status === 'ready' && row.expires_at !== null && row.expires_at <= now;
  return {
    id: row.id,
    status: expired ? 'expired' : row.status,
    progress: row.status === 'ready' ? 100 : row.progress,
    requested_at: row.created_at,
    ready_at: row.completed_at,
    expires_at: row.expires_at,
    size_bytes: row.archive_bytes,
  };
}

/** Who asked: the account's owner, or an administrator for them. */
export interface ExportRequester {
  actorId: string;
  meta: RequestMeta | null;
}

/**
 * The customers' data exports: asked for (one at a time per account), built by the scheduler
 * section by section with its progress on the row, packed as a tar.gz, mailed as a link valid
 * {@link EXPORT_LINK_HOURS} hours. A build a stopped server left is taken up again once its claim
 * runs out, so the archive completes after a restart.
 */
export function createDataExports({
  db,
  clock,
  mailer,
  publicUrl,
  parts,
  log,
}: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  publicUrl: string;
  parts: AccountDataParts;
  log: FastifyBaseLogger;
}) {
  /** Identity's own part: the account, its preferences and its security events. */
  async function identityFiles(trx: DbOrTransaction, userId: string): Promise<ExportFile[]> {
    const user = await findUserById(trx, userId);
    if (!user) return [];
    const events = await securityEventsOfUser(trx, userId);
    return [
      jsonFile('account.json', {
        id: user.id,
        email: user.email,
        full_name: user.full_name,
        company: user.company,
        role: user.role,
        status: user.status,
        email_verified_at: user.email_verified_at,
        password_changed_at: user.password_changed_at,
        deletion_due_at: user.deletion_due_at,
        created_at: user.created_at,
        updated_at: user.updated_at,
      }),
      jsonFile('preferences.json', readPreferences(user.preferences)),
      jsonFile(
        'security-events.json',
        events.map((event) => ({
          ...event,
          details: event.details === null ? null : (JSON.parse(event.details) as unknown),
        })),
      ),
    ];
  }

  const sections = [{ name: 'identity', collect: identityFiles }, ...parts.sections];
  let stopping = false;

  async function build(row: DataExportRow, claimedUntil: string): Promise<void> {
    const files: ExportFile[] = [];
    for (const [index, section] of sections.entries()) {
      if (stopping) throw new BuildStopped();
      files.push(...(await section.collect(db, row.user_id)));
      // Packing is the last tenth of the work.
      const progress = Math.floor(((index + 1) / sections.length) * 90);
      if (!(await updateClaimedDataExport(db, row.id, claimedUntil, { progress }))) return;
    }
    if (stopping) throw new BuildStopped();
    const folder = `data-export-${row.created_at.slice(0, 10)}`;
    files.push(
      jsonFile('README.json', {
        account: row.user_id,
        requested_at: row.created_at,
        built_at: isoNow(clock),
        files: files.map((file) => file.name),
      }),
    );
    const archive = await packArchive(folder, files);
    const token = randomToken();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + EXPORT_LINK_HOURS * 3600 * 1000).toISOString();
    await db.transaction().execute(async (trx) => {
      const ready = await updateClaimedDataExport(trx, row.id, claimedUntil, {
        status: 'ready',
        progress: 100,
        claimed_until: null,
        token_hash: sha256(token),
        archive: archive.toString('base64'),
        archive_bytes: archive.length,
        expires_at: expiresAt,
        completed_at: now.toISOString(),
      });
      const user = ready ? await findUserById(trx, row.user_id) : undefined;
      // The mail exists exactly when the export became ready.
      if (user && user.erased_at === null) {
        const link = `${publicUrl}${API_BASE_PATH}${apiPaths.dataExports.download.replace(':token', token)}`;
        await mailer.queue(trx, dataExportReadyMail(user.email, link, expiresAt, mailLanguage(user)));
      }
    });
  }

  return {
    /**
     * Asks for an export: the one being made, if there is one (two requests at once make one
     * export: the account's row lock, and the unique index behind it), else a new one.
     */
    async request(userId: string, requester: ExportRequester): Promise<DataExport> {
      const run = () =>
        db.transaction().execute(async (trx) => {
          await lockUserRow(trx, userId);
          const user = await findUserById(trx, userId);
          if (!user || user.erased_at !== null) throw notFound('user_not_found', 'User not found');
          const open = await findOpenDataExport(trx, userId);
          if (open) return open;
          const row: DataExportRow = {
            id: timeOrderedId(),
            user_id: userId,
            requested_by: requester.actorId === userId ? null : requester.actorId,
            status: 'queued',
            progress: 0,
            claimed_until: null,
            attempts: 0,
            token_hash: null,
            archive: null,
            archive_bytes: null,
            expires_at: null,
            created_at: isoNow(clock),
            completed_at: null,
          };
          await insertDataExport(trx, row);
          await recordSecurityEvent(trx, clock, {
            type: securityEventTypes.dataExportRequested,
            severity: 'info',
            userId,
            actorId: requester.actorId,
            meta: requester.meta,
          });
          return row;
        });
      let row: DataExportRow;
      try {
        row = await run();
      } catch (error) {
        if (error instanceof HttpError) throw error;
        // Lost a race past the lock (the unique index refused the second): answer the first.
        const open = await findOpenDataExport(db, userId);
        if (!open) throw error;
        row = open;
      }
      return dataExportView(row, isoNow(clock));
    },

    async latest(userId: string): Promise<DataExport | null> {
      const row = await latestDataExport(db, userId);
      return row ? dataExportView(row, isoNow(clock)) : null;
    },

    /** The archive behind a mailed link: 404 for an unknown token, 410 once the link has expired. */
    async download(token: string): Promise<{ filename: string; bytes: Buffer }> {
      const row = await findDataExportByTokenHash(db, sha256(token));
      if (!row || row.status !== 'ready') throw exportNotFound();
      if ((row.expires_at ?? '') <= isoNow(clock) || row.archive === null)
        throw new HttpError(
          410,
          'export_expired',
          'This download link has expired: ask for a new export on your Profile',
        );
      return {
        filename: `data-export-${row.created_at.slice(0, 10)}.tar.gz`,
        bytes: Buffer.from(row.archive, 'base64'),
      };
    },

    /** The server is stopping: a build in progress stops at its next section and is handed back. */
    stop(): void {
      stopping = true;
    },

    /** The scheduler's job: builds every export due (queued, or left by a stopped server). */
    async buildDue(): Promise<number> {
      let built = 0;
      await clearExpiredArchives(db, isoNow(clock));
      for (;;) {
        const row = await nextDataExportToBuild(db, isoNow(clock));
        if (!row) return built;
        const claimedUntil = new Date(clock.now().getTime() + BUILD_CLAIM_MS).toISOString();
        if (row.attempts >= MAX_ATTEMPTS) {
          await claimDataExport(db, row, claimedUntil);
          await updateClaimedDataExport(db, row.id, claimedUntil, { status: 'failed', claimed_until: null });
          continue;
        }
        if (stopping) return built;
        if (!(await claimDataExport(db, row, claimedUntil))) continue;
        try {
          await build({ ...row, status: 'building' }, claimedUntil);
          built += 1;
        } catch (error) {
          if (error instanceof BuildStopped) {
            // Handed back at once (the attempt not counted), so the next server need not wait for the claim.
            await updateClaimedDataExport(db, row.id, claimedUntil, {
              status: 'queued',
              claimed_until: null,
              attempts: row.attempts,
            });
            return built;
          }
          log.error({ err: error, exportId: row.id }, 'data export failed; retried at the next run');
          await updateClaimedDataExport(db, row.id, claimedUntil, { status: 'queued', claimed_until: null });
          return built;
        }
      }
    },
  };
}

export type DataExports = ReturnType<typeof createDataExports>;
