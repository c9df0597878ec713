import type { PlanChangeQuote } from '../../../shared/api/subscriptions.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { PlanRow, SubscriptionRow } from '../../db/tables.js';
import { conflict } from '../../http-error.js';
import type { PaymentProvider } from '../payments/provider.js';
import { countSeatsInUse, updateLicense } from '../licenses/repository.js';
import { periodOfCycle, quotePlanChange, type RecurringInterval } from './billing-periods.js';
import type { SubscriptionCharges } from './charges.js';
import { paidChargeOfPeriod, updateSubscription } from './repository.js';
import { SANDBOX_DECLINE_REASON, sandboxPaymentId } from './sandbox-billing.js';
import { declined } from './refusals.js';

/**
 * Moving a subscription to another plan at once: the quote (the unused part of the current period
 * credited, in integer minor units) and the change itself, charged at the quote.
 */
export function createPlanChanges({
  db,
  clock,
  provider,
  charges,
  recurringPlan,
}: {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  charges: SubscriptionCharges;
  /** The offered monthly or yearly plan by id or code, or the reason it cannot be subscribed to. */
  recurringPlan: (planId: string) => Promise<PlanRow & { billing_interval: RecurringInterval }>;
}) {
  async function quoteFor(row: SubscriptionRow, planId: string) {
    if (row.status !== 'active' || row.current_period_start === null || row.current_period_end === null)
      throw conflict(
        'subscription_not_active',
        row.status === 'past_due' || row.status === 'suspended'
          ? 'Pay the outstanding charge before changing the plan'
          : 'Only an active subscription can change its plan',
      );
    const plan = await recurringPlan(planId);
    if (plan.id === row.plan_id) throw conflict('same_plan', `You already subscribe to ${plan.name}`);
    const current = { start: row.current_period_start, end: row.current_period_end };
    const paid = await paidChargeOfPeriod(db, row.id, current.end);
    const now = clock.now();
    const change = quotePlanChange({
      paidMinor: paid ? Number(paid.amount_minor) : 0,
      period: current,
      balanceMinor: row.credit_minor,
      newPriceMinor: await charges.pricing.grossOf(db, row, plan, row.cycles + 1),
      now,
    });
    const period = periodOfCycle({ anchorAt: now.toISOString(), anchorCycle: 0 }, plan.billing_interval, 1);
    const quote: PlanChangeQuote = {
      plan: {
        id: plan.id,
        code: plan.code,
        name: plan.name,
        billing_interval: plan.billing_interval,
        price_minor: Number(plan.price_minor),
        currency: plan.currency,
      },
      credit_minor: change.creditMinor,
      balance_minor: row.credit_minor,
      due_now_minor: change.dueNowMinor,
      balance_after_minor: change.balanceAfterMinor,
      currency: plan.currency,
      period_start: period.start,
      period_end: period.end,
    };
    return { quote, plan };
  }

  return {
    /** What moving to another plan costs now. */
    quote: async (row: SubscriptionRow, planId: string): Promise<PlanChangeQuote> =>
      (await quoteFor(row, planId)).quote,

    /**
     * Moves to another plan at once: a new period starts now, charged at the new price less the
     * credit. Refused when the quote the customer saw no longer holds (a renewal or another change
     * landed meanwhile), when the card declines, or when the new plan has fewer seats than are in use.
     */
    async change(
      row: SubscriptionRow,
      body: { plan_id: string; expected_due_now_minor?: number | undefined },
    ): Promise<SubscriptionRow> {
      const { quote, plan } = await quoteFor(row, body.plan_id);
      if (body.expected_due_now_minor !== undefined && body.expected_due_now_minor !== quote.due_now_minor)
        throw conflict(
          'quote_changed',
          'The price of this change has changed since it was shown; review it again',
        );
      if (row.provider === 'sandbox' && row.sandbox_card === 'declines' && quote.due_now_minor > 0)
        throw declined(SANDBOX_DECLINE_REASON);
      if (!provider.sandbox)
        throw conflict(
          'plan_change_unavailable',
          'Changing the plan of a Razorpay subscription is not offered yet: cancel at period end and subscribe to the other plan',
        );
      const now = clock.now().toISOString();
      const moved = await db.transaction().execute(async (trx) => {
        if (row.license_id) {
          const used = await countSeatsInUse(trx, row.license_id);
          if (used > plan.max_activations)
            throw conflict(
              'too_many_activations',
              `${plan.name} allows ${plan.max_activations} machine${plan.max_activations === 1 ? '' : 's'}, but this license is active on ${used}. Deactivate ${used - plan.max_activations} first.`,
            );
        }
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
          subscriptionId: row.id,
          cycle: row.cycles + 1,
          providerPaymentId: sandboxPaymentId(),
          amountMinor: quote.due_now_minor,
          currency: plan.currency,
        });
        if (settled.outcome !== 'paid') throw new Error(`the plan change of ${row.id} was settled twice`);
        // The license follows the plan: its seats, and an expiry at the new period's end (earlier, too).
        await updateLicense(trx, settled.license.id, {
          plan_id: plan.id,
          max_activations: plan.max_activations,
          expires_at: quote.period_end,
          updated_at: now,
        });
        return settled.subscription;
      });
      return moved;
    },
  };
}

export type PlanChanges = ReturnType<typeof createPlanChanges>;
