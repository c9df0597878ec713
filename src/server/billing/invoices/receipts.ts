import { portalPaths } from '../../../shared/routes.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { InvoiceRow } from '../../platform/db/tables.js';
import type { Invoice } from '../../../shared/api/invoices.js';
import { receiptMail } from '../../platform/mail/customer-mails.js';
import { formatMoney } from '../../platform/mail/formatting.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { findPlanRow } from '../../catalogue/index.js';
import { findUserById, mailLanguage } from '../../identity/index.js';
import { taxLabel } from './pdf.js';
import { taxLinesOf } from './repository.js';
import type { PaymentPaidEvent } from '../events.js';

/**
 * The invoice's lines as the receipt lists them, the same as the PDF: each line (`3 × ₹1,499.00`
 * when more than one), the tax by kind, what was paid and the invoice's tax notes.
 */
export function receiptItems(invoice: InvoiceRow): Array<{ label: string; value: string }> {
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const lines = JSON.parse(invoice.lines) as Array<
    Pick<Invoice['lines'][number], 'description' | 'quantity' | 'unit_amount' | 'amount'>
  >;
  const included = Number(invoice.lines_include_tax) === 1;
  return [
    ...lines.map((line) => ({
      label: line.description,
      value:
        line.quantity === 1
          ? money(line.amount)
          : `${line.quantity} × ${money(line.unit_amount)} = ${money(line.amount)}`,
    })),
    { label: 'Taxable value', value: money(Number(invoice.subtotal_minor)) },
    ...taxLinesOf(invoice).map((tax) => ({ label: taxLabel(tax, included), value: money(tax.amount) })),
    { label: 'Total', value: money(Number(invoice.total_minor)) },
    // How the sale was taxed, as the invoice recorded it (an export's LUT note, the reverse charge).
    ...(invoice.tax_notes ? (JSON.parse(invoice.tax_notes) as string[]) : []).map((note) => ({
      label: 'Tax note',
      value: note,
    })),
  ];
}

/**
 * The receipt of a paid charge, with its invoice attached: one-off purchases, subscription charges
 * and seats bought alike. Billing's context queues it when a payment is announced paid, so no
 * service that settles a payment names it.
 */
export function createReceipts({
  mailer,
  publicUrl,
  clock,
}: {
  mailer: Mailer;
  publicUrl: string;
  clock: Clock;
}) {
  const billingUrl = new URL(portalPaths.billing, publicUrl).toString();
  return {
    /**
     * Queues the receipt in the transaction that settled the payment, so it is sent exactly when the
     * payment is recorded; nothing for a charge of nothing, or for an account deleted since. Seats
     * bought for an organisation say so (`seats`).
     */
    async queue(trx: DbOrTransaction, paid: PaymentPaidEvent): Promise<void> {
      const { payment, invoice } = paid;
      if (Number(payment.amount_minor) <= 0 || !payment.user_id) return;
      const user = await findUserById(trx, payment.user_id);
      const plan = paid.plan?.id === payment.plan_id ? paid.plan : await findPlanRow(trx, payment.plan_id);
      if (!user || !plan) return;
      await mailer.queue(
        trx,
        receiptMail({
          to: user.email,
          name: user.full_name,
          language: mailLanguage(user),
          amountMinor: Number(payment.amount_minor),
          currency: payment.currency,
          planName: plan.name,
          paidAt: payment.paid_at ?? clock.now(),
          invoiceId: invoice.id,
          invoiceNumber: invoice.number,
          paidUntil: paid.paidUntil,
          billingUrl,
          items: receiptItems(invoice),
          seats: paid.seats,
        }),
      );
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
