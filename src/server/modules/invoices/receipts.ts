import { portalPaths } from '../../../shared/routes.js';
import type { Clock } from '../../clock.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { InvoiceRow, PaymentRow } from '../../db/tables.js';
import { type ReceiptSeats, receiptMail } from '../../mail/customer-mails.js';
import type { Mailer } from '../../mail/mailer.js';
import { findPlanRow } from '../plans/repository.js';
import { findUserById } from '../users/repository.js';

/** The receipt of a paid charge, with its invoice attached: one-off purchases and subscription charges alike. */
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
    async queue(
      trx: DbOrTransaction,
      charge: {
        payment: PaymentRow;
        invoice: InvoiceRow;
        paidUntil: string | null;
        seats?: ReceiptSeats | undefined;
      },
    ): Promise<void> {
      const { payment, invoice } = charge;
      if (Number(payment.amount_minor) <= 0 || !payment.user_id) return;
      const user = await findUserById(trx, payment.user_id);
      const plan = await findPlanRow(trx, payment.plan_id);
      if (!user || !plan) return;
      await mailer.queue(
        trx,
        receiptMail({
          to: user.email,
          name: user.full_name,
          amountMinor: Number(payment.amount_minor),
          currency: payment.currency,
          planName: plan.name,
          paidAt: payment.paid_at ?? clock.now(),
          invoiceId: invoice.id,
          invoiceNumber: invoice.number,
          paidUntil: charge.paidUntil,
          billingUrl,
          seats: charge.seats,
        }),
      );
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
