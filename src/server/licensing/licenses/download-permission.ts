import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { createLicenseAccess } from './access.js';

/**
 * Whether a user may download the installers with a license: one they use (their own, or their
 * organisation's while they hold a seat) that is active now. Distribution serves the installers and
 * asks this first; a refusal is the license's own error (not found, or its status).
 */
export function createDownloadPermission({ db, clock }: { db: Db; clock: Clock }) {
  const access = createLicenseAccess({ db, clock });
  /** The id of the license as stored, once the user may download with it. */
  return async (user: UserRow, licenseId: string): Promise<string> => {
    const row = await access.usable(user, licenseId);
    access.assertActive(row);
    return row.id;
  };
}

export type DownloadPermission = ReturnType<typeof createDownloadPermission>;
