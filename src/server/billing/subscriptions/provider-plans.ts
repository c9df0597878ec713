import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { PlanRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import {
  type PaymentProvider,
  PaymentProviderError,
  providerUnavailable,
  type SubscriptionGateway,
} from '../payments/provider.js';
import type { RecurringInterval } from './billing-periods.js';
import { findProviderPlan, saveProviderPlan } from './repository.js';

/** How many periods a provider's subscription runs before it must be renewed by hand (Razorpay needs a count). */
export const TOTAL_CYCLES: Record<RecurringInterval, number> = { month: 120, year: 10 };

/** The provider's side of subscriptions (Razorpay's): its calls, and our plans mirrored as its plans. */
export function createProviderSubscriptions({
  db,
  clock,
  provider,
  log,
}: {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  log: FastifyBaseLogger;
}) {
  /** Asks the provider's subscriptions API; its refusal is a 502 that says nothing was changed. */
  async function call<T>(request: (gateway: SubscriptionGateway) => Promise<T>): Promise<T> {
    const gateway = provider.subscriptions;
    if (!gateway)
      throw conflict('subscriptions_unavailable', 'This payment provider does not offer subscriptions here');
    try {
      return await request(gateway);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      throw providerUnavailable(error, log, 'be reached or refused the request');
    }
  }

  /** The provider's plan for this plan at its current price, made on first use and kept. */
  async function planFor(
    gateway: SubscriptionGateway,
    plan: PlanRow & { billing_interval: RecurringInterval },
    priceMinor: number,
  ): Promise<string> {
    const key = {
      provider: provider.name,
      plan_id: plan.id,
      price_minor: priceMinor,
      currency: plan.currency,
      billing_interval: plan.billing_interval,
    };
    const known = await findProviderPlan(db, key);
    if (known) return known;
    const providerPlanId = await gateway.createPlan({
      name: plan.name,
      description: plan.description ?? plan.name,
      amount: key.price_minor,
      currency: plan.currency,
      interval: plan.billing_interval,
      notes: { plan_id: plan.id, plan_code: plan.code },
    });
    // Two first subscribers at once may both make one; the first kept is the one used from then on.
    return saveProviderPlan(db, {
      ...key,
      provider_plan_id: providerPlanId,
      created_at: clock.now().toISOString(),
    });
  }

  return { call, planFor };
}

export type ProviderSubscriptions = ReturnType<typeof createProviderSubscriptions>;
