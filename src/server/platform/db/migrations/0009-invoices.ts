import type { Kysely } from 'kysely';

// Billing details of customers, invoices and credit notes with gap-free numbers, and refunds.
// An invoice keeps the seller's and the buyer's details as they were when it was issued (JSON
// text), so a later change of address or configuration never rewrites an issued document.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_details')
    .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('address_line1', 'text', (column) => column.notNull())
    .addColumn('address_line2', 'text')
    .addColumn('city', 'text', (column) => column.notNull())
    .addColumn('postal_code', 'text', (column) => column.notNull())
    .addColumn('region', 'text')
    .addColumn('country', 'text', (column) => column.notNull())
    .addColumn('tax_id', 'text')
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  // One row per number series: the issuing transaction increments it, so a rolled-back issue
  // gives its number back and two issues at once wait for each other instead of sharing one.
  await db.schema
    .createTable('document_counters')
    .addColumn('series', 'text', (column) => column.primaryKey())
    .addColumn('last_number', 'integer', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('payment_id', 'text', (column) => column.notNull().references('payments.id'))
    .addColumn('amount_minor', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    // `pending` while the provider is asked (its amount already counts against what is left to
    // refund), `processed` once the provider took it and the credit note was issued.
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('provider_refund_id', 'text', (column) => column.unique())
    .addColumn('reason', 'text')
    .addColumn('license_action', 'text', (column) => column.notNull())
    // Kept as plain text like security events: the record outlives the administrator's account.
    .addColumn('actor_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('refunds_payment_idx').on('refunds').column('payment_id').execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('series', 'text', (column) => column.notNull())
    .addColumn('sequence', 'integer', (column) => column.notNull())
    .addColumn('number', 'text', (column) => column.notNull().unique())
    // The customer; null once the account is deleted (accounting keeps the document).
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    // An invoice's payment: one invoice per payment. Null on credit notes.
    .addColumn('payment_id', 'text', (column) => column.unique().references('payments.id'))
    // A credit note's refund (one each) and the invoice it corrects. Null on invoices.
    .addColumn('refund_id', 'text', (column) => column.unique().references('refunds.id'))
    .addColumn('invoice_id', 'text', (column) => column.references('invoices.id'))
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('subtotal_minor', 'integer', (column) => column.notNull())
    .addColumn('tax_minor', 'integer', (column) => column.notNull())
    .addColumn('total_minor', 'integer', (column) => column.notNull())
    .addColumn('tax_name', 'text', (column) => column.notNull())
    .addColumn('tax_rate_bp', 'integer', (column) => column.notNull())
    .addColumn('tax_inclusive', 'integer', (column) => column.notNull())
    .addColumn('seller', 'text', (column) => column.notNull())
    .addColumn('buyer', 'text', (column) => column.notNull())
    .addColumn('lines', 'text', (column) => column.notNull())
    .addColumn('issued_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('invoices_series_sequence_idx')
    .on('invoices')
    .columns(['series', 'sequence'])
    .unique()
    .execute();
  await db.schema
    .createIndex('invoices_user_issued_idx')
    .on('invoices')
    .columns(['user_id', 'issued_at'])
    .execute();
  await db.schema.createIndex('invoices_invoice_idx').on('invoices').column('invoice_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invoices').execute();
  await db.schema.dropTable('refunds').execute();
  await db.schema.dropTable('document_counters').execute();
  await db.schema.dropTable('billing_details').execute();
}
