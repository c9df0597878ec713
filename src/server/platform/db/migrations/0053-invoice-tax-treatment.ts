import type { Kysely } from 'kysely';

// Tax by customer: each invoice records how its sale was taxed when it was issued (GST within a
// state or across, an export with no GST, an EU business's reverse charge) and the notes that say
// so, so its PDF, receipts and credit notes never decide again. Invoices issued before keep null
// and render as they always did.

/** One column at a time: SQLite's ALTER TABLE adds one column per statement. */
const COLUMNS = [
  // The treatment's kind (`gst_intra_state`, `gst_inter_state`, `export`, `eu_reverse_charge`, `domestic`).
  'tax_treatment',
  // JSON of the notes printed under the totals (the LUT note, the reverse charge wording).
  'tax_notes',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('invoices').addColumn(column, 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...COLUMNS].reverse())
    await db.schema.alterTable('invoices').dropColumn(column).execute();
}
