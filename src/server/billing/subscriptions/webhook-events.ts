import type { BillingEvents } from '../events.js';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookEvent } from '../../../shared/api/payments.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { endWithSubscription } from '../../licensing/index.js';
import { describePaymentMethod } from '../payments/payment-method.js';
import { findPlanIn } from '../../catalogue/index.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { startCardTrialLocked } from './card-trials.js';
import type { SubscriptionCharges } from './charges.js';
import { findSubscriptionByProviderId, lockSubscription, updateSubscription } from './repository.js';

export interface SubscriptionEventOutcome {
  outcome: 'processed' | 'ignored' | 'rejected';
  paymentId: string | null;
}

const ignored: SubscriptionEventOutcome = { outcome: 'ignored', paymentId: null };

const fromUnixSeconds = (seconds: number | null | undefined): string | undefined =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined;

/**
 * Razorpay's `subscription.*` webhooks, applied in the webhook's transaction (which already made
 * the delivery exactly-once by its event id): a charge settles its cycle (the subscription's
 * `paid_count`) once, in any order with the checkout's verify; a pending subscription's failed
 * charge starts the grace period; a cancellation or completion ends the subscription. Razorpay's
 * own retries replace the sandbox's; the grace period and the suspension after it are ours.
 */
export function createSubscriptionWebhookEvents({
  clock,
  events,
  charges,
  log,
}: {
  clock: Clock;
  /** Announces a subscription cancelled at Razorpay. */
  events: BillingEvents;
  charges: SubscriptionCharges;
  log: FastifyBaseLogger;
}) {
  return async function apply(
    trx: DbOrTransaction,
    event: WebhookEvent,
    meta: RequestMeta,
  ): Promise<SubscriptionEventOutcome> {
    const entity = event.payload.subscription?.entity;
    if (!entity) return ignored;
    const found = await findSubscriptionByProviderId(trx, entity.id);
    if (!found) {
      log.warn(
        { event: event.event, subscription: entity.id },
        'webhook for a subscription this server did not open; ignored',
      );
      return ignored;
    }
    await lockSubscription(trx, found.id);
    const subscription = (await findSubscriptionByProviderId(trx, entity.id)) ?? found;
    const payment = event.payload.payment?.entity;
    // Our cycles count a first period paid upfront (a first-charge coupon); Razorpay's do not.
    const paidCount =
      entity.paid_count === undefined || entity.paid_count === null
        ? subscription.cycles
        : entity.paid_count + subscription.provider_cycle_offset;

    // A first period paid upfront is the authorisation's payment, reported with `authenticated`
    // (Razorpay's own first charge comes a period later, with `charged`).
    const upfront = event.event === 'subscription.authenticated' && subscription.provider_cycle_offset > 0;
    // A card trial authorised: its trial starts here if the page's verify has not started it yet
    // (a refused one is canceled, and the scheduler tells Razorpay).
    if (event.event === 'subscription.authenticated' && subscription.trial_ends_at !== null) {
      const plan = await findPlanIn(trx, subscription.plan_id, subscription.currency);
      const started = plan
        ? await startCardTrialLocked(trx, { clock, events }, subscription, plan)
        : undefined;
      return started ? { outcome: 'processed', paymentId: null } : ignored;
    }
    switch (upfront ? 'subscription.charged' : event.event) {
      case 'subscription.charged': {
        const cycle = upfront ? 1 : paidCount;
        if (!payment || cycle < 1) return ignored;
        const plan = await findPlanIn(trx, subscription.plan_id, subscription.currency);
        if (!plan || payment.currency !== plan.currency) {
          // Money in another currency than the plan's is not what was sold: nothing is granted.
          await recordSecurityEvent(trx, clock, {
            type: securityEventTypes.paymentWebhookRejected,
            severity: 'critical',
            userId: subscription.user_id,
            meta,
            details: {
              reason: 'currency_mismatch',
              event: event.event,
              subscription_id: subscription.id,
              expected: plan?.currency ?? null,
              reported: payment.currency,
            },
          });
          return { outcome: 'rejected', paymentId: null };
        }
        // Read under the subscription's lock, so passed on to the settling as it is.
        const current =
          subscription.status === 'pending'
            ? await updateSubscription(trx, subscription.id, { status: 'active' }, { statuses: ['pending'] })
            : subscription;
        const method = describePaymentMethod(payment);
        const settled = await charges.settle(trx, {
          kind: 'cycle',
          report: {
            subscriptionId: subscription.id,
            cycle,
            providerPaymentId: payment.id,
            amountMinor: payment.amount,
            currency: payment.currency,
            ...(method ? { paymentMethod: method } : {}),
          },
          rows: { subscription: current, plan },
        });
        // Verify settled it first, knowing nothing of the card: the webhook tells how it was paid.
        if (settled.outcome === 'already_paid' && method && method !== subscription.payment_method)
          await updateSubscription(trx, subscription.id, { payment_method: method });
        return { outcome: 'processed', paymentId: settled.payment.id };
      }
      case 'subscription.pending': {
        const cycle = paidCount + 1;
        const failed = await charges.fail(trx, {
          subscriptionId: subscription.id,
          cycle,
          providerPaymentId: payment?.id ?? `${subscription.provider_subscription_id}#${cycle}#pending`,
          reason: payment?.error_description ?? 'Razorpay could not charge the payment method',
          ...(payment ? { amountMinor: payment.amount } : {}),
        });
        return { outcome: failed ? 'processed' : 'ignored', paymentId: failed?.payment.id ?? null };
      }
      case 'subscription.cancelled':
      case 'subscription.completed': {
        if (subscription.status === 'cancelled') return ignored;
        // Cancelled at period end (and so stopped at Razorpay a day early): the paid period runs to its end.
        if (subscription.cancel_at_period_end === 1) return ignored;
        const endedAt = fromUnixSeconds(entity.ended_at) ?? clock.now().toISOString();
        const cancelled = await updateSubscription(trx, subscription.id, {
          status: 'cancelled',
          ended_at: endedAt,
          next_retry_at: null,
          updated_at: clock.now().toISOString(),
        });
        if (cancelled) await events.publish(trx, { type: 'subscription.cancelled', subscription: cancelled });
        // Ended before the paid period did (cancelled at once in Razorpay's dashboard): so does the license.
        if (subscription.license_id)
          await endWithSubscription(trx, subscription.license_id, endedAt, clock.now().toISOString());
        return { outcome: 'processed', paymentId: null };
      }
      default:
        // authenticated, activated, halted, updated…: the charges and cancellations above carry the changes.
        return ignored;
    }
  };
}

export type SubscriptionWebhookEvents = ReturnType<typeof createSubscriptionWebhookEvents>;
