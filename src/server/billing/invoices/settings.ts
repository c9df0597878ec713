import type { Config } from '../../platform/config.js';

/**
 * Everything invoicing reads from the configuration (`SELLER_*`, `TAX_*`, `*_SERIES`), as the
 * platform's config parses it: the platform knows no billing, so billing names its part of the config.
 */
export type InvoiceSettings = Config['invoices'];

/** Who issues the invoices: printed on every invoice and credit note as it was at issue time. */
export type SellerDetails = InvoiceSettings['seller'];

/** The one tax line of an invoice: its name, rate and whether plan prices already include it. */
export type TaxSettings = InvoiceSettings['tax'];

/**
 * Why the invoices are not tax invoices, when they are not: without the seller's tax registration
 * (`SELLER_TAX_ID`, a GSTIN in India) a document may not be called a tax invoice, so each is
 * titled "Invoice". Logged as a warning when the server starts; undefined when all is well.
 */
export function taxInvoiceWarning(settings: Pick<InvoiceSettings, 'seller'>): string | undefined {
  if (settings.seller.taxId) return undefined;
  return (
    'SELLER_TAX_ID is not set: invoices are issued as "Invoice", not as tax invoices. Set SELLER_TAX_ID ' +
    'to the seller’s GSTIN (or other tax registration) to issue tax invoices from then on.'
  );
}
