import type { Kysely } from 'kysely';

// The name a license's owner gives a machine ("Office laptop"), kept apart from the name the device
// reports: activating the same machine again refreshes `device_name` but leaves the owner's name.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('activations').addColumn('label', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('activations').dropColumn('label').execute();
}
