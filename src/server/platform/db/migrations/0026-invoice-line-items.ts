import type { Kysely } from 'kysely';

// Itemised invoices: what an invoice says besides its lines is fixed when it is issued, like the
// lines themselves (their JSON gains kinds: the plan, the coupon's discount, credit applied). An
// invoice issued before this migration keeps the defaults here and renders as it always did: its
// lines before tax and one tax line from `tax_name` and `tax_rate_bp`.

/** One column at a time: SQLite's ALTER TABLE adds one column per statement. */
const COLUMNS = [
  // JSON of the tax by kind ([{ name: 'CGST', rate_bp: 900, amount: 6096 }, …], the API's shape).
  'taxes',
  // The place of supply in GST's words, e.g. `Karnataka (29)`, when the tax is India's GST.
  'place_of_supply',
  // The provider's payment id (else the order's) the invoice was paid by.
  'payment_reference',
  // The service period the charge pays for (a subscription's cycle, a purchased month or year).
  'period_start',
  'period_end',
  // The organisation billed for its purchase: its page is where its billing details are managed.
  'organisation_id',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // 1 when the lines' amounts include the tax (prices inclusive of it); 0 (every older invoice): before tax.
  await db.schema
    .alterTable('invoices')
    .addColumn('lines_include_tax', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  for (const column of COLUMNS) await db.schema.alterTable('invoices').addColumn(column, 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...COLUMNS].reverse())
    await db.schema.alterTable('invoices').dropColumn(column).execute();
  await db.schema.alterTable('invoices').dropColumn('lines_include_tax').execute();
}
