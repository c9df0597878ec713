import type { Kysely } from 'kysely';

// A machine's offline-allowance reservations by its activation alone (issue 35's profile). Each new
// lease frees the machine's earlier reservations and the usage it reports draws them down, both by
// activation id, which the primary key (license, activation, feature) could not serve: SQLite read
// the whole table for each, so every license check that signed a lease slowed with every machine
// that had ever checked in. Deleting an activation (its license's deletion) needs it too.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('usage_reservations_activation')
    .on('usage_reservations')
    .column('activation_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('usage_reservations_activation').execute();
}
