import type { Kysely } from 'kysely';

// Abandoned checkouts: an order left unpaid reads as expired after CHECKOUT_EXPIRY_MINUTES
// (worked out when it is read, so every instance agrees). The customer may dismiss an expired or
// failed order from their payment history; it stays recorded, and a late payment still settles it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('dismissed_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('dismissed_at').execute();
}
