import type { Kysely } from 'kysely';

// Overage billed. Each row is what one charge billed of one license's use past a metered
// feature's allowance in one period: its units, what they cost (in the plan's price terms, as a
// plan's price is), and the charge and invoice it went on. A period may have more than one row:
// use reported late into a period already billed is billed with the next renewal, and the units
// already billed are subtracted, so nothing is billed twice. On Razorpay a row is first `pending`,
// with the add-on that puts it on the subscription's next invoice, and `billed` once that charge
// is settled.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_overage_charges')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('feature_id', 'text', (column) =>
      column.notNull().references('features.id').onDelete('cascade'),
    )
    .addColumn('period_start', 'text', (column) => column.notNull())
    .addColumn('period_end', 'text', (column) => column.notNull())
    .addColumn('units', 'integer', (column) => column.notNull())
    .addColumn('amount_minor', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('price_minor', 'integer', (column) => column.notNull())
    .addColumn('per_units', 'integer', (column) => column.notNull())
    .addColumn('subscription_id', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('provider_addon_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('invoice_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('billed_at', 'text')
    .execute();
  await db.schema
    .createIndex('usage_overage_charges_period')
    .on('usage_overage_charges')
    .columns(['license_id', 'feature_id', 'period_start'])
    .execute();
  // A charge's overage, for its invoice. Not unique per feature and period: two Razorpay add-ons
  // of one period (the second for use reported late) may both go on the same renewal.
  await db.schema
    .createIndex('usage_overage_charges_payment')
    .on('usage_overage_charges')
    .column('payment_id')
    .execute();
  await db.schema
    .createIndex('usage_overage_charges_subscription')
    .on('usage_overage_charges')
    .columns(['subscription_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_overage_charges').execute();
}
