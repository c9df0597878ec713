import type { Invoice, InvoiceKind } from '../../../../../shared/api/invoices';

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

/**
 * "CGST 9% + SGST 9%, included" (or "18% GST, included" for an invoice with one tax) for people;
 * an export says so, and a sale to an EU business that its VAT is reverse-charged.
 */
export const describeTax = (
  invoice: Pick<Invoice, 'tax_rate_bp' | 'tax_name' | 'tax_inclusive' | 'taxes' | 'tax_treatment'>,
): string => {
  if (invoice.tax_treatment === 'eu_reverse_charge') return 'Export, reverse charge';
  if (invoice.tax_treatment === 'export') return 'Export, no tax';
  if (invoice.tax_rate_bp === 0) return 'No tax';
  const added = invoice.tax_inclusive ? 'included' : 'added';
  if (invoice.taxes.length > 1)
    return `${invoice.taxes.map((tax) => `${tax.name} ${tax.rate_bp / 100}%`).join(' + ')}, ${added}`;
  const [only] = invoice.taxes;
  return `${invoice.tax_rate_bp / 100}% ${only?.name ?? invoice.tax_name}, ${added}`;
};

/** "CGST 9% (included)": one kind of tax, as the PDF names it. */
export const taxLineLabel = (tax: Invoice['taxes'][number], included: boolean): string =>
  `${tax.name} ${tax.rate_bp / 100}%${included ? ' (included)' : ''}`;

/** "Jan 3, 2026 to Feb 3, 2026". */
export const formatServicePeriod = (period: NonNullable<Invoice['service_period']>): string =>
  `${formatIssueDate(period.start)} to ${formatIssueDate(period.end)}`;
