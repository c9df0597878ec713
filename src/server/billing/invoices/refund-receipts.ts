import { portalPaths } from '../../../shared/routes.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { refundReceiptMail } from '../../platform/mail/customer-mails.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { findPlanRow } from '../../catalogue/index.js';
import { findUserById, mailLanguage } from '../../identity/index.js';
import type { PaymentRefundedEvent } from '../events.js';
import { refundedOfPayment } from './refunds-repository.js';

/**
 * The refund receipt, with the credit note's PDF: billing's context queues it when a refund is
 * announced, so the refunds service names no mail.
 */
export function createRefundReceipts({
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
     * Queues the refund receipt in the transaction that issues the credit note, so it is sent exactly
     * when the refund is recorded; only for an administrator's refund (the server's own, a plan
     * change's credit or a second subscription, say so in their own mail), and nothing for an
     * account deleted since.
     */
    async queue(trx: DbOrTransaction, refunded: PaymentRefundedEvent): Promise<void> {
      const { payment, refund, invoice, creditNote } = refunded;
      if (!refunded.byAdministrator || !payment.user_id) return;
      const [user, plan, total] = await Promise.all([
        findUserById(trx, payment.user_id),
        findPlanRow(trx, payment.plan_id),
        refundedOfPayment(trx, payment.id),
      ]);
      if (!user || !plan) return;
      await mailer.queue(
        trx,
        refundReceiptMail({
          to: user.email,
          name: user.full_name,
          language: mailLanguage(user),
          amountMinor: Number(refund.amount_minor),
          currency: refund.currency,
          paidMinor: Number(payment.amount_minor),
          refundedMinor: total,
          planName: plan.name,
          paidAt: payment.paid_at ?? payment.created_at,
          refundedAt: clock.now(),
          invoiceNumber: invoice.number,
          creditNoteId: creditNote.id,
          creditNoteNumber: creditNote.number,
          billingUrl,
        }),
      );
    },
  };
}
