import PDFDocument from 'pdfkit';
import type { Invoice } from '../../../shared/api/invoices.js';
import { isEuCountry } from '../../../shared/eu-vat.js';

/**
 * Invoices and credit notes as PDF (pdfkit). The text uses the PDF standard fonts (Helvetica),
 * which every reader has and which need no font file, so amounts are written with the currency's
 * code (`INR 1,180.00`) rather than a symbol such as ₹ that those fonts lack; names and addresses
 * are written in the fonts' Latin-1 repertoire (accents kept, other scripts replaced).
 */

/** Characters beyond Latin-1 that the standard fonts' WinAnsi encoding still has. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text as the standard fonts can draw it: decomposed accents dropped where needed, then `?`. */
export function printable(text: string): string {
  let out = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(character)) {
      out += character;
      continue;
    }
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      out += ' ';
      continue;
    }
    // ₹ and other currency signs have no glyph: the code is printed next to amounts anyway.
    const base = character.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    out += [...base].every((c) => (c.codePointAt(0) ?? 0) <= 0xff) && base.length > 0 ? base : '?';
  }
  return out;
}

const decimalsOf = (currency: string): number => {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
};

/**
 * An amount in minor units as `INR 1,180.00` (Indian digit grouping for INR): divided by the
 * currency's own number of decimals (2 for INR, 0 for JPY), never through floating cents.
 */
export function formatMinor(amountMinor: number, currency: string): string {
  const decimals = decimalsOf(currency);
  const sign = amountMinor < 0 ? '-' : '';
  const absolute = Math.abs(amountMinor);
  const scale = 10 ** decimals;
  const major = Math.floor(absolute / scale);
  const minor = absolute % scale;
  const grouped = new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', {
    maximumFractionDigits: 0,
  }).format(major);
  const fraction = decimals > 0 ? `.${String(minor).padStart(decimals, '0')}` : '';
  return `${sign}${currency} ${grouped}${fraction}`;
}

