import type { Kysely } from 'kysely';

// A member's machine checks its seat with a key of its own, never the organisation's: the seat
// activation answer carries this machine's seat key, and only its SHA-256 is kept. One per
// activation; a new activation answer replaces it, and it goes with the activation's row.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seat_keys')
    .addColumn('activation_id', 'text', (column) =>
      column.primaryKey().references('activations.id').onDelete('cascade'),
    )
    .addColumn('key_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('seat_keys').execute();
}
