import type { DownloadPlatform } from '../../shared/api/licenses.js';
import type {
  AdminRelease,
  AdminReleaseList,
  AdminUpdateReleaseBody,
  ReleaseChannel,
} from '../../shared/api/distribution.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { ReleaseRow } from '../platform/db/tables.js';
import { conflict, notFound } from '../platform/http-error.js';
import { securityEventTypes } from '../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../platform/security-log/service.js';
import { findRelease, listReleasesWithInstalls, updateRelease } from './repository.js';

const stateOf = (row: ReleaseRow): AdminRelease['state'] =>
  row.yanked_at !== null
    ? 'yanked'
    : row.sha512 === null
      ? 'not_updatable'
      : row.paused_at !== null
        ? 'paused'
        : row.rollout_percent < 100
          ? 'rolling_out'
          : 'live';

const toAdminRelease = (row: ReleaseRow & { installs: number }): AdminRelease => ({
  id: row.id,
  platform: row.platform,
  channel: row.channel,
  version: row.version,
  file_name: row.file_name,
  size_bytes: row.size_bytes,
  sha256: row.sha256,
  sha512: row.sha512,
  rollout_percent: row.rollout_percent,
  state: stateOf(row),
  paused_at: row.paused_at,
  yanked_at: row.yanked_at,
  release_notes: row.release_notes,
  checks: Number(row.checks),
  downloads: Number(row.downloads),
  installs: row.installs,
  published_at: row.published_at,
});

/** Administrators' view of the releases and their rollouts: raise, pause, resume, yank, notes. */
export function createAdminReleasesService({ db, clock }: { db: Db; clock: Clock }) {
  async function one(id: string): Promise<AdminRelease> {
    const [row] = await listReleasesWithInstalls(db, { id });
    if (!row) throw notFound('release_not_found', 'No release has this id');
    return toAdminRelease(row);
  }

  return {
    async list(filter: { platform?: DownloadPlatform | undefined; channel?: ReleaseChannel | undefined }) {
      const rows = await listReleasesWithInstalls(db, filter);
      return { releases: rows.map(toAdminRelease) } satisfies AdminReleaseList;
    },

    /**
     * Changes a release's rollout, pause, notes or withdraws it, in one transaction with its audit.
     * The rollout only goes up (a machine let in must not be sent back: pause instead), and a
     * yanked release takes no other change, since nothing is offered from it again.
     */
    async update(actor: AdminActor, id: string, body: AdminUpdateReleaseBody): Promise<AdminRelease> {
      const now = clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        const row = await findRelease(trx, id);
        if (!row) throw notFound('release_not_found', 'No release has this id');
        if (row.yanked_at !== null) {
          throw conflict('release_yanked', `Version ${row.version} was yanked and can no longer change`);
        }
        if (body.rollout_percent !== undefined && body.rollout_percent < row.rollout_percent) {
          throw conflict(
            'rollout_lowered',
            `The rollout is at ${row.rollout_percent} % and can only be raised: machines already let in ` +
              'would be sent back. Pause the release to stop offering it to new machines.',
          );
        }
        const changes = {
          ...(body.rollout_percent !== undefined ? { rollout_percent: body.rollout_percent } : {}),
          ...(body.paused !== undefined ? { paused_at: body.paused ? (row.paused_at ?? now) : null } : {}),
          ...(body.yanked ? { yanked_at: now } : {}),
          ...(body.release_notes !== undefined ? { release_notes: body.release_notes } : {}),
        };
        await updateRelease(trx, id, changes);
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.releaseChanged,
          severity: body.yanked ? 'warning' : 'info',
          userId: null,
          details: {
            release_id: id,
            platform: row.platform,
            version: row.version,
            ...body,
            ...(body.release_notes !== undefined ? { release_notes: '(changed)' } : {}),
          },
        });
      });
      return one(id);
    },
  };
}

export type AdminReleasesService = ReturnType<typeof createAdminReleasesService>;
