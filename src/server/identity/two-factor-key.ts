import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../platform/clock.js';
import { randomToken } from '../platform/crypto.js';
import type { DatabaseHandle } from '../platform/db/database.js';
import { loadOrCreateSecret } from '../platform/secrets.js';
import { settleSettingsRow } from '../platform/db/settings.js';

const FILE_NAME = 'two-factor-key';
/** The settings row that holds the generated key on PostgreSQL. */
export const TWO_FACTOR_KEY_SETTING = 'two-factor-key';

/**
 * The key authenticator-app secrets are sealed with: TWO_FACTOR_KEY when it is set. Otherwise
 * SQLite (one machine) keeps a generated key in DATA_DIR/keys, and PostgreSQL, whose instances
 * share the database but not necessarily a DATA_DIR, keeps it in the database, so every instance
 * finds the one the first instance made and a code sealed by one is checked by all of them.
 */
export async function resolveTwoFactorKey(
  { db, dialect }: Pick<DatabaseHandle, 'db' | 'dialect'>,
  clock: Clock,
  configured: { twoFactorKey: string | undefined; dataDir: string },
): Promise<string> {
  if (configured.twoFactorKey) return configured.twoFactorKey;
  if (dialect === 'sqlite') return loadOrCreateSecret(configured.dataDir, FILE_NAME);
  // An install that ran before keeps its enrolments: the key it generated into DATA_DIR is
  // offered first. Of instances starting at once, the first insert wins and all read that one.
  const offered = existsSync(join(configured.dataDir, 'keys', FILE_NAME))
    ? loadOrCreateSecret(configured.dataDir, FILE_NAME)
    : randomToken(48);
  return (await settleSettingsRow(db, clock, TWO_FACTOR_KEY_SETTING, { key: offered })).key;
}
