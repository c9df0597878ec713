import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { Invoice, InvoiceKind } from '../../../../../shared/api/invoices';
import { formatDate } from '../../../lib/format-date';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';
import { numberFormat } from '../../../lib/number-format';

/**
 * An amount in the currency's minor unit for people, with the currency's own decimals: "₹999.00",
 * "-₹333.33", written as the language shown writes amounts.
 */
export function formatMinorAmount(minor: number, currency: string): string {
  const format = numberFormat(formattingLocale(), { style: 'currency', currency });
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** decimals);
}

/** "Invoice" / "Credit note" (render with the shown language's `i18n._`). */
export const INVOICE_KIND_LABELS: Record<InvoiceKind, MessageDescriptor> = {
  invoice: msg`Invoice`,
  credit_note: msg`Credit note`,
};

/** The titles the server gives a document ("Tax invoice", "Invoice", "Credit note"), for people. */
const INVOICE_TITLES: Record<string, MessageDescriptor> = {
  'Tax invoice': msg`Tax invoice`,
  Invoice: msg`Invoice`,
  'Credit note': msg`Credit note`,
};

/** An invoice's title in the shown language (one the portal does not know stays as sent). */
export function invoiceTitle(invoice: Pick<Invoice, 'title'>): string {
  const known = INVOICE_TITLES[invoice.title];
  return known ? i18n._(known) : invoice.title;
}

/** "Details of tax invoice INV-1": the accessible name of an invoice's Details button. */
export function invoiceDetailsLabel(invoice: Pick<Invoice, 'title' | 'number'>): string {
  const number = invoice.number;
  if (invoice.title === 'Tax invoice') return t`Details of tax invoice ${number}`;
  if (invoice.title === 'Invoice') return t`Details of invoice ${number}`;
  if (invoice.title === 'Credit note') return t`Details of credit note ${number}`;
  const title = invoice.title.toLowerCase();
  return t`Details of ${title} ${number}`;
}

/** "Download PDF of invoice INV-1": the accessible name of an invoice's PDF button. */
export function invoiceDownloadLabel(invoice: Pick<Invoice, 'kind' | 'number'>): string {
  const number = invoice.number;
  return invoice.kind === 'credit_note'
    ? t`Download PDF of credit note ${number}`
    : t`Download PDF of invoice ${number}`;
}

/** "Jan 3, 2026": the day an invoice was issued, as every portal date is written. */
export const formatIssueDate = (iso: string): string => formatDate(iso);

/**
 * "CGST 9% + SGST 9%, included" (or "18% GST, included" for an invoice with one tax) for people;
 * an export says so, and a sale to an EU business that its VAT is reverse-charged.
 */
export const describeTax = (
  invoice: Pick<Invoice, 'tax_rate_bp' | 'tax_name' | 'tax_inclusive' | 'taxes' | 'tax_treatment'>,
): string => {
  if (invoice.tax_treatment === 'eu_reverse_charge') return t`Export, reverse charge`;
  if (invoice.tax_treatment === 'export') return t`Export, no tax`;
  if (invoice.tax_rate_bp === 0) return t`No tax`;
  const [only] = invoice.taxes;
  const taxes =
    invoice.taxes.length > 1
      ? invoice.taxes.map((tax) => `${tax.name} ${tax.rate_bp / 100}%`).join(' + ')
      : `${invoice.tax_rate_bp / 100}% ${only?.name ?? invoice.tax_name}`;
  return invoice.tax_inclusive ? t`${taxes}, included` : t`${taxes}, added`;
};

/** "CGST 9% (included)": one kind of tax, as the PDF names it. */
export function taxLineLabel(tax: Invoice['taxes'][number], included: boolean): string {
  const label = `${tax.name} ${tax.rate_bp / 100}%`;
  return included ? t`${label} (included)` : label;
}

/** "Jan 3, 2026 to Feb 3, 2026". */
export function formatServicePeriod(period: NonNullable<Invoice['service_period']>): string {
  const start = formatIssueDate(period.start);
  const end = formatIssueDate(period.end);
  return t`${start} to ${end}`;
}
