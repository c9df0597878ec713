import type { LicensingSettings } from '../../../shared/api/licenses.js';
import { type Clock, isoNow } from '../../clock.js';
import type { DbOrTransaction } from '../../db/database.js';

const SETTINGS_KEY = 'licensing';

/** A machine unseen for 30 days gives up its seat when another machine of the license needs it. */
export const defaultLicensingSettings: LicensingSettings = { seat_reclaim_after_days: 30 };

export async function readLicensingSettings(db: DbOrTransaction): Promise<LicensingSettings> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SETTINGS_KEY)
    .executeTakeFirst();
  if (!row) return defaultLicensingSettings;
  return { ...defaultLicensingSettings, ...(JSON.parse(row.value) as Partial<LicensingSettings>) };
}

export async function writeLicensingSettings(
  db: DbOrTransaction,
  clock: Clock,
  settings: LicensingSettings,
): Promise<LicensingSettings> {
  const value = JSON.stringify(settings);
  const now = isoNow(clock);
  await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value, updated_at: now })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
  return settings;
}
