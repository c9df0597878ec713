import type { Kysely } from 'kysely';

// Offline allowance in the lease. When a machine of a license with metered features gets a lease,
// it reserves per feature a share of what is left this period: units other reporters cannot use
// while the machine may be offline. One row per machine and feature, replaced by the machine's
// next lease. What the machine reports of use made since it was taken draws it down (`used`); it
// stops holding at `expires_at` (the period's end or the lease's, whichever first),
// or when the machine is deactivated.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_reservations')
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('activation_id', 'text', (column) =>
      column.notNull().references('activations.id').onDelete('cascade'),
    )
    .addColumn('feature_id', 'text', (column) =>
      column.notNull().references('features.id').onDelete('cascade'),
    )
    .addColumn('period_start', 'text', (column) => column.notNull())
    .addColumn('units', 'integer', (column) => column.notNull())
    .addColumn('used', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('taken_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_reservations_pk', ['license_id', 'activation_id', 'feature_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_reservations').execute();
}
