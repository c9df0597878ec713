import { randomUUID } from 'node:crypto';
import type { SeatQuote } from '../../../shared/api/organisations.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PaymentRow, PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import type { OrganisationRow } from '../../platform/db/tables-organisations.js';
import { conflict } from '../../platform/http-error.js';
import { setSeats } from '../../licensing/index.js';
import { insertPayment } from '../payments/repository.js';
import { seatChargeKey } from '../seat-purchases/charge-key.js';
import { updateSubscription } from '../subscriptions/repository.js';
import { sandboxPaymentId } from '../subscriptions/sandbox-card.js';
import { invoiceAndAnnounce, type SettlementDeps } from './steps.js';

/**
 * Seats added to an organisation's subscription, as quoted under the organisation's lock: the rows
 * the quote was made from are passed along, not read again.
 */
export interface SeatCharge {
  kind: 'seats';
  organisation: OrganisationRow;
  subscription: SubscriptionRow;
  plan: PlanRow;
  license: LicenseRow;
  quote: SeatQuote;
}

export interface SeatSettlement {
  subscription: SubscriptionRow;
  /** The prorated charge of the seats added; none when nothing is due now. */
  payment: PaymentRow | undefined;
}

/** The paid payment row of the seats added, charged at once by the sandbox card. */
function seatPaymentRow(
  subscription: SubscriptionRow,
  plan: PlanRow,
  quote: SeatQuote,
  licenseId: string,
  now: string,
): PaymentRow {
  return {
    id: randomUUID(),
    user_id: subscription.user_id,
    plan_id: plan.id,
    provider: subscription.provider,
    provider_order_id: seatChargeKey(subscription, quote),
    provider_payment_id: sandboxPaymentId(),
    amount_minor: quote.due_now_minor,
    currency: quote.currency,
    status: 'paid',
    license_id: licenseId,
    failure_reason: null,
    created_at: now,
    updated_at: now,
    paid_at: now,
    subscription_id: subscription.id,
    kind: 'subscription',
    period_start: now,
    period_end: quote.period_end,
  };
}

/**
 * Raises the subscription's and the license's seats together and charges the seats added for what
 * is left of the period: the payment, its invoice, and the payment announced paid with the seats it
 * bought (the payer's receipt tells them). Refused when the subscription moved since it was quoted.
 */
export async function settleSeats(
  trx: DbOrTransaction,
  deps: SettlementDeps,
  { organisation, subscription, plan, license, quote }: SeatCharge,
): Promise<SeatSettlement> {
  const { clock } = deps;
  const now = clock.now().toISOString();
  const moved = await updateSubscription(
    trx,
    subscription.id,
    { seats: quote.seats_to, updated_at: now },
    { version: subscription.version, statuses: ['active'] },
  );
  if (!moved) throw conflict('subscription_changed', 'The subscription changed meanwhile; look again');
  await setSeats(trx, clock, license, { seats: quote.seats_to, machinesPerSeat: plan.max_activations });
  if (quote.due_now_minor <= 0) return { subscription: moved, payment: undefined };
  const payment = seatPaymentRow(moved, plan, quote, license.id, now);
  await insertPayment(trx, payment);
  await invoiceAndAnnounce(trx, deps, {
    payment,
    plan,
    subscription: moved,
    paidUntil: quote.period_end,
    seats: { organisationName: organisation.name, from: quote.seats_from, to: quote.seats_to },
  });
  return { subscription: moved, payment };
}
