import { type Kysely, sql } from 'kysely';

// Which account took each seat. Someone who activates with a key shared by its owner sees, and may
// free, only the machines they activated themselves. Seats taken before this was recorded are
// counted as the license owner's, who sees and frees every seat anyway.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('activations')
    // The seat outlives the account that took it: the owner can still free it.
    .addColumn('activated_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .execute();
  await sql`
    update activations
    set activated_by = (select licenses.user_id from licenses where licenses.id = activations.license_id)
  `.execute(db);
  // Deleting an account clears its seats' column: without an index that scans every activation.
  await db.schema
    .createIndex('activations_activated_by_idx')
    .on('activations')
    .column('activated_by')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('activations_activated_by_idx').ifExists().execute();
  await db.schema.alterTable('activations').dropColumn('activated_by').execute();
}
