import type { Kysely } from 'kysely';

// Activation by file for machines that never go online. Each request file is kept by its nonce, so
// the same file uploaded twice answers the same seat and license file; the installation's public
// key it carried is what a later signed-out proof is checked against, and a proof once used frees
// the seat for good. A plan may give its offline licenses their own lifetime.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('offline_activations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('nonce', 'text', (column) => column.notNull().unique())
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('activation_id', 'text', (column) =>
      column.notNull().references('activations.id').onDelete('cascade'),
    )
    .addColumn('hardware_id', 'text', (column) => column.notNull())
    .addColumn('installation_key', 'text', (column) => column.notNull())
    .addColumn('lease', 'text', (column) => column.notNull())
    .addColumn('lease_id', 'text', (column) => column.notNull())
    .addColumn('lease_expires_at', 'text', (column) => column.notNull())
    .addColumn('uploaded_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('deactivated_at', 'text')
    .addColumn('deactivated_by', 'text')
    .execute();
  await db.schema
    .createIndex('offline_activations_license_idx')
    .on('offline_activations')
    .columns(['license_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('plan_offline_leases')
    .addColumn('plan_id', 'text', (column) => column.primaryKey().references('plans.id').onDelete('cascade'))
    .addColumn('lease_days', 'integer', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('plan_offline_leases').ifExists().execute();
  await db.schema.dropTable('offline_activations').ifExists().execute();
}
