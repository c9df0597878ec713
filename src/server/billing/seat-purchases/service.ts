import type { SeatPurchase, SeatQuote } from '../../../shared/api/organisations.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { PlanRow, SubscriptionRow, UserRow } from '../../platform/db/tables.js';
import type { OrganisationRow } from '../../platform/db/tables-organisations.js';
import { conflict } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { chargeSummaryOf } from '../invoices/charge-summary.js';
import type { PaymentProvider } from '../payments/provider.js';
import { findPlanIn } from '../../catalogue/index.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { unusedCredit } from '../subscriptions/billing-periods.js';
import type { CyclePricing } from '../subscriptions/cycle-amount.js';
import { declined } from '../subscriptions/refusals.js';
import { SANDBOX_DECLINE_REASON } from '../subscriptions/sandbox-card.js';
import {
  assertManages,
  countAssignedSeats,
  findOrganisationLicense,
  lockOrganisation,
  organisationAccess,
  organisationView,
} from '../../licensing/index.js';
import type { BillingEvents } from '../events.js';
import { findLiveSubscriptionOfOrganisation } from '../subscriptions/repository.js';
import type { Settlement } from '../settlement/settle.js';

export interface SeatPurchaseDeps {
  db: Db;
  clock: Clock;
  /** Announces the seats bought. */
  events: BillingEvents;
  /** Billing's one settle: the seats are granted and charged through it. */
  settlement: Settlement;
  provider: PaymentProvider;
  /** What each seat costs per cycle (coupon and tax), as the subscription's charges are priced. */
  pricing: CyclePricing;
}

const noSubscription = (organisation: OrganisationRow) =>
  conflict(
    'no_seats',
    `${organisation.name} has no subscription yet: buy the Business plan for it on the Purchase page first`,
  );

/**
 * Buying more seats for an organisation's subscription: a quote, then the charge. The seats added
 * are charged now for what is left of the current period (prorated as a plan change is), and every
 * later period charges all seats. Seats are only added here: paying for fewer is refused, since the
 * period is paid for already; the seats bought stay until the subscription ends. Everything is
 * decided again under the organisation's lock, so two purchases at once are both applied in turn
 * (the second from the first's total) or the second is refused; none is lost.
 */
