import { type Kysely, sql } from 'kysely';

// Prices in several currencies (issue 34, item 7). A plan keeps its own price and currency; the
// prices it is also sold for in other currencies live in `plan_prices`, one per currency. A
// subscription is charged in the currency it was bought in, for its whole life, so it records it:
// the rows from before are in their plan's own currency.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plan_prices')
    .addColumn('plan_id', 'text', (column) => column.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('price_minor', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('plan_prices_pk', ['plan_id', 'currency'])
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('currency', 'text').execute();
  await sql`update subscriptions set currency = (select plans.currency from plans where plans.id = subscriptions.plan_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('currency').execute();
  await db.schema.dropTable('plan_prices').execute();
}
