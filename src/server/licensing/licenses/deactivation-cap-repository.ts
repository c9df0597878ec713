import type { DbOrTransaction } from '../../platform/db/database.js';
import type { MachineDeactivationsTable } from '../../platform/db/tables-fair-use.js';

/** The deactivations of a license that still count against its plan's cap (since `since`), oldest first. */
export const countedDeactivations = (
  db: DbOrTransaction,
  licenseId: string,
  since: string,
): Promise<Array<{ deactivated_at: string }>> =>
  db
    .selectFrom('machine_deactivations')
    .select('deactivated_at')
    .where('license_id', '=', licenseId)
    .where('deactivated_at', '>', since)
    .where('forgiven_at', 'is', null)
    .orderBy('deactivated_at')
    .execute();

export async function insertDeactivation(db: DbOrTransaction, row: MachineDeactivationsTable): Promise<void> {
  await db.insertInto('machine_deactivations').values(row).execute();
}

/** Forgives the counted deactivations of a license; answers how many there were. */
export async function forgiveDeactivations(
  db: DbOrTransaction,
  licenseId: string,
  since: string,
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('machine_deactivations')
    .set({ forgiven_at: at })
    .where('license_id', '=', licenseId)
    .where('deactivated_at', '>', since)
    .where('forgiven_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
