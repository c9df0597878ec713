import type { License } from '../../../shared/api/licenses.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/tables.js';
import { createLicenseAccess } from './access.js';
import { licensesOfUser } from './repository.js';
import { toLicense, toLicenses } from './views.js';

/** The signed-in user's own licenses, as lists and in detail. */
export function createLicenseReadService({ db, clock }: { db: Db; clock: Clock }) {
  const access = createLicenseAccess({ db, clock });
  return {
    list: async (user: UserRow): Promise<License[]> =>
      toLicenses(db, await licensesOfUser(db, user.id), clock.now()),

    get: async (user: UserRow, id: string): Promise<License> =>
      toLicense(db, await access.own(user, id), clock.now(), { withActivations: true }),
  };
}

export type LicenseReadService = ReturnType<typeof createLicenseReadService>;
