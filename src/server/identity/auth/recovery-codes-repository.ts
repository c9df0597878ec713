import type { DbOrTransaction } from '../../platform/db/database.js';

export async function deleteRecoveryCodes(db: DbOrTransaction, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

/** Stores a new set of unused codes, each as its hash. */
export async function insertRecoveryCodes(
  db: DbOrTransaction,
  userId: string,
  codes: { id: string; codeHash: string }[],
  now: string,
): Promise<void> {
  await db
    .insertInto('recovery_codes')
    .values(
      codes.map((code) => ({
        id: code.id,
        user_id: userId,
        code_hash: code.codeHash,
        used_at: null,
        created_at: now,
      })),
    )
    .execute();
}

/** Marks the unused code with this hash used; of two concurrent uses only one updates the row. */
export async function markRecoveryCodeUsed(
  db: DbOrTransaction,
  userId: string,
  codeHash: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: DbOrTransaction, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
