import { normalizeLicenseKey } from '../../../shared/license-key.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, UserRow } from '../../platform/db/tables.js';
import { notFound } from '../../platform/http-error.js';
import { inactiveLicense, invalidKey, unknownKey } from './refusals.js';
import { findLicenseByKey, findOwnLicense, findSeatLicense } from './repository.js';
import { effectiveStatus } from './views.js';

export const licenseNotFound = () => notFound('license_not_found', 'License not found');

/** How the license operations find a license and refuse one that cannot be used. */
export function createLicenseAccess({ db, clock }: { db: DbOrTransaction; clock: Clock }) {
  return {
    /** The user's own license; another user's reads as not found. */
    async own(user: UserRow, id: string): Promise<LicenseRow> {
      const row = await findOwnLicense(db, user.id, id);
      if (!row) throw licenseNotFound();
      return row;
    },

    /**
     * A license the user uses: their own, or their organisation's while they hold a seat on it
     * (its features, usage and installers are theirs to use as well). Another reads as not found.
     */
    async usable(user: UserRow, id: string): Promise<LicenseRow> {
      const row = (await findOwnLicense(db, user.id, id)) ?? (await findSeatLicense(db, user.id, id));
      if (!row) throw licenseNotFound();
      return row;
    },

    /** Refuses the license with its status message unless it is active. */
    assertActive(row: LicenseRow): void {
      const status = effectiveStatus(row, clock.now());
      if (status !== 'active') throw inactiveLicense(row, status);
    },

    /** The license of a key as typed (any case, with or without dashes). */
    async byKey(typedKey: string): Promise<LicenseRow> {
      const key = normalizeLicenseKey(typedKey);
      if (!key) throw invalidKey();
      const row = await findLicenseByKey(db, key);
      if (!row) throw unknownKey();
      return row;
    },
  };
}

export type LicenseAccess = ReturnType<typeof createLicenseAccess>;
