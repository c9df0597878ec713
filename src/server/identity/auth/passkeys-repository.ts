import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PasskeyRow } from '../../platform/db/tables.js';

export async function insertPasskey(db: DbOrTransaction, row: PasskeyRow): Promise<void> {
  await db.insertInto('passkeys').values(row).execute();
}

export const listPasskeysOfUser = (db: DbOrTransaction, userId: string) =>
  db
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export const findPasskeyByCredentialId = (db: DbOrTransaction, credentialId: string) =>
  db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();

/** The user's passkey by its id; another user's is not found. */
export const findPasskeyOfUser = (db: DbOrTransaction, userId: string, id: string) =>
  db.selectFrom('passkeys').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

export async function renamePasskeyRow(
  db: DbOrTransaction,
  userId: string,
  id: string,
  name: string,
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deletePasskeyRow(db: DbOrTransaction, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Records a use: the new signature counter and when. Conditional on the counter still being the
 * one the assertion was checked against, so of two concurrent uses of one assertion (or of two
 * assertions carrying the same counter) only one is accepted.
 */
export async function recordPasskeyUse(
  db: DbOrTransaction,
  use: { id: string; previousCount: number; newCount: number; at: string; backedUp: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ sign_count: use.newCount, last_used_at: use.at, backed_up: use.backedUp ? 1 : 0 })
    .where('id', '=', use.id)
    .where('sign_count', '=', use.previousCount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
