import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentRow } from '../../platform/db/tables.js';

/**
 * The subscription's paid charges that charged something and that this provider took (a refund is
 * asked of the provider that took the payment), newest first.
 */
export const paidChargesTakenBy = (
  db: DbOrTransaction,
  subscriptionId: string,
  provider: PaymentRow['provider'],
): Promise<PaymentRow[]> =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'paid')
    .where('provider', '=', provider)
    .where('provider_payment_id', 'is not', null)
    .where('amount_minor', '>', 0)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** What is reserved or refunded of each of these payments, pending refunds included; none for a payment without refunds. */
export const refundTotalsOf = (db: DbOrTransaction, paymentIds: string[]) =>
  db
    .selectFrom('refunds')
    .select('payment_id')
    .select((eb) => eb.fn.sum<number | string>('amount_minor').as('total'))
    .where('payment_id', 'in', paymentIds)
    .groupBy('payment_id')
    .execute();
