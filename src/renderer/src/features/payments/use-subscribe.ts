import { t } from '@lingui/core/macro';
import { useMemo, useRef } from 'react';
import type { CouponPreview } from '../../../../shared/api/coupons';
import type { PaymentConfig } from '../../../../shared/api/payments';
import type { Plan } from '../../../../shared/api/plans';
import type {
  SubscriptionActivation,
  SubscriptionCheckout,
  VerifySubscriptionRequest,
} from '../../../../shared/api/subscriptions';
import { formatDate } from '../../lib/format-date';
import { useAppDispatch } from '../../lib/store-hooks';
import {
  formatRecurringPrice,
  subscriptionsApi,
  useCompleteSandboxSubscriptionMutation,
  useCreateSubscriptionMutation,
  useVerifySubscriptionMutation,
} from '../subscriptions';
import { type CheckoutEvents, type CheckoutFlow, type CheckoutKind, useCheckoutFlow } from './checkout-flow';
import type { SandboxCheckoutSubject } from './components/sandbox-checkout-modal';
import { useCreateOrganisationSubscriptionMutation } from './payments-endpoints';

/** A plan billed monthly or yearly: bought as a subscription. */
export const isRecurringPlan = (plan: Pick<Plan, 'billing_interval' | 'price_minor'>): boolean =>
  (plan.billing_interval === 'month' || plan.billing_interval === 'year') && plan.price_minor > 0;

/** Who a seat-based plan is bought for: the organisation, and how many seats. */
export interface OrganisationTarget {
  organisationId: string;
  seats: number;
}

export type Subscribe = CheckoutFlow<SubscriptionCheckout, SubscriptionActivation> & {
  /** Subscribes `plan` (seat-based) for an organisation, through the same checkout. */
  startForOrganisation(
    plan: Plan,
    config: PaymentConfig,
    target: OrganisationTarget,
    couponCode?: string,
  ): Promise<void>;
  /** Subscribes `plan` although a lifetime license the buyer owns covers it (they were told so). */
  startDespiteLifetime(plan: Plan, config: PaymentConfig, couponCode?: string): Promise<void>;
  /** Subscribes `plan` with its free trial: the card is authorized now, first charged at the trial's end. */
  startTrial(plan: Plan, config: PaymentConfig): Promise<void>;
  /** Whether the checkout opened (or opening) is a card trial's. */
  withTrial(): boolean;
};

/**
 * The sandbox checkout's view of a subscription's first charge; with an every-charge coupon, the
 * later charges are the discounted price too.
 */
export const subscriptionSubject = (
  checkout: SubscriptionCheckout,
  coupon?: Pick<CouponPreview, 'duration' | 'amount_after_minor'> | null,
  seats = 1,
): SandboxCheckoutSubject => {
  const { plan, trial_ends_at: trialEndsAt } = checkout.subscription;
  const recurringMinor =
    (coupon?.duration === 'forever' ? coupon.amount_after_minor : plan.price_minor) * seats;
  const price = formatRecurringPrice(recurringMinor, plan.currency, plan.billing_interval);
  const recurring = t`${price} until you cancel`;
  const trialEnd = trialEndsAt ? formatDate(trialEndsAt) : null;
  return {
    planName: plan.name,
    amount: checkout.amount,
    currency: checkout.currency,
    reference: { label: t`Subscription`, id: checkout.subscription_id },
    email: checkout.prefill.email,
    recurring: trialEnd ? t`Free trial until ${trialEnd}, then ${recurring}` : recurring,
  };
};

/**
 * Subscribing to a monthly or yearly plan, through the same checkout as one-off orders: a pending
 * subscription → the sandbox dialog, or Razorpay Checkout opened with `subscription_id` → verify →
 * the subscription and its license.
 */
export function useSubscribe(events: CheckoutEvents = {}): Subscribe {
  const dispatch = useAppDispatch();
  const [create] = useCreateSubscriptionMutation();
  const [createForOrganisation] = useCreateOrganisationSubscriptionMutation();
  // Set by startForOrganisation for the checkout it opens; cleared by a plain start.
  const target = useRef<OrganisationTarget | null>(null);
  // Set by startDespiteLifetime: the buyer was told a lifetime license covers the plan and went on.
  const despiteLifetime = useRef(false);
  // Set by startTrial: the checkout opens with the plan's free trial.
  const trial = useRef(false);
  const [completeSandbox] = useCompleteSandboxSubscriptionMutation();
  const [verifySubscription] = useVerifySubscriptionMutation();
  const kind = useMemo<CheckoutKind<SubscriptionCheckout, SubscriptionActivation, VerifySubscriptionRequest>>(
    () => ({
      open: (plan, couponCode) =>
        target.current
          ? createForOrganisation({
              planId: plan.id,
              currency: plan.currency,
              couponCode,
              ...target.current,
            }).unwrap()
          : create({
              planId: plan.id,
              currency: plan.currency,
              couponCode,
              ...(despiteLifetime.current ? { confirmLifetimeOverlap: true } : {}),
              ...(trial.current ? { trial: true } : {}),
            }).unwrap(),
      startFailedTitle: ({ name }) => t`Could not start the subscription to ${name}`,
      isSandbox: (checkout) => checkout.sandbox,
      async completeSandbox(checkout, outcome) {
        const result = await completeSandbox({ subscriptionId: checkout.subscription_id, outcome }).unwrap();
        return result.outcome === 'declined'
          ? { outcome: 'declined', description: result.failure.error.description }
          : { outcome: 'paid', answer: result.checkout };
      },
      async openRazorpay(razorpay, checkout, options, callbacks) {
        razorpay.openRazorpaySubscriptionCheckout(
          await razorpay.loadRazorpayCheckout(),
          { ...checkout, description: checkout.subscription.plan.name },
          options,
          callbacks,
        );
      },
      verify: (answer) => verifySubscription(answer).unwrap(),
      verifyFailed: (checkout) => {
        const planName = checkout.subscription.plan.name;
        return t`The first payment for ${planName} could not be verified.`;
      },
      licenseOf: (activation) => activation.license,
      // A webhook may have started it meanwhile: the Subscriptions page reads it fresh.
      // An organisation's purchase changes its seats and license on its page too.
      changed: () =>
        dispatch(
          subscriptionsApi.util.invalidateTags(['Subscription', 'License', 'Payment', 'Organisation']),
        ),
    }),
    [completeSandbox, create, createForOrganisation, dispatch, verifySubscription],
  );
  const flow = useCheckoutFlow(kind, events);
  const { start } = flow;
  return {
    ...flow,
    start(plan: Plan, config: PaymentConfig, couponCode?: string) {
      target.current = null;
      despiteLifetime.current = false;
      trial.current = false;
      return start(plan, config, couponCode);
    },
    withTrial: () => trial.current,
    /** Subscribes with the plan's free trial (no coupon: the trial is the offer). */
    startTrial(plan: Plan, config: PaymentConfig) {
      target.current = null;
      despiteLifetime.current = false;
      trial.current = true;
      return start(plan, config);
    },
    /** Subscribes although a lifetime license the buyer owns covers the plan: they were told. */
    startDespiteLifetime(plan: Plan, config: PaymentConfig, couponCode?: string) {
      target.current = null;
      despiteLifetime.current = true;
      trial.current = false;
      return start(plan, config, couponCode);
    },
    startForOrganisation(plan: Plan, config: PaymentConfig, chosen: OrganisationTarget, couponCode?: string) {
      target.current = chosen;
      despiteLifetime.current = false;
      trial.current = false;
      return start(plan, config, couponCode);
    },
  };
}
