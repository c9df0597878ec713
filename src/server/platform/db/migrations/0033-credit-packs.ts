import type { Kysely } from 'kysely';

// Credit packs. A plan's metered feature may sell a pack of units (`pack_units` for
// `pack_price_minor` in the plan's currency). A bought or granted pack is a `usage_packs` row of the
// license and feature: its units, how many are used, when it expires, and where it came from (a
// payment, or an administrator's grant with its reason); `ended_at` is set when a refund ends what
// is left of it. `usage_counters.from_packs` is what a period's use drew from packs, so only use
// past the allowance and the packs is billed. `usage_pack_orders` is billing's note of what an
// open order buys: the license, feature and number of packs, and the price each was sold at.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plan_features').addColumn('pack_units', 'integer').execute();
  await db.schema.alterTable('plan_features').addColumn('pack_price_minor', 'integer').execute();
  await db.schema
    .alterTable('usage_counters')
    .addColumn('from_packs', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('usage_packs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('feature_id', 'text', (column) =>
      column.notNull().references('features.id').onDelete('cascade'),
    )
    .addColumn('units', 'integer', (column) => column.notNull())
    .addColumn('used', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('payment_id', 'text', (column) => column.unique())
    .addColumn('granted_by', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema
    .createIndex('usage_packs_license_feature')
    .on('usage_packs')
    .columns(['license_id', 'feature_id', 'expires_at'])
    .execute();

  await db.schema
    .createTable('usage_pack_orders')
    .addColumn('payment_id', 'text', (column) =>
      column.primaryKey().references('payments.id').onDelete('cascade'),
    )
    .addColumn('license_id', 'text', (column) => column.notNull())
    .addColumn('feature_id', 'text', (column) => column.notNull())
    .addColumn('quantity', 'integer', (column) => column.notNull())
    .addColumn('units', 'integer', (column) => column.notNull())
    .addColumn('price_minor', 'integer', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_pack_orders').execute();
  await db.schema.dropTable('usage_packs').execute();
  await db.schema.alterTable('usage_counters').dropColumn('from_packs').execute();
  for (const column of ['pack_price_minor', 'pack_units'])
    await db.schema.alterTable('plan_features').dropColumn(column).execute();
}
