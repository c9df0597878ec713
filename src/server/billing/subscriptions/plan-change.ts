import { randomUUID } from 'node:crypto';
import {
  PLAN_CHANGE_QUOTE_VALIDITY_MINUTES,
  type PlanChangeQuote,
} from '../../../shared/api/subscriptions.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import { conflict, notFound } from '../../platform/http-error.js';
import { findCoupon } from '../../catalogue/index.js';
import { countSeatsInUse, followPlanChange } from '../../licensing/index.js';
import { periodOfCycle, quotePlanChange, type RecurringInterval } from './billing-periods.js';
import type { SubscriptionCharges } from './charges.js';
import { pendingSubscriptionRow } from './new-subscription.js';
import { type ProviderSubscriptions, TOTAL_CYCLES } from './provider-plans.js';
import { findPlanChangeQuote, savePlanChangeQuote } from './quote-repository.js';
import { insertSubscription, paidChargeOfPeriod, updateSubscription } from './repository.js';
import { SANDBOX_DECLINE_REASON, sandboxPaymentId } from './sandbox-card.js';
import { declined } from './refusals.js';

/** What a plan change did: moved the subscription (sandbox), or opened its replacement (Razorpay). */
type MovablePlan = PlanRow & { billing_interval: RecurringInterval };

/** The plan as a quote shows it. */
const quotedPlan = (plan: MovablePlan): PlanChangeQuote['plan'] => ({
  id: plan.id,
  code: plan.code,
  name: plan.name,
  billing_interval: plan.billing_interval,
  price_minor: Number(plan.price_minor),
  currency: plan.currency,
});

export type PlanChangeOutcome =
  | { kind: 'changed'; subscription: SubscriptionRow }
  /** A new subscription to the new plan, authorised and paid in Checkout; it takes over on that charge. */
  | { kind: 'replacement'; replacement: SubscriptionRow; dueNowMinor: number };

/**
 * Moving a subscription to another plan at once: the quote (the unused part of the current period
 * credited, in integer minor units) and the change itself, charged at the quote. The sandbox moves
 * the subscription in place, taking the credit off the new price. Razorpay cannot (its plan update
 * is refused for most Indian cards), so there the credit is refunded and a new subscription to the
 * new plan is paid in full through Checkout; it takes over the license when that charge is paid.
 */
