import type { License } from '../../../shared/api/licenses.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { licenseNotFound } from './access.js';
import { findOwnLicense, findSeatLicense, licensesOfUser, seatLicensesOfUser } from './repository.js';
import { type CoveredVersionsLookup, noReleases, withCoveredVersions } from './update-windows.js';
import { toLicense, toLicenses } from './views.js';

/**
 * The signed-in user's licenses, as lists and in detail: their own, and the licenses of the
 * organisations where they hold a seat, shown as a member sees them (their own machines, no key).
 */
export function createLicenseReadService({
  db,
  clock,
  coveredVersions = noReleases,
}: {
  db: Db;
  clock: Clock;
  /** The versions an ended update window covers (distribution's releases, given at composition). */
  coveredVersions?: CoveredVersionsLookup;
}) {
  return {
    list: async (user: UserRow): Promise<License[]> => {
      const now = clock.now();
      const [own, seats] = await Promise.all([licensesOfUser(db, user.id), seatLicensesOfUser(db, user.id)]);
      return withCoveredVersions(
        [
          ...(await toLicenses(db, own, now)),
          // With the member's own machines, which the Licenses page lists on the card.
          ...(await toLicenses(db, seats, now, { viewerId: user.id, withActivations: true })),
        ],
        coveredVersions,
      );
    },

    get: async (user: UserRow, id: string): Promise<License> => {
      const own = await findOwnLicense(db, user.id, id);
      const seat = own ? undefined : await findSeatLicense(db, user.id, id);
      if (!own && !seat) throw licenseNotFound();
      const license = own
        ? await toLicense(db, own, clock.now(), { withActivations: true })
        : await toLicense(db, seat!, clock.now(), { withActivations: true, viewerId: user.id });
      return (await withCoveredVersions([license], coveredVersions))[0] as License;
    },
  };
}

export type LicenseReadService = ReturnType<typeof createLicenseReadService>;
