/** Who issues the invoices: printed on every invoice and credit note as it was at issue time. */
export interface SellerDetails {
  name: string;
  /** Postal address, one entry per printed line (street, city and postal code, country). */
  address: string[];
  /** GSTIN, VAT number or other tax registration; printed when set. */
  taxId: string | undefined;
  email: string | undefined;
}

/** The one tax line of an invoice: its name, rate and whether plan prices already include it. */
export interface TaxSettings {
  /** Printed on the tax line, e.g. `GST`, `IGST` or `VAT`. */
  name: string;
  /** In basis points: 1800 is 18 %; 0 prints no tax line. */
  rateBasisPoints: number;
  /**
   * True: plan prices include the tax, and the buyer pays the price. False: the tax is added to
   * the price at checkout, and the buyer pays price plus tax.
   */
  inclusive: boolean;
}

/** Everything invoicing reads from the configuration (`SELLER_*`, `TAX_*`, `*_SERIES`). */
export interface InvoiceSettings {
  seller: SellerDetails;
  tax: TaxSettings;
  /** Series of invoice numbers, e.g. `INV` gives INV-000001, INV-000002, … */
  invoiceSeries: string;
  /** Series of credit note numbers, numbered apart from invoices. */
  creditNoteSeries: string;
}

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