export function createSeatPurchases({ db, clock, events, settlement, provider, pricing }: SeatPurchaseDeps) {
  async function liveSubscription(trx: DbOrTransaction, organisation: OrganisationRow) {
    const subscription = await findLiveSubscriptionOfOrganisation(trx, organisation.id);
    const license = await findOrganisationLicense(trx, organisation.id);
    if (!subscription || !license || license.subscription_id !== subscription.id)
      throw noSubscription(organisation);
    return { subscription, license };
  }

  /** The quote for moving `subscription` to `seats`, refused when it cannot be bought now. */
  async function quoteFor(
    trx: DbOrTransaction,
    organisation: OrganisationRow,
    subscription: SubscriptionRow,
    seats: number,
  ): Promise<{ quote: SeatQuote; plan: PlanRow }> {
    const plan = await findPlanIn(trx, subscription.plan_id, subscription.currency);
    if (!plan) throw new Error(`plan ${subscription.plan_id} is gone`);
    if (
      subscription.status !== 'active' ||
      subscription.current_period_start === null ||
      subscription.current_period_end === null
    )
      throw conflict(
        'subscription_not_active',
        `Pay ${organisation.name}’s outstanding charge before buying seats`,
      );
    const assigned = await countAssignedSeats(trx, organisation.id);
    if (seats < assigned)
      throw conflict(
        'seats_in_use',
        `${assigned} seat${assigned === 1 ? ' is' : 's are'} assigned in ${organisation.name}: take seats back before asking for ${seats}`,
      );
    if (seats === subscription.seats)
      throw conflict('seats_unchanged', `${organisation.name} already has ${seats} seats`);
    if (seats < subscription.seats)
      throw conflict(
        'seats_reduction_unsupported',
        `Seats can be added, not removed: the ${subscription.seats} seats of ${organisation.name} are paid until the period ends`,
      );
    const perSeat = {
      coupon_id: subscription.coupon_id,
      credit_minor: 0,
      seats: 1,
      user_id: subscription.user_id,
      organisation_id: subscription.organisation_id,
    };
    // The current period's price of a seat (its coupon as it applied to this period's charge).
    const seatNow = await pricing.grossOf(trx, perSeat, plan, Math.max(subscription.cycles, 1));
    const seatNext = await pricing.grossOf(trx, perSeat, plan, subscription.cycles + 1);
    const period = { start: subscription.current_period_start, end: subscription.current_period_end };
    const quote: SeatQuote = {
      seats_from: subscription.seats,
      seats_to: seats,
      currency: plan.currency,
      per_seat_minor: seatNext,
      due_now_minor: unusedCredit(seatNow * (seats - subscription.seats), period, clock.now()),
      next_charge_minor: (
        await pricing.amountOf(trx, { ...subscription, seats }, plan, subscription.cycles + 1)
      ).amountMinor,
      period_end: subscription.current_period_end,
    };
    return { quote, plan };
  }

  return {
    async quote(user: UserRow, organisationId: string, seats: number): Promise<SeatQuote> {
      const access = await organisationAccess(db, organisationId, user);
      assertManages(access);
      const { organisation } = access;
      const { subscription } = await liveSubscription(db, organisation);
      return (await quoteFor(db, organisation, subscription, seats)).quote;
    },

    /** Charges the seats added and raises the subscription's and the license's seats together. */
    async buy(
      user: UserRow,
      organisationId: string,
      seats: number,
      meta: RequestMeta,
    ): Promise<SeatPurchase> {
      const access = await organisationAccess(db, organisationId, user);
      assertManages(access);
      const { organisation } = access;
      const first = await liveSubscription(db, organisation);
      if (first.subscription.provider !== 'sandbox' || !provider.sandbox)
        throw conflict(
          'seats_change_unavailable',
          'Seats of a subscription paid through Razorpay cannot be added here yet: contact support to change them',
        );
      const paid = await db.transaction().execute(async (trx) => {
        await lockOrganisation(trx, organisation.id);
        // Decided again under the lock: another purchase may have landed since the first read.
        const { subscription, license } = await liveSubscription(trx, organisation);
        const { quote, plan } = await quoteFor(trx, organisation, subscription, seats);
        if (subscription.sandbox_card === 'declines' && quote.due_now_minor > 0)
          throw declined(SANDBOX_DECLINE_REASON);
        const { payment } = await settlement.settle(trx, {
          kind: 'seats',
          organisation,
          subscription,
          plan,
          license,
          quote,
        });
        const bought = {
          seats_from: quote.seats_from,
          seats_to: quote.seats_to,
          charged_minor: quote.due_now_minor,
          currency: quote.currency,
          subscription_id: subscription.id,
          license_id: license.id,
          ...(payment ? { payment_id: payment.id } : {}),
        };
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.organisationSeatsChanged,
          severity: 'info',
          actorId: user.id,
          userId: user.id,
          meta,
          details: { organisation_id: organisation.id, ...bought },
        });
        await events.publish(trx, {
          type: 'organisation.seats_changed',
          organisation: organisation,
          details: { user_id: user.id, change: 'bought', ...bought },
        });
        return payment ? { payment, quote } : undefined;
      });
      return {
        ...(await organisationView(db, organisation, access.role, clock.now().toISOString())),
        charge: paid
          ? await chargeSummaryOf(
              db,
              paid.payment.id,
              paid.quote.period_end
                ? { amount_minor: paid.quote.next_charge_minor, at: paid.quote.period_end }
                : null,
            )
          : null,
      };
    },
  };
}

export type SeatPurchases = ReturnType<typeof createSeatPurchases>;
