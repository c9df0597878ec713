import type { DbOrTransaction } from '../../platform/db/database.js';
import type { OfflineActivationRow } from '../../platform/db/tables-offline-activation.js';

export const findOfflineActivationByNonce = (
  db: DbOrTransaction,
  nonce: string,
): Promise<OfflineActivationRow | undefined> =>
  db.selectFrom('offline_activations').selectAll().where('nonce', '=', nonce).executeTakeFirst();

export async function insertOfflineActivation(db: DbOrTransaction, row: OfflineActivationRow): Promise<void> {
  await db.insertInto('offline_activations').values(row).execute();
}

/** Marks the request spent; false when a proof already did (a replay, or a lost race with one). */
export async function markOfflineDeactivated(
  db: DbOrTransaction,
  id: string,
  at: string,
  by: string,
): Promise<boolean> {
  const result = await db
    .updateTable('offline_activations')
    .set({ deactivated_at: at, deactivated_by: by })
    .where('id', '=', id)
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The plan's own offline lifetime in days, when it sets one. */
export async function planOfflineLeaseDays(db: DbOrTransaction, planId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('plan_offline_leases')
    .select('lease_days')
    .where('plan_id', '=', planId)
    .executeTakeFirst();
  return row?.lease_days;
}
