import type { SecuritySettings } from '../../../shared/api/two-factor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { readSettingsRow, writeSettingsRow } from '../../platform/db/settings.js';

/** The platform's security settings, one row of the `settings` table. */
const SETTINGS_KEY = 'security';

export const defaultSecuritySettings: SecuritySettings = { require_admin_two_factor: false };

export const readSecuritySettings = (db: DbOrTransaction): Promise<SecuritySettings> =>
  readSettingsRow(db, SETTINGS_KEY, defaultSecuritySettings);

export const writeSecuritySettings = (
  db: DbOrTransaction,
  clock: Clock,
  settings: SecuritySettings,
): Promise<SecuritySettings> => writeSettingsRow(db, clock, SETTINGS_KEY, settings);
