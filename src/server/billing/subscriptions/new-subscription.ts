import type { PaymentProviderName, SubscriptionRow } from '../../platform/db/tables.js';

/** A subscription as opened: pending until its first charge is paid, with nothing charged yet. */
export function pendingSubscriptionRow(input: {
  id: string;
  userId: string | null;
  planId: string;
  /** The currency it is bought in: every charge of it is in this one. */
  currency: string;
  provider: PaymentProviderName;
  providerSubscriptionId: string;
  couponId: string | null;
  /** A seat-based plan bought for an organisation, and the seats bought. */
  organisation?: { id: string; seats: number };
  now: string;
  /** A Razorpay plan change: the subscription it replaces and the credit quoted for it. */
  replaces?: { subscriptionId: string; creditMinor: number };
  /** Periods paid before the provider's own charges start (a first charge paid upfront). */
  providerCycleOffset?: number;
  /** A card trial: its first charge is due at the trial's end, asked from this machine (if any). */
  trial?: { endsAt: string; hardwareId: string | null };
}): SubscriptionRow {
  return {
    id: input.id,
    user_id: input.userId,
    plan_id: input.planId,
    currency: input.currency,
    license_id: null,
    provider: input.provider,
    provider_subscription_id: input.providerSubscriptionId,
    status: 'pending',
    pause_periods: null,
    pause_requested_at: null,
    pause_resumes_at: null,
    anchor_at: null,
    anchor_cycle: 0,
    cycles: 0,
    current_period_start: null,
    current_period_end: null,
    cancel_at_period_end: 0,
    cancel_requested_at: null,
    ended_at: null,
    grace_ends_at: null,
    next_retry_at: null,
    failed_attempts: 0,
    payment_method: null,
    sandbox_card: input.provider === 'sandbox' ? 'succeeds' : null,
    credit_minor: 0,
    version: 0,
    coupon_id: input.couponId,
    replaces_subscription_id: input.replaces?.subscriptionId ?? null,
    replacement_credit_minor: input.replaces?.creditMinor ?? 0,
    closeout_refund_minor: null,
    provider_closed_at: null,
    provider_cycle_offset: input.providerCycleOffset ?? 0,
    trial_ends_at: input.trial?.endsAt ?? null,
    trial_hardware_id: input.trial?.hardwareId ?? null,
    organisation_id: input.organisation?.id ?? null,
    seats: input.organisation?.seats ?? 1,
    created_at: input.now,
    updated_at: input.now,
  };
}
