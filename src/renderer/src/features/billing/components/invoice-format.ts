import type { Invoice, InvoiceKind } from '../../../../../shared/api/billing';

const formatters = new Map<string, Intl.NumberFormat>();

/** An amount in the currency's minor unit for people, with the currency's own decimals: "₹999.00", "-₹333.33". */
export function formatMinorAmount(minor: number, currency: string): string {
  let format = formatters.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    formatters.set(currency, format);
  }
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** decimals);
}

export const INVOICE_KIND_LABELS: Record<InvoiceKind, string> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
};

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
export const formatIssueDate = (iso: string): string => dateOnly.format(new Date(iso));

/** "18% GST, included" for people. */
export const describeTax = (invoice: Pick<Invoice, 'tax_rate_bp' | 'tax_name' | 'tax_inclusive'>): string =>
  invoice.tax_rate_bp === 0
    ? 'No tax'
    : `${invoice.tax_rate_bp / 100}% ${invoice.tax_name}, ${invoice.tax_inclusive ? 'included' : 'added'}`;
