import type { Kysely } from 'kysely';

// An organisation's members share its license's usage (its counters are the pool); owners and
// admins may cap what one member uses of a metered feature per period. `usage_member_caps` holds
// the caps, per organisation, member and feature (gone with the membership); `usage_member_counters`
// the members' own running totals per license, feature and period, kept beside the license's
// counters in the same transaction so a cap is checked against them atomically.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_member_caps')
    .addColumn('organisation_id', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('feature_id', 'text', (column) =>
      column.notNull().references('features.id').onDelete('cascade'),
    )
    .addColumn('cap', 'integer', (column) => column.notNull())
    .addColumn('set_by', 'text')
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_member_caps_pk', ['organisation_id', 'user_id', 'feature_id'])
    .addForeignKeyConstraint(
      'usage_member_caps_member_fk',
      ['organisation_id', 'user_id'],
      'organisation_members',
      ['organisation_id', 'user_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('usage_member_counters')
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('feature_id', 'text', (column) =>
      column.notNull().references('features.id').onDelete('cascade'),
    )
    .addColumn('period_start', 'text', (column) => column.notNull())
    .addColumn('total', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_member_counters_pk', [
      'license_id',
      'user_id',
      'feature_id',
      'period_start',
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_member_counters').execute();
  await db.schema.dropTable('usage_member_caps').execute();
}
