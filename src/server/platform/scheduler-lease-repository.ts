import type { DbOrTransaction } from './db/database.js';

/** Creates the lease row for the first server to ask; a row already there is left alone. */
export async function insertLeaseUnlessPresent(
  db: DbOrTransaction,
  lease: { name: string; holder: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('scheduler_leases')
    .values({ name: lease.name, holder: lease.holder, expires_at: lease.expiresAt })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

/**
 * Takes (or renews) the lease for `holder` when it holds it already or the lease expired by `now`;
 * one conditional update, so of servers asking at once only one gets it.
 */
export async function claimLease(
  db: DbOrTransaction,
  lease: { name: string; holder: string; expiresAt: string },
  now: string,
): Promise<boolean> {
  const taken = await db
    .updateTable('scheduler_leases')
    .set({ holder: lease.holder, expires_at: lease.expiresAt })
    .where('name', '=', lease.name)
    .where((eb) => eb.or([eb('holder', '=', lease.holder), eb('expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/** Gives the lease back, if `holder` still holds it. */
export async function deleteLeaseOf(db: DbOrTransaction, name: string, holder: string): Promise<void> {
  await db.deleteFrom('scheduler_leases').where('name', '=', name).where('holder', '=', holder).execute();
}
