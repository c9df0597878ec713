import type { DownloadPlatform } from '../../../shared/api/licenses.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { ReleaseRow } from '../../db/tables.js';

/** The newest release of each platform (or of one), by publication time. */
export async function latestReleases(
  db: DbOrTransaction,
  platform?: DownloadPlatform,
): Promise<ReleaseRow[]> {
  let query = db.selectFrom('releases').selectAll().orderBy('published_at', 'desc').orderBy('id');
  if (platform) query = query.where('platform', '=', platform);
  const rows = await query.execute();
  const newest = new Map<string, ReleaseRow>();
  for (const row of rows) if (!newest.has(row.platform)) newest.set(row.platform, row);
  return [...newest.values()].sort((a, b) => a.platform.localeCompare(b.platform));
}

export const findRelease = (db: DbOrTransaction, id: string) =>
  db.selectFrom('releases').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertRelease(db: DbOrTransaction, row: ReleaseRow): Promise<void> {
  await db.insertInto('releases').values(row).execute();
}
