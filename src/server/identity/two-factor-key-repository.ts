import type { DbOrTransaction } from '../platform/db/database.js';

/** Stores the offered key under `settingKey` unless a row is already there, so the first insert wins. */
export async function insertKeySettingUnlessPresent(
  db: DbOrTransaction,
  settingKey: string,
  value: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('settings')
    .values({
      key: settingKey,
      value,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
}

export async function readKeySetting(db: DbOrTransaction, settingKey: string): Promise<string> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', settingKey)
    .executeTakeFirstOrThrow();
  return row.value;
}
