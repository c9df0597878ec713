import type { Kysely } from 'kysely';

// Members' floating seats. An organisation's members never see its key, so a member's machine
// checks a floating seat out by being signed in, and gets a key of its own for the machine's later
// calls (heartbeats, release, borrow, the license check): `floating_member_keys` keeps its SHA-256
// with the member, the organisation's license and the one hardware id it works with. A seat taken
// through it names its member (`floating_seats.held_by`), so a member who is removed or leaves
// gives back the seats their machines hold.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('floating_member_keys')
    .addColumn('key_hash', 'text', (column) => column.primaryKey())
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('organisation_id', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('hardware_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  // One key per member and machine: a fresh sign-in's key replaces the one before.
  await db.schema
    .createIndex('floating_member_keys_machine')
    .on('floating_member_keys')
    .columns(['license_id', 'user_id', 'hardware_id'])
    .unique()
    .execute();
  await db.schema.alterTable('floating_seats').addColumn('held_by', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('floating_seats').dropColumn('held_by').execute();
  await db.schema.dropTable('floating_member_keys').execute();
}
