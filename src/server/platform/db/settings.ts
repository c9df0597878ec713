import { type Clock, isoNow } from '../clock.js';
import type { DbOrTransaction } from './database.js';
import { preparedQuery } from './prepared-query.js';

// Each area keeps its settings as one JSON row of the `settings` table, under its own key; what the
// row lacks (a setting added since it was written) comes from the area's defaults.

// Read on every administrator's call (whether a second factor is required): prepared once.
const settingsRow = preparedQuery((db, key: string) =>
  db.selectFrom('settings').select('value').where('key', '=', key),
);

export async function readSettingsRow<T extends object>(
  db: DbOrTransaction,
  key: string,
  defaults: T,
): Promise<T> {
  const [row] = await settingsRow(db, key);
  if (!row) return defaults;
  return { ...defaults, ...(JSON.parse(row.value) as Partial<T>) };
}

export async function writeSettingsRow<T extends object>(
  db: DbOrTransaction,
  clock: Clock,
  key: string,
  settings: T,
): Promise<T> {
  const value = JSON.stringify(settings);
  const now = isoNow(clock);
  await db
    .insertInto('settings')
    .values({ key, value, updated_at: now })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
  return settings;
}

/**
 * Writes the row unless one is already under `key`, then answers the row that is there: of
 * servers starting at once and each offering a value (a generated key), all keep the first.
 */
export async function settleSettingsRow<T extends object>(
  db: DbOrTransaction,
  clock: Clock,
  key: string,
  offered: T,
): Promise<T> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(offered), updated_at: isoNow(clock) })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.value) as T;
}
