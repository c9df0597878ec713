import type { ChargeSummary } from '../../../shared/api/charges.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { findPaymentAmount } from './charges-repository.js';
import { findInvoiceRowOfPayment, taxLinesOf, toInvoice } from './repository.js';

export type NextCharge = ChargeSummary['next_charge'];

/**
 * What a paid payment charged, from its invoice's lines as issued: the same figures the invoice
 * prints, so the panel and the invoice never disagree by a paisa. A payment without an invoice
 * (none should be) is summarised from the payment row alone.
 */
export async function chargeSummaryOf(
  db: DbOrTransaction,
  paymentId: string,
  nextCharge: NextCharge,
): Promise<ChargeSummary | null> {
  const payment = await findPaymentAmount(db, paymentId);
  if (!payment || payment.status !== 'paid') return null;
  const row = await findInvoiceRowOfPayment(db, paymentId);
  const charged = Number(payment.amount_minor);
  if (!row)
    return {
      currency: payment.currency,
      description: 'Payment',
      quantity: 1,
      list_price_minor: charged,
      unit_price_minor: charged,
      discount: null,
      credit_minor: 0,
      taxes: [],
      lines_include_tax: true,
      charged_today_minor: charged,
      invoice_number: null,
      next_charge: nextCharge,
    };
  const { lines, lines_include_tax: linesIncludeTax } = toInvoice({
    ...row,
    corrects_number: null,
    corrects_payment_id: null,
    organisation_name: null,
  });
  const item = lines.find((line) => line.kind === 'item');
  const discounts = lines.filter((line) => line.kind === 'discount');
  const quantity = item?.quantity ?? 1;
  const discountMinor = -discounts.reduce((sum, line) => sum + line.amount, 0);
  const unitDiscount = -discounts.reduce((sum, line) => sum + line.unit_amount, 0);
  const listPrice = item?.unit_amount ?? charged;
  return {
    currency: row.currency,
    description: item?.description ?? 'Payment',
    quantity,
    list_price_minor: listPrice,
    unit_price_minor: listPrice - unitDiscount,
    discount:
      discountMinor > 0
        ? { coupon_code: discounts[0]?.coupon_code ?? null, amount_minor: discountMinor }
        : null,
    credit_minor: lines
      .filter((line) => line.kind === 'credit' || line.kind === 'adjustment')
      .reduce((sum, line) => sum + line.amount, 0),
    taxes: taxLinesOf(row),
    lines_include_tax: linesIncludeTax,
    charged_today_minor: Number(row.total_minor),
    invoice_number: row.number,
    next_charge: nextCharge,
  };
}