/** `18%` or `12.5%` from basis points. */
export const formatRate = (basisPoints: number): string =>
  `${(basisPoints / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
export const formatIssueDate = (iso: string): string => dateFormat.format(new Date(iso));

/** `GSTIN` for an Indian party, `VAT number` for one in the EU, the neutral `Tax id` otherwise. */
const taxIdLabel = (country: string | null) =>
  country === 'IN' ? 'GSTIN' : isEuCountry(country) ? 'VAT number' : 'Tax id';

/** `1 January 2026 to 1 February 2026`. */
export const formatPeriod = (period: { start: string; end: string }): string =>
  `${formatIssueDate(period.start)} to ${formatIssueDate(period.end)}`;

/** `CGST 9%`, with `(included)` when the prices include it. */
export const taxLabel = (tax: { name: string; rate_bp: number }, included: boolean): string =>
  `${tax.name} ${formatRate(tax.rate_bp)}${included ? ' (included)' : ''}`;

/** `GSTIN` when the seller's tax id is one (two digits of a state, then the PAN), else `Tax id`. */
const sellerTaxIdLabel = (taxId: string) =>
  /^\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]Z[0-9A-Z]$/.test(taxId) ? 'GSTIN' : 'Tax id';

/** The PDF's file name: `INV-000042.pdf`. */
export const invoiceFileName = (invoice: Pick<Invoice, 'number'>): string =>
  `${invoice.number.replace(/[^A-Za-z0-9-]/g, '_')}.pdf`;

const PAGE_MARGIN = 50;
const INK = '#1f2933';
const MUTED = '#52606d';
const RULE = '#cbd2d9';

/** Renders an invoice or credit note to PDF bytes. */
export function renderInvoicePdf(invoice: Invoice): Promise<Buffer> {
  const title = invoice.title;
  const issued = new Date(invoice.issued_at);
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    info: {
      Title: `${title} ${invoice.number}`,
      Author: printable(invoice.seller.name ?? ''),
      Subject: `${title} ${invoice.number}`,
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = PAGE_MARGIN;
  const width = doc.page.width - 2 * PAGE_MARGIN;
  const money = (amount: number) => formatMinor(amount, invoice.currency);

  // Heading: the seller on the left, the document's title, number and date on the right.
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(title, left, PAGE_MARGIN, { width, align: 'right' });
  doc.font('Helvetica').fontSize(10).fillColor(MUTED);
  const facts = [
    `Number: ${invoice.number}`,
    `Date: ${formatIssueDate(invoice.issued_at)}`,
    ...(invoice.corrects ? [`Corrects invoice: ${invoice.corrects.number}`] : []),
    ...(invoice.place_of_supply ? [`Place of supply: ${invoice.place_of_supply}`] : []),
    ...(invoice.payment_reference ? [`Payment reference: ${invoice.payment_reference}`] : []),
  ];
  doc.text(facts.join('\n'), left, doc.y + 4, { width, align: 'right' });
  const afterFacts = doc.y;

  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(13)
    .text(printable(invoice.seller.name ?? ''), left, PAGE_MARGIN, {
      width: width / 2,
    });
  doc.font('Helvetica').fontSize(10).fillColor(MUTED);
  const sellerLines = [
    ...invoice.seller.address,
    ...(invoice.seller.tax_id
      ? [`${sellerTaxIdLabel(invoice.seller.tax_id)}: ${invoice.seller.tax_id}`]
      : []),
    ...(invoice.seller.email ? [invoice.seller.email] : []),
  ];
  if (sellerLines.length > 0) doc.text(sellerLines.map(printable).join('\n'), { width: width / 2 });

  // The buyer.
  let y = Math.max(doc.y, afterFacts) + 24;
  doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(9).text('BILLED TO', left, y);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(11);
  doc.text(printable(invoice.buyer.name ?? invoice.buyer.email ?? 'Customer'), left, doc.y + 2, { width });
  doc.font('Helvetica').fontSize(10).fillColor(INK);
  const buyerLines = [
    ...invoice.buyer.address,
    ...(invoice.buyer.tax_id ? [`${taxIdLabel(invoice.buyer.country)}: ${invoice.buyer.tax_id}`] : []),
    ...(invoice.buyer.email && invoice.buyer.name ? [invoice.buyer.email] : []),
  ];
  if (buyerLines.length > 0) doc.text(buyerLines.map(printable).join('\n'), { width });
  // An organisation billed without its billing details: say so, and where they are added.
  if (invoice.organisation && invoice.buyer.address.length === 0)
    doc
      .fillColor(MUTED)
      .text(
        "No billing address or tax id was on file for this organization. Its owner or an admin can add them on the organization's page in the portal; later invoices carry them.",
        { width },
      );

  // The lines.
  y = doc.y + 24;
  const columns = {
    description: left,
    quantity: left + width * 0.55,
    unit: left + width * 0.65,
    amount: left + width * 0.82,
  };
  const amountWidth = width * 0.18;
  const unitWidth = width * 0.17;
  doc.font('Helvetica-Bold').fontSize(9).fillColor(MUTED);
  doc.text('DESCRIPTION', columns.description, y);
  doc.text('QTY', columns.quantity, y, { width: width * 0.1, align: 'right' });
  doc.text('UNIT PRICE', columns.unit, y, { width: unitWidth, align: 'right' });
  doc.text('AMOUNT', columns.amount, y, { width: amountWidth, align: 'right' });
  y = doc.y + 4;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .strokeColor(RULE)
    .lineWidth(1)
    .stroke();
  doc.font('Helvetica').fontSize(10).fillColor(INK);
  const period = invoice.service_period;
  for (const [index, line] of invoice.lines.entries()) {
    y += 8;
    doc.fillColor(INK).text(printable(line.description), columns.description, y, { width: width * 0.52 });
    // The service period under what was bought (the first item line).
    if (period && index === invoice.lines.findIndex((each) => each.kind === 'item'))
      doc
        .fillColor(MUTED)
        .fontSize(9)
        .text(`Service period: ${formatPeriod(period)}`, { width: width * 0.52 })
        .fontSize(10)
        .fillColor(INK);
    const rowBottom = doc.y;
    doc.text(String(line.quantity), columns.quantity, y, { width: width * 0.1, align: 'right' });
    doc.text(money(line.unit_amount), columns.unit, y, { width: unitWidth, align: 'right' });
    doc.text(money(line.amount), columns.amount, y, { width: amountWidth, align: 'right' });
    y = Math.max(rowBottom, doc.y) + 4;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .strokeColor(RULE)
      .stroke();
  }

  // The totals, right-aligned under the amounts.
  const labelX = left + width * 0.45;
  const labelWidth = width * 0.37;
  const total = (label: string, amount: number, bold = false) => {
    y += 8;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 11 : 10)
      .fillColor(INK);
    doc.text(label, labelX, y, { width: labelWidth, align: 'right' });
    doc.text(money(amount), columns.amount, y, { width: amountWidth, align: 'right' });
    y = doc.y;
  };
  // Lines with the tax in them already add up to the total: the taxable value and the tax by kind
  // are what the total contains. Lines before tax add up to the taxable value, and the tax is added.
  total('Taxable value', invoice.subtotal);
  for (const tax of invoice.taxes) total(printable(taxLabel(tax, invoice.lines_include_tax)), tax.amount);
  total(invoice.kind === 'credit_note' ? 'Total credited' : 'Total', invoice.total, true);

  // What the reader needs to know about the amounts.
  y += 28;
  const notes = [
    `Amounts in ${invoice.currency}.`,
    invoice.tax_rate_bp > 0
      ? invoice.tax_inclusive
        ? `Prices include ${printable(invoice.tax_name)} at ${formatRate(invoice.tax_rate_bp)}.`
        : `${printable(invoice.tax_name)} at ${formatRate(invoice.tax_rate_bp)} is added to the price.`
      : '',
    invoice.kind === 'credit_note'
      ? `This credit note reduces invoice ${invoice.corrects?.number ?? ''} by the amount above.`
      : 'Paid in full. Thank you.',
  ].filter(Boolean);
  doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(notes.join(' '), left, y, { width });
  // How the sale was taxed, as recorded at issue: the LUT note of an export, the reverse charge.
  if (invoice.tax_notes.length > 0)
    doc
      .font('Helvetica-Bold')
      .fillColor(INK)
      .text(invoice.tax_notes.map(printable).join('\n'), left, doc.y + 8, { width });
  doc.end();
  return done;
}
