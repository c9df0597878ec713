import type { SeatQuote } from '../../../shared/api/organisations.js';
import type { PaymentRow, SubscriptionRow } from '../../platform/db/tables.js';

// A charge for seats added mid-period is one of the subscription's payments, told apart from its
// cycles' charges by its key: `<provider subscription>#seats:<from>-<to>@<period end>`. The key is
// unique, so the same move within a period is charged once however the requests race.

export const seatChargeKey = (
  subscription: Pick<SubscriptionRow, 'provider_subscription_id'>,
  quote: Pick<SeatQuote, 'seats_from' | 'seats_to' | 'period_end'>,
): string =>
  `${subscription.provider_subscription_id}#seats:${quote.seats_from}-${quote.seats_to}@${quote.period_end ?? ''}`;

/** The seats a payment added, when it is a charge for seats added mid-period. */
export function seatsAddedBy(
  payment: Pick<PaymentRow, 'provider_order_id'>,
): { from: number; to: number } | undefined {
  const match = /#seats:(\d+)-(\d+)@/.exec(payment.provider_order_id);
  return match ? { from: Number(match[1]), to: Number(match[2]) } : undefined;
}