export function createPlanChanges({
  db,
  clock,
  charges,
  recurringPlan,
  providers,
}: {
  db: Db;
  clock: Clock;
  charges: SubscriptionCharges;
  /**
   * The offered monthly or yearly plan by id or code at its price in `currency` (null: its own), or
   * the reason it cannot be subscribed to.
   */
  recurringPlan: (planId: string, currency: string | null) => Promise<MovablePlan>;
  /** Razorpay's calls: the replacing subscription is opened there. */
  providers: ProviderSubscriptions;
}) {
  /**
   * Razorpay: opens the new subscription that replaces `row`. It takes over the license when its
   * first charge is paid (replacement-takeover.ts); the old one is then closed at Razorpay and its
   * unused credit refunded (provider-closing.ts).
   */
  async function openReplacement(
    row: SubscriptionRow,
    plan: MovablePlan,
    quote: Pick<PlanChangeQuote, 'due_now_minor' | 'credit_minor'>,
  ): Promise<SubscriptionRow> {
    const id = randomUUID();
    const providerSubscriptionId = await providers.call(async (gateway) =>
      gateway.createSubscription({
        // Every charge of the new plan, its every-charge coupon and exclusive tax included.
        providerPlanId: await providers.planFor(gateway, plan, quote.due_now_minor),
        totalCount: TOTAL_CYCLES[plan.billing_interval],
        notes: { subscription_id: id, plan_id: plan.id, user_id: row.user_id ?? '', replaces: row.id },
      }),
    );
    // An every-charge coupon goes on discounting; a first-charge one was spent on the first charge.
    const coupon = row.coupon_id ? await findCoupon(db, row.coupon_id) : undefined;
    const replacement = pendingSubscriptionRow({
      id,
      userId: row.user_id,
      planId: plan.id,
      currency: plan.currency,
      provider: row.provider,
      providerSubscriptionId,
      couponId: coupon?.duration === 'forever' ? coupon.id : null,
      now: clock.now().toISOString(),
      replaces: { subscriptionId: row.id, creditMinor: quote.credit_minor },
    });
    await insertSubscription(db, replacement);
    return replacement;
  }

  /** The license keeps its machines: a plan with fewer seats than are in use is refused. */
  async function refuseTooFewSeats(trx: DbOrTransaction, row: SubscriptionRow, plan: PlanRow) {
    if (!row.license_id) return;
    const used = await countSeatsInUse(trx, row.license_id);
    if (used > plan.max_activations)
      throw conflict(
        'too_many_activations',
        `${plan.name} allows ${plan.max_activations} machine${plan.max_activations === 1 ? '' : 's'}, but this license is active on ${used}. Deactivate ${used - plan.max_activations} first.`,
      );
  }

  /** The plan `row` may move to now, or the reason it may not. */
  async function planToMoveTo(row: SubscriptionRow, planId: string) {
    if (row.status !== 'active' || row.current_period_start === null || row.current_period_end === null)
      throw conflict(
        'subscription_not_active',
        row.status === 'past_due' || row.status === 'suspended'
          ? 'Pay the outstanding charge before changing the plan'
          : 'Only an active subscription can change its plan',
      );
    // A subscription is charged in the currency it was bought in: the new plan at its price in it.
    const plan = await recurringPlan(planId, row.currency);
    if (plan.id === row.plan_id) throw conflict('same_plan', `You already subscribe to ${plan.name}`);
    // An organisation's seats are bought on its page; a personal plan cannot carry them, nor the reverse.
    if (row.organisation_id !== null || plan.seat_based === 1)
      throw conflict(
        'plan_change_unavailable',
        'A plan priced per seat is bought for an organization and keeps its plan: change its seats on the organization’s page',
      );
    return { plan, current: { start: row.current_period_start, end: row.current_period_end } };
  }

  /** What the move costs at this moment, worked out afresh (not kept: `quote` keeps it). */
  async function quoteFor(
    row: SubscriptionRow,
    planId: string,
  ): Promise<{ quote: Omit<PlanChangeQuote, 'id' | 'expires_at'>; plan: MovablePlan }> {
    const { plan, current } = await planToMoveTo(row, planId);
    const paid = await paidChargeOfPeriod(db, row.id, current.end);
    const now = clock.now();
    const replaces = row.provider !== 'sandbox';
    const newPriceMinor = await charges.pricing.grossOf(db, row, plan, row.cycles + 1);
    const inPlace = quotePlanChange({
      paidMinor: paid ? Number(paid.amount_minor) : 0,
      period: current,
      // A replacement starts afresh: nothing kept is carried over, the credit is refunded instead.
      balanceMinor: replaces ? 0 : row.credit_minor,
      newPriceMinor,
      now,
    });
    const change = replaces
      ? { creditMinor: inPlace.creditMinor, dueNowMinor: newPriceMinor, balanceAfterMinor: 0 }
      : inPlace;
    const period = periodOfCycle({ anchorAt: now.toISOString(), anchorCycle: 0 }, plan.billing_interval, 1);
    const quote = {
      plan: quotedPlan(plan),
      credit_minor: change.creditMinor,
      balance_minor: replaces ? 0 : row.credit_minor,
      due_now_minor: change.dueNowMinor,
      balance_after_minor: change.balanceAfterMinor,
      refund_minor: replaces ? change.creditMinor : 0,
      currency: plan.currency,
      period_start: period.start,
      period_end: period.end,
    };
    return { quote, plan };
  }

  /**
   * The kept quote `quoteId`, as it was shown, while it holds: refused once it expired, when it is
   * for another plan, or when the subscription changed since it was made (its version moved).
   */
  async function keptQuote(
    row: SubscriptionRow,
    planId: string,
    quoteId: string,
  ): Promise<{ quote: PlanChangeQuote; plan: MovablePlan }> {
    const { plan } = await planToMoveTo(row, planId);
    const kept = await findPlanChangeQuote(db, row.id, quoteId);
    if (!kept)
      throw notFound('quote_not_found', 'This price quote is not known here: ask for the price again');
    if (kept.plan_id !== plan.id)
      throw conflict(
        'quote_plan_mismatch',
        `This price quote is not for ${plan.name}: ask for its price again`,
      );
    if (kept.expires_at <= clock.now().toISOString())
      throw conflict(
        'quote_expired',
        `This price held for ${PLAN_CHANGE_QUOTE_VALIDITY_MINUTES} minutes and has expired; review the new price`,
      );
    if (kept.subscription_version !== row.version)
      throw conflict(
        'quote_changed',
        'The subscription changed since this price was shown (a renewal or another change); review the new price',
      );
    return {
      plan,
      quote: {
        id: kept.id,
        expires_at: kept.expires_at,
        plan: quotedPlan(plan),
        credit_minor: Number(kept.credit_minor),
        balance_minor: Number(kept.balance_minor),
        due_now_minor: Number(kept.due_now_minor),
        balance_after_minor: Number(kept.balance_after_minor),
        refund_minor: Number(kept.refund_minor),
        currency: kept.currency,
        period_start: kept.period_start,
        period_end: kept.period_end,
      },
    };
  }

  return {
    /**
     * What moving to another plan costs now, kept for `PLAN_CHANGE_QUOTE_VALIDITY_MINUTES`: confirmed
     * with its id within that time, the change is charged exactly this.
     */
    async quote(row: SubscriptionRow, planId: string): Promise<PlanChangeQuote> {
      const { quote, plan } = await quoteFor(row, planId);
      const now = clock.now();
      const kept = {
        ...quote,
        id: randomUUID(),
        expires_at: new Date(now.getTime() + PLAN_CHANGE_QUOTE_VALIDITY_MINUTES * 60_000).toISOString(),
      };
      await savePlanChangeQuote(
        db,
        {
          id: kept.id,
          subscription_id: row.id,
          subscription_version: row.version,
          plan_id: plan.id,
          credit_minor: kept.credit_minor,
          balance_minor: kept.balance_minor,
          due_now_minor: kept.due_now_minor,
          balance_after_minor: kept.balance_after_minor,
          refund_minor: kept.refund_minor,
          currency: kept.currency,
          period_start: kept.period_start,
          period_end: kept.period_end,
          created_at: now.toISOString(),
          expires_at: kept.expires_at,
        },
        now.toISOString(),
      );
      return kept;
    },

    /**
     * Moves to another plan at once: a new period starts (when the quote said), charged what the
     * quote showed (Razorpay: the replacement is opened for Checkout). With `quote_id`, the kept
     * quote is charged while it holds; without, the price is worked out again and must equal
     * `expected_due_now_minor` when given. Refused when the quote no longer holds (expired, or a
     * renewal or another change landed meanwhile), when the card declines, or when the new plan has
     * fewer seats than are in use.
     */
    async change(
      row: SubscriptionRow,
      body: { plan_id: string; quote_id?: string | undefined; expected_due_now_minor?: number | undefined },
    ): Promise<PlanChangeOutcome> {
      const { quote, plan } = body.quote_id
        ? await keptQuote(row, body.plan_id, body.quote_id)
        : await quoteFor(row, body.plan_id);
      if (body.expected_due_now_minor !== undefined && body.expected_due_now_minor !== quote.due_now_minor)
        throw conflict(
          'quote_changed',
          'The price of this change has changed since it was shown; review it again',
        );
      if (row.provider === 'sandbox' && row.sandbox_card === 'declines' && quote.due_now_minor > 0)
        throw declined(SANDBOX_DECLINE_REASON);
      if (row.provider !== 'sandbox') {
        await refuseTooFewSeats(db, row, plan);
        const replacement = await openReplacement(row, plan, quote);
        return { kind: 'replacement', replacement, dueNowMinor: quote.due_now_minor };
      }
      const now = clock.now().toISOString();
      const moved = await db.transaction().execute(async (trx) => {
        await refuseTooFewSeats(trx, row, plan);
        // Only if nothing (a renewal, another change) moved it since the quote was computed.
        const rebased = await updateSubscription(
          trx,
          row.id,
          {
            plan_id: plan.id,
            // The quote's period, so the license and the subscription end at the very moment it showed.
            anchor_at: quote.period_start,
            anchor_cycle: row.cycles,
            credit_minor: quote.balance_after_minor,
            cancel_at_period_end: 0,
            cancel_requested_at: null,
            updated_at: now,
          },
          { version: row.version, statuses: ['active'] },
        );
        if (!rebased)
          throw conflict(
            'subscription_changed',
            'The subscription changed meanwhile; review the change again',
          );
        const settled = await charges.settle(trx, {
          kind: 'cycle',
          report: {
            subscriptionId: row.id,
            cycle: row.cycles + 1,
            providerPaymentId: sandboxPaymentId(),
            amountMinor: quote.due_now_minor,
            currency: plan.currency,
          },
          rows: { subscription: rebased, plan },
        });
        if (settled.outcome !== 'paid') throw new Error(`the plan change of ${row.id} was settled twice`);
        // The license follows the plan: its seats, and an expiry at the new period's end (earlier, too).
        await followPlanChange(trx, settled.license.id, plan, quote.period_end, now);
        return settled.subscription;
      });
      return { kind: 'changed', subscription: moved };
    },
  };
}

export type PlanChanges = ReturnType<typeof createPlanChanges>;
