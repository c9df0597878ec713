import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SignInSourcesTable } from '../../platform/db/tables.js';

type SourceKind = SignInSourcesTable['kind'];

/** Whether the account has any sign-in on record (none: its first sign-in, or its first since this was kept). */
export async function hasSignInSources(db: DbOrTransaction, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sign_in_sources')
    .select('user_id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets the account's devices and networks not seen since `cutoff`: they count as new again. */
export async function forgetSignInSourcesBefore(
  db: DbOrTransaction,
  userId: string,
  cutoff: string,
): Promise<void> {
  await db
    .deleteFrom('sign_in_sources')
    .where('user_id', '=', userId)
    .where('last_seen_at', '<', cutoff)
    .execute();
}

/**
 * Records a device or network of a sign-in; true when it was not on record. Of two sign-ins
 * from the same new one at once, only the one whose row goes in first is told it is new: the
 * other's insert waits for it (PostgreSQL) or comes after it (SQLite) and finds the row.
 */
export async function noteSignInSource(
  db: DbOrTransaction,
  source: { userId: string; kind: SourceKind; value: string; now: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('sign_in_sources')
    .values({
      user_id: source.userId,
      kind: source.kind,
      value: source.value,
      first_seen_at: source.now,
      last_seen_at: source.now,
    })
    .onConflict((conflict) => conflict.columns(['user_id', 'kind', 'value']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
  await db
    .updateTable('sign_in_sources')
    .set({ last_seen_at: source.now })
    .where('user_id', '=', source.userId)
    .where('kind', '=', source.kind)
    .where('value', '=', source.value)
    .execute();
  return false;
}
