import type { LicensingSettings } from '../../../shared/api/licenses.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { readSettingsRow, writeSettingsRow } from '../../platform/db/settings.js';

const SETTINGS_KEY = 'licensing';

/** A machine unseen for 30 days gives up its seat when another machine of the license needs it. */
export const defaultLicensingSettings: LicensingSettings = { seat_reclaim_after_days: 30 };

export const readLicensingSettings = (db: DbOrTransaction): Promise<LicensingSettings> =>
  readSettingsRow(db, SETTINGS_KEY, defaultLicensingSettings);

export const writeLicensingSettings = (
  db: DbOrTransaction,
  clock: Clock,
  settings: LicensingSettings,
): Promise<LicensingSettings> => writeSettingsRow(db, clock, SETTINGS_KEY, settings);
