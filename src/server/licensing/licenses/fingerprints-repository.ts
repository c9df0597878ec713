import type { DbOrTransaction } from '../../platform/db/database.js';
import type { ActivationRow } from '../../platform/db/tables.js';
import type { ActivationComponentChangesTable } from '../../platform/db/tables-fair-use.js';

/** The license's machines whose apps sent fingerprint components. */
export const machinesWithComponents = (db: DbOrTransaction, licenseId: string): Promise<ActivationRow[]> =>
  db
    .selectFrom('activations')
    .selectAll()
    .where('license_id', '=', licenseId)
    .where('components', 'is not', null)
    .execute();

/** Sets the machine's components if they are still `previous`; whether they were. */
export async function setComponents(
  db: DbOrTransaction,
  activationId: string,
  components: string,
  previous: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('activations')
    .set({ components })
    .where('id', '=', activationId)
    .where('components', previous === null ? 'is' : '=', previous)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertComponentChange(
  db: DbOrTransaction,
  row: ActivationComponentChangesTable,
): Promise<void> {
  await db.insertInto('activation_component_changes').values(row).execute();
}

/** The component changes of a license's machines, newest first, by machine. */
export async function componentChangesOf(
  db: DbOrTransaction,
  activationIds: string[],
): Promise<Map<string, ActivationComponentChangesTable[]>> {
  const byMachine = new Map<string, ActivationComponentChangesTable[]>();
  if (activationIds.length === 0) return byMachine;
  const rows = await db
    .selectFrom('activation_component_changes')
    .selectAll()
    .where('activation_id', 'in', activationIds)
    .orderBy('changed_at', 'desc')
    .execute();
  for (const row of rows)
    byMachine.set(row.activation_id, [...(byMachine.get(row.activation_id) ?? []), row]);
  return byMachine;
}
