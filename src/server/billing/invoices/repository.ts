import type { Insertable } from 'kysely';
import type { z } from 'zod';
import type {
  Invoice,
  InvoiceLine,
  InvoiceTaxLine,
  invoiceListQuerySchema,
  TaxTreatmentKind,
} from '../../../shared/api/invoices.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';
import type {
  BillingDetailsRow,
  BillingDetailsTable,
  InvoiceRow,
  InvoicesTable,
} from '../../platform/db/tables.js';

/** An invoice row with the number of the invoice a credit note corrects, and the organisation's name. */
export type InvoiceWithOrigin = InvoiceRow & {
  corrects_number: string | null;
  corrects_payment_id: string | null;
  organisation_name: string | null;
};

export const findBillingDetails = (
  db: DbOrTransaction,
  userId: string,
): Promise<BillingDetailsRow | undefined> =>
  db.selectFrom('billing_details').selectAll().where('user_id', '=', userId).executeTakeFirst();

export async function saveBillingDetails(db: DbOrTransaction, row: BillingDetailsTable): Promise<void> {
  const { user_id: _userId, ...changes } = row;
  await db
    .insertInto('billing_details')
    .values(row)
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(changes))
    .execute();
}

/**
 * The next number of a series, gap-free: the counter row is incremented in the caller's
 * transaction, which holds the row (PostgreSQL) or the database's write lock (SQLite) until it
 * commits, so concurrent issuers queue up and a rolled-back issue gives its number back.
 */
export async function takeNextNumber(trx: DbOrTransaction, series: string): Promise<number> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const bumped = await trx
      .updateTable('document_counters')
      .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
      .where('series', '=', series)
      .returning('last_number')
      .executeTakeFirst();
    if (bumped) return Number(bumped.last_number);
    // A series' first number: create its counter (another issuer may be creating it at this
    // moment; the insert then waits for it and does nothing), then increment it as above.
    await trx
      .insertInto('document_counters')
      .values({ series, last_number: 0 })
      .onConflict((conflict) => conflict.column('series').doNothing())
      .execute();
  }
  throw new Error(`the counter of series ${series} could not be created`);
}

export async function insertInvoice(db: DbOrTransaction, row: Insertable<InvoicesTable>): Promise<void> {
  await db.insertInto('invoices').values(row).execute();
}

/** Invoices with what their API answer names besides their own columns (see {@link toInvoice}). */
export const invoicesWithOrigin = (db: DbOrTransaction) =>
  db
    .selectFrom('invoices')
    .leftJoin('invoices as origin', 'origin.id', 'invoices.invoice_id')
    .leftJoin('organisations', 'organisations.id', 'invoices.organisation_id')
    .selectAll('invoices')
    .select([
      'origin.number as corrects_number',
      'origin.payment_id as corrects_payment_id',
      'organisations.name as organisation_name',
    ]);

export const findInvoiceRowOfPayment = (
  db: DbOrTransaction,
  paymentId: string,
): Promise<InvoiceRow | undefined> =>
  db
    .selectFrom('invoices')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .where('kind', '=', 'invoice')
    .executeTakeFirst();

export const findInvoice = (db: DbOrTransaction, id: string): Promise<InvoiceWithOrigin | undefined> =>
  invoicesWithOrigin(db).where('invoices.id', '=', id).executeTakeFirst();

/** Credit notes of an invoice, oldest first. */
export const creditNotesOf = (db: DbOrTransaction, invoiceId: string): Promise<InvoiceRow[]> =>
  db
    .selectFrom('invoices')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', 'credit_note')
    .orderBy('sequence')
    .execute();

/** One page of a customer's invoices and credit notes, newest first unless sorted otherwise. */
export async function listInvoicesOfUser(
  db: DbOrTransaction,
  userId: string,
  query: z.output<typeof invoiceListQuerySchema>,
): Promise<Paged<InvoiceWithOrigin>> {
  let select = invoicesWithOrigin(db).where('invoices.user_id', '=', userId);
  if (query.kind) select = select.where('invoices.kind', '=', query.kind);
  if (query.search) select = select.where(matchesSearch(['invoices.number'], query.search));
  const sort = query.sort ?? { field: 'issued_at', direction: 'desc' };
  select = select
    .orderBy(sort.field === 'number' ? 'invoices.number' : 'invoices.issued_at', sort.direction)
    .orderBy('invoices.number', sort.direction);
  return fetchPage(select, query);
}

