import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentRow, SubscriptionRow } from '../../platform/db/tables.js';
import { paidChargesTakenBy, refundTotalsOf } from './refunds-repository.js';

/**
 * The id of one refund of the kept credit: per cancellation (the subscription's version when it was
 * cancelled, taken under its row lock) and per charge it is refunded from, so a cancellation asked
 * twice refunds once, and a later one (after a resume and another move) refunds anew.
 */
export const creditRefundId = (subscriptionId: string, version: number, share: number) =>
  `credit-${subscriptionId}-${version}-${share}`;

export const CREDIT_REFUND_REASON = 'Credit kept from a move to a cheaper plan, refunded on canceling';

/** Part of the kept credit, refunded from one of the subscription's paid charges. */
export interface CreditShare {
  payment: PaymentRow;
  amountMinor: number;
}

export interface CreditRefunds {
  shares: CreditShare[];
  /** What cancelling refunds of the credit: the shares' sum. */
  refundMinor: number;
  /** What no charge can take back (refunded already, or taken by a provider no longer used). */
  keptMinor: number;
}

/**
 * How a subscription's kept credit goes back when it is cancelled. The credit is what was paid for
 * periods a move to a cheaper plan cut short, so it is refunded from the subscription's own paid
 * charges, newest first, each at most what is left to refund of it (pending refunds counted) and
 * only through the provider that took it. What none can take is `keptMinor`: the cancel dialog says
 * so before the customer confirms.
 */
export async function creditRefunds(
  db: DbOrTransaction,
  row: Pick<SubscriptionRow, 'id' | 'credit_minor'>,
  providerName: string,
): Promise<CreditRefunds> {
  const credit = Number(row.credit_minor);
  if (credit <= 0) return { shares: [], refundMinor: 0, keptMinor: 0 };
  const payments = await paidChargesTakenBy(db, row.id, providerName as PaymentRow['provider']);
  const refunded = new Map<string, number>();
  if (payments.length > 0)
    for (const sum of await refundTotalsOf(
      db,
      payments.map((payment) => payment.id),
    ))
      refunded.set(sum.payment_id, Number(sum.total));
  const shares: CreditShare[] = [];
  let left = credit;
  for (const payment of payments) {
    if (left === 0) break;
    const refundable = Number(payment.amount_minor) - (refunded.get(payment.id) ?? 0);
    const amountMinor = Math.min(left, refundable);
    if (amountMinor <= 0) continue;
    shares.push({ payment, amountMinor });
    left -= amountMinor;
  }
  return { shares, refundMinor: credit - left, keptMinor: left };
}
