import type { License } from '../../../shared/api/licenses.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { licenseNotFound } from './access.js';
import { findOwnLicense, findSeatLicense, licensesOfUser, seatLicensesOfUser } from './repository.js';
import { toLicense, toLicenses } from './views.js';

/**
 * The signed-in user's licenses, as lists and in detail: their own, and the licenses of the
 * organisations where they hold a seat, shown as a member sees them (their own machines, no key).
 */
export function createLicenseReadService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    list: async (user: UserRow): Promise<License[]> => {
      const now = clock.now();
      const [own, seats] = await Promise.all([licensesOfUser(db, user.id), seatLicensesOfUser(db, user.id)]);
      return [
        ...(await toLicenses(db, own, now)),
        // With the member's own machines, which the Licenses page lists on the card.
        ...(await toLicenses(db, seats, now, { viewerId: user.id, withActivations: true })),
      ];
    },

    get: async (user: UserRow, id: string): Promise<License> => {
      const own = await findOwnLicense(db, user.id, id);
      if (own) return toLicense(db, own, clock.now(), { withActivations: true });
      const seat = await findSeatLicense(db, user.id, id);
      if (!seat) throw licenseNotFound();
      return toLicense(db, seat, clock.now(), { withActivations: true, viewerId: user.id });
    },
  };
}

export type LicenseReadService = ReturnType<typeof createLicenseReadService>;