type Party = Invoice['buyer'];

/** The tax by kind as issued; an invoice from before itemising has one line of its one tax (none when it had none). */
export function taxLinesOf(
  row: Pick<InvoiceRow, 'taxes' | 'tax_name' | 'tax_rate_bp' | 'tax_minor'>,
): InvoiceTaxLine[] {
  if (row.taxes !== null) return JSON.parse(row.taxes) as InvoiceTaxLine[];
  const rate = Number(row.tax_rate_bp);
  const tax = Number(row.tax_minor);
  return rate === 0 && tax === 0 ? [] : [{ name: row.tax_name, rate_bp: rate, amount: tax }];
}

/** Lines as issued; those from before itemising are items without a coupon. */
const linesOf = (row: Pick<InvoiceRow, 'lines'>): InvoiceLine[] =>
  (JSON.parse(row.lines) as Array<Partial<InvoiceLine> & Omit<InvoiceLine, 'kind' | 'coupon_code'>>).map(
    (line) => ({ ...line, kind: line.kind ?? 'item', coupon_code: line.coupon_code ?? null }),
  );

/** Exports, zero-rated: still tax invoices under GST, endorsed with the LUT note (CGST Rules, r. 46). */
const ZERO_RATED: ReadonlySet<string> = new Set<TaxTreatmentKind>(['export', 'eu_reverse_charge']);

/**
 * "Tax invoice" only when the seller had a tax registration (a GSTIN) printed on it and tax was
 * charged, or the sale was a zero-rated export: a document without one is not a tax invoice,
 * whatever tax it shows.
 */
export const invoiceTitle = (
  invoice: Pick<InvoiceRow, 'kind' | 'tax_rate_bp' | 'tax_treatment'> & { sellerTaxId: string | null },
): string =>
  invoice.kind === 'credit_note'
    ? 'Credit note'
    : invoice.sellerTaxId && (Number(invoice.tax_rate_bp) > 0 || ZERO_RATED.has(invoice.tax_treatment ?? ''))
      ? 'Tax invoice'
      : 'Invoice';

export function toInvoice(row: InvoiceWithOrigin): Invoice {
  const seller = JSON.parse(row.seller) as Party;
  return {
    id: row.id,
    kind: row.kind,
    title: invoiceTitle({ ...row, sellerTaxId: seller.tax_id }),
    number: row.number,
    issued_at: row.issued_at,
    currency: row.currency,
    subtotal: Number(row.subtotal_minor),
    tax: Number(row.tax_minor),
    total: Number(row.total_minor),
    tax_name: row.tax_name,
    tax_rate_bp: Number(row.tax_rate_bp),
    tax_inclusive: Number(row.tax_inclusive) === 1,
    lines_include_tax: Number(row.lines_include_tax) === 1,
    taxes: taxLinesOf(row),
    place_of_supply: row.place_of_supply,
    tax_treatment: (row.tax_treatment as TaxTreatmentKind | null) ?? null,
    tax_notes: row.tax_notes ? (JSON.parse(row.tax_notes) as string[]) : [],
    payment_id: row.payment_id ?? row.corrects_payment_id,
    payment_reference: row.payment_reference,
    service_period:
      row.period_start && row.period_end ? { start: row.period_start, end: row.period_end } : null,
    organisation:
      row.organisation_id && row.organisation_name !== null
        ? { id: row.organisation_id, name: row.organisation_name }
        : null,
    corrects:
      row.invoice_id && row.corrects_number ? { id: row.invoice_id, number: row.corrects_number } : null,
    seller,
    buyer: JSON.parse(row.buyer) as Party,
    lines: linesOf(row),
  };
}
