import type { ActivationRow, LicenseRow, PaymentRow, SubscriptionRow } from '../../platform/db/tables.js';

// What each event's `data` says about the thing that changed: ids and state a receiver can act on,
// never secrets (the license key activates machines, so it is left out).

export const licenseEventData = (license: LicenseRow) => ({
  license: {
    id: license.id,
    user_id: license.user_id,
    plan_id: license.plan_id,
    subscription_id: license.subscription_id,
    status: license.status,
    expires_at: license.expires_at,
    trial_ends_at: license.trial_ends_at,
    max_activations: license.max_activations,
    suspended_reason: license.suspended_reason,
    revoked_reason: license.revoked_reason,
    created_at: license.created_at,
  },
});

/** A license's use of a metered feature against its allowance, as an allowance event reports it. */
export const allowanceEventData = (
  license: LicenseRow,
  allowance: {
    featureId: string;
    featureKey: string;
    periodStart: string;
    periodEnd: string;
    used: number;
    limit: number;
    overage: { policy: string };
  },
) => ({
  ...licenseEventData(license),
  usage: {
    feature_id: allowance.featureId,
    feature_key: allowance.featureKey,
    period_start: allowance.periodStart,
    period_end: allowance.periodEnd,
    used: allowance.used,
    allowance: allowance.limit,
    overage_policy: allowance.overage.policy,
  },
});

/** Use past an allowance charged: the license, the feature and period, and the invoice it went on. */
export const overageEventData = (
  license: LicenseRow,
  overage: {
    featureId: string;
    featureKey: string;
    period: string;
    periodStart: string;
    periodEnd: string;
    units: number;
    amountMinor: number;
    currency: string;
    invoice: { id: string; number: string };
    paymentId: string;
  },
) => ({
  ...licenseEventData(license),
  overage: {
    feature_id: overage.featureId,
    feature_key: overage.featureKey,
    period: overage.period,
    period_start: overage.periodStart,
    period_end: overage.periodEnd,
    units: overage.units,
    amount_minor: overage.amountMinor,
    currency: overage.currency,
    invoice_id: overage.invoice.id,
    invoice_number: overage.invoice.number,
    payment_id: overage.paymentId,
  },
});

/** A credit pack bought for a license's metered feature, as `usage.pack_bought` reports it. */
export const packEventData = (
  license: LicenseRow,
  pack: {
    id: string;
    featureId: string;
    featureKey: string;
    units: number;
    expiresAt: string;
    paymentId: string;
  },
) => ({
  ...licenseEventData(license),
  pack: {
    id: pack.id,
    feature_id: pack.featureId,
    feature_key: pack.featureKey,
    units: pack.units,
    expires_at: pack.expiresAt,
    payment_id: pack.paymentId,
  },
});

/** A floating license's seats: the license, and the seats or the one seat the event is about. */
export const floatingEventData = (license: LicenseRow, floating: Record<string, unknown>) => ({
  ...licenseEventData(license),
  floating,
});

export const activationEventData = (activation: ActivationRow, userId: string | null) => ({
  activation: {
    id: activation.id,
    license_id: activation.license_id,
    user_id: userId,
    hardware_id: activation.hardware_id,
    device_name: activation.device_name,
    platform: activation.platform,
    activated_at: activation.activated_at,
    deactivated_at: activation.deactivated_at,
    deactivated_reason: activation.deactivated_reason,
  },
});

export const paymentEventData = (payment: PaymentRow, extra: Record<string, unknown> = {}) => ({
  payment: {
    id: payment.id,
    user_id: payment.user_id,
    plan_id: payment.plan_id,
    provider: payment.provider,
    provider_payment_id: payment.provider_payment_id,
    amount_minor: Number(payment.amount_minor),
    currency: payment.currency,
    status: payment.status,
    kind: payment.kind,
    license_id: payment.license_id,
    subscription_id: payment.subscription_id,
    paid_at: payment.paid_at,
    ...extra,
  },
});

export const subscriptionEventData = (subscription: SubscriptionRow) => ({
  subscription: {
    id: subscription.id,
    user_id: subscription.user_id,
    plan_id: subscription.plan_id,
    license_id: subscription.license_id,
    provider: subscription.provider,
    status: subscription.status,
    current_period_start: subscription.current_period_start,
    current_period_end: subscription.current_period_end,
    cancel_at_period_end: subscription.cancel_at_period_end === 1,
    ended_at: subscription.ended_at,
    pause_periods: subscription.pause_periods,
    pause_resumes_at: subscription.pause_resumes_at,
  },
});

/** An organisation's event: which organisation, and the account and seat it is about where there is one. */
export const organisationEventData = (
  organisation: { id: string; name: string },
  extra: Record<string, unknown> = {},
) => ({ organisation: { id: organisation.id, name: organisation.name }, ...extra });
