import type { Kysely } from 'kysely';

// Coupons: a percentage or a fixed amount off, on the first charge or on every charge of a
// subscription, with an optional expiry and redemption limit. Each redemption is a row, taken in
// the transaction that opens the order or subscription, so the limit holds under races.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('coupons')
    .addColumn('id', 'text', (column) => column.primaryKey())
    // Stored in capitals: customers type codes in any case.
    .addColumn('code', 'text', (column) => column.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('percent_off', 'integer')
    .addColumn('amount_off_minor', 'integer')
    // The currency of a fixed amount off; null for a percentage.
    .addColumn('currency', 'text')
    // once: the first charge only; forever: every charge of a subscription.
    .addColumn('duration', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('max_redemptions', 'integer')
    .addColumn('redeemed_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('archived_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('coupon_redemptions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('coupon_id', 'text', (column) => column.notNull().references('coupons.id'))
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('payment_id', 'text', (column) => column.references('payments.id').onDelete('set null'))
    .addColumn('subscription_id', 'text', (column) =>
      column.references('subscriptions.id').onDelete('set null'),
    )
    .addColumn('discount_minor', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  // One redemption of a coupon per customer.
  await db.schema
    .createIndex('coupon_redemptions_user_idx')
    .on('coupon_redemptions')
    .columns(['coupon_id', 'user_id'])
    .unique()
    .execute();

  // The coupon a subscription was opened with: its discount applies to the first charge or to all.
  await db.schema
    .alterTable('subscriptions')
    .addColumn('coupon_id', 'text', (column) => column.references('coupons.id'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('coupon_id').execute();
  await db.schema.dropTable('coupon_redemptions').execute();
  await db.schema.dropTable('coupons').execute();
}
