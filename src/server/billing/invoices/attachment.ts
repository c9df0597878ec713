import type { DbOrTransaction } from '../../platform/db/database.js';
import { renderInvoicePdf } from './pdf.js';
import { findInvoice, toInvoice } from './repository.js';

/** The kind of mail attachment reference that names an invoice (the receipt mail's PDF). */
export const INVOICE_PDF_ATTACHMENT = 'invoice_pdf';

/**
 * An invoice or credit note's PDF by id, for the mail outbox's attachment resolvers (register it
 * under {@link INVOICE_PDF_ATTACHMENT}): rendered when the mail is sent, from the issued record.
 */
export async function invoicePdfBytes(db: DbOrTransaction, invoiceId: string): Promise<Uint8Array> {
  const row = await findInvoice(db, invoiceId);
  if (!row) throw new Error(`invoice ${invoiceId} does not exist`);
  return renderInvoicePdf(toInvoice(row));
}
