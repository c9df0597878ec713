import type { Kysely } from 'kysely';

// Fair use of a license's machines. A plan caps how many machines a license may deactivate in a
// rolling 30 days (`deactivations_per_30_days`); `machine_deactivations` remembers each counted one
// (a customer's, never a reclaim or an organisation's seat removal) until an administrator forgives
// them (`forgiven_at`). A machine may send hashed components of its fingerprint beside its hardware
// id (`activations.components`, JSON); the plan's `fingerprint_threshold` is how many must match
// for a machine to be known again, and `activation_component_changes` is each machine's history of
// components that changed while it kept its seat.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .addColumn('deactivations_per_30_days', 'integer', (column) => column.notNull().defaultTo(3))
    .execute();
  await db.schema
    .alterTable('plans')
    .addColumn('fingerprint_threshold', 'integer', (column) => column.notNull().defaultTo(3))
    .execute();
  await db.schema.alterTable('activations').addColumn('components', 'text').execute();

  await db.schema
    .createTable('machine_deactivations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('activation_id', 'text', (column) => column.notNull())
    .addColumn('hardware_id', 'text', (column) => column.notNull())
    .addColumn('deactivated_at', 'text', (column) => column.notNull())
    .addColumn('forgiven_at', 'text')
    .execute();
  await db.schema
    .createIndex('machine_deactivations_license_at')
    .on('machine_deactivations')
    .columns(['license_id', 'deactivated_at'])
    .execute();

  await db.schema
    .createTable('activation_component_changes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('activation_id', 'text', (column) =>
      column.notNull().references('activations.id').onDelete('cascade'),
    )
    .addColumn('license_id', 'text', (column) => column.notNull())
    // JSON array of the names of the components that changed.
    .addColumn('changed', 'text', (column) => column.notNull())
    .addColumn('matched', 'integer', (column) => column.notNull())
    .addColumn('changed_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('activation_component_changes_activation')
    .on('activation_component_changes')
    .columns(['activation_id', 'changed_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('activation_component_changes').execute();
  await db.schema.dropTable('machine_deactivations').execute();
  await db.schema.alterTable('activations').dropColumn('components').execute();
  await db.schema.alterTable('plans').dropColumn('fingerprint_threshold').execute();
  await db.schema.alterTable('plans').dropColumn('deactivations_per_30_days').execute();
}
