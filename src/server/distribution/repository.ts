import { sql } from 'kysely';
import type { ReleaseChannel } from '../../shared/api/distribution.js';
import type { DownloadPlatform } from '../../shared/api/licenses.js';
import type { DbOrTransaction } from '../platform/db/database.js';
import type { ReleaseRow } from '../platform/db/tables.js';

/**
 * The newest stable release of each platform (or of one) that was not yanked, by publication
 * time (and published before `publishedBefore` when given): what a license holder downloads by hand.
 */
export async function latestReleases(
  db: DbOrTransaction,
  platform?: DownloadPlatform,
  publishedBefore?: string | null,
): Promise<ReleaseRow[]> {
  let query = db
    .selectFrom('releases')
    .selectAll()
    .where('channel', '=', 'stable')
    .where('yanked_at', 'is', null)
    .orderBy('published_at', 'desc')
    .orderBy('id');
  if (platform) query = query.where('platform', '=', platform);
  // A perpetual license's update window: only what was published inside it.
  if (publishedBefore) query = query.where('published_at', '<', publishedBefore);
  const rows = await query.execute();
  const newest = new Map<string, ReleaseRow>();
  for (const row of rows) if (!newest.has(row.platform)) newest.set(row.platform, row);
  return [...newest.values()].sort((a, b) => a.platform.localeCompare(b.platform));
}

export const findRelease = (db: DbOrTransaction, id: string) =>
  db.selectFrom('releases').selectAll().where('id', '=', id).executeTakeFirst();

export const platformReleases = (db: DbOrTransaction, platform: DownloadPlatform) =>
  db.selectFrom('releases').selectAll().where('platform', '=', platform).execute();

export const findReleaseByVersion = (db: DbOrTransaction, platform: DownloadPlatform, version: string) =>
  db
    .selectFrom('releases')
    .selectAll()
    .where('platform', '=', platform)
    .where('version', '=', version)
    .executeTakeFirst();

export async function insertRelease(db: DbOrTransaction, row: ReleaseRow): Promise<void> {
  await db.insertInto('releases').values(row).execute();
}

/** Counted with one update each, so concurrent checks and downloads all count. */
export async function countReleaseEvent(
  db: DbOrTransaction,
  id: string,
  counter: 'checks' | 'downloads',
): Promise<void> {
  await db
    .updateTable('releases')
    .set(counter, sql<number>`${sql.ref(counter)} + 1`)
    .where('id', '=', id)
    .execute();
}

/** Notes that a machine runs a release: its first report adds an install, later ones only a time. */
export async function recordInstall(
  db: DbOrTransaction,
  releaseId: string,
  activationId: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('release_installs')
    .values({
      release_id: releaseId,
      activation_id: activationId,
      first_reported_at: at,
      last_reported_at: at,
    })
    .onConflict((conflict) =>
      conflict.columns(['release_id', 'activation_id']).doUpdateSet({ last_reported_at: at }),
    )
    .execute();
}

/** Releases with their install counts, by platform, channel and newest first. */
export async function listReleasesWithInstalls(
  db: DbOrTransaction,
  filter: {
    id?: string;
    platform?: DownloadPlatform | undefined;
    channel?: ReleaseChannel | undefined;
  },
) {
  let query = db
    .selectFrom('releases')
    .selectAll('releases')
    .select((eb) =>
      eb
        .selectFrom('release_installs')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('release_installs.release_id', '=', 'releases.id')
        .as('installs'),
    )
    .orderBy('platform')
    .orderBy('channel')
    .orderBy('published_at', 'desc')
    .orderBy('id');
  if (filter.id) query = query.where('id', '=', filter.id);
  if (filter.platform) query = query.where('platform', '=', filter.platform);
  if (filter.channel) query = query.where('channel', '=', filter.channel);
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, installs: Number(row.installs ?? 0) }));
}

export async function updateRelease(
  db: DbOrTransaction,
  id: string,
  changes: Partial<Pick<ReleaseRow, 'rollout_percent' | 'paused_at' | 'yanked_at' | 'release_notes'>>,
): Promise<void> {
  await db.updateTable('releases').set(changes).where('id', '=', id).execute();
}

/** What decides whether a license may update: its status and, for a team's, the organisation's name. */
export function findLicenseForUpdates(db: DbOrTransaction, by: { key: string } | { id: string }) {
  const query = db
    .selectFrom('licenses')
    .leftJoin('organisations', 'organisations.id', 'licenses.organisation_id')
    .select([
      'licenses.id',
      'licenses.status',
      'licenses.expires_at',
      'licenses.revoked_reason',
      'licenses.suspended_reason',
      'licenses.updates_until',
      'organisations.name as organisation_name',
    ]);
  return (
    'key' in by ? query.where('licenses.license_key', '=', by.key) : query.where('licenses.id', '=', by.id)
  ).executeTakeFirst();
}

/** Every stable release that was not withdrawn, for the versions an update window covers. */
export const stableReleaseVersions = (db: DbOrTransaction) =>
  db
    .selectFrom('releases')
    .select(['version', 'published_at'])
    .where('channel', '=', 'stable')
    .where('yanked_at', 'is', null)
    .execute();
