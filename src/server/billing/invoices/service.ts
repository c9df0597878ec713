import type { z } from 'zod';
import type {
  BillingDetails,
  BillingDetailsAnswer,
  BillingDetailsInput,
  Invoice,
  invoiceListQuerySchema,
} from '../../../shared/api/invoices.js';
import type { Paged } from '../../../shared/api/paging.js';
import { currentCountryCode } from '../../../shared/countries.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { BillingDetailsRow, UserRow } from '../../platform/db/tables.js';
import { notFound } from '../../platform/http-error.js';
import { findUserById } from '../../identity/index.js';
import { renderInvoicePdf, invoiceFileName } from './pdf.js';
import {
  findBillingDetails,
  findInvoice,
  listInvoicesOfUser,
  saveBillingDetails,
  toInvoice,
} from './repository.js';

type InvoiceListQuery = z.output<typeof invoiceListQuerySchema>;

/** As saved; a country saved under a code since withdrawn (DD, YU…) reads as the current one. */
const toBillingDetails = (row: BillingDetailsRow): BillingDetails => ({
  name: row.name,
  address_line1: row.address_line1,
  address_line2: row.address_line2,
  city: row.city,
  postal_code: row.postal_code,
  region: row.region,
  country: currentCountryCode(row.country) ?? row.country,
  tax_id: row.tax_id,
  updated_at: row.updated_at,
});

/** Someone else's invoice reads as not found, like one that does not exist. */
const invoiceNotFound = () => notFound('invoice_not_found', 'Invoice not found');
const userNotFound = () => notFound('user_not_found', 'User not found');

/** A customer's billing details and invoices; administrators read anyone's invoices. */
export function createBillingService({ db, clock }: { db: Db; clock: Clock }) {
  /** The invoice if the caller may read it: its owner, or an administrator. */
  async function readableInvoice(user: UserRow, id: string): Promise<Invoice> {
    const row = await findInvoice(db, id);
    if (!row || (row.user_id !== user.id && user.role !== 'admin')) throw invoiceNotFound();
    return toInvoice(row);
  }

  return {
    async details(user: UserRow): Promise<BillingDetailsAnswer> {
      const row = await findBillingDetails(db, user.id);
      return { details: row ? toBillingDetails(row) : null };
    },

    /** Replaces the billing details; invoices already issued keep the details they were issued with. */
    async saveDetails(user: UserRow, input: BillingDetailsInput): Promise<BillingDetails> {
      const row: BillingDetailsRow = {
        user_id: user.id,
        name: input.name,
        address_line1: input.address_line1,
        address_line2: input.address_line2,
        city: input.city,
        postal_code: input.postal_code,
        region: input.region,
        country: input.country,
        tax_id: input.tax_id,
        updated_at: isoNow(clock),
      };
      await saveBillingDetails(db, row);
      return toBillingDetails(row);
    },

    async invoices(user: UserRow, query: InvoiceListQuery): Promise<Paged<Invoice>> {
      const page = await listInvoicesOfUser(db, user.id, query);
      return { ...page, data: page.data.map(toInvoice) };
    },

    invoice: readableInvoice,

    async invoicePdf(user: UserRow, id: string): Promise<{ fileName: string; pdf: Buffer }> {
      const invoice = await readableInvoice(user, id);
      return { fileName: invoiceFileName(invoice), pdf: await renderInvoicePdf(invoice) };
    },

    /** A customer's invoices and credit notes, for administrators. */
    async invoicesOfUser(userId: string, query: InvoiceListQuery): Promise<Paged<Invoice>> {
      if (!(await findUserById(db, userId))) throw userNotFound();
      const page = await listInvoicesOfUser(db, userId, query);
      return { ...page, data: page.data.map(toInvoice) };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
