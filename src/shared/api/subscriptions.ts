import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { chargeSummarySchema } from './charges.js';
import { couponCodeField } from './coupons.js';
import { hardwareIdSchema, licenseSchema } from './licenses.js';
import { MAX_SEATS, organisationIdSchema } from './organisations.js';
import { buyerCurrencyField, PAYMENT_PROVIDERS, paymentSchema } from './payments.js';

/**
 * pending: opened, not yet paid. active: paid up. past_due: a charge failed; the license stays
 * valid until `grace_ends_at` while the payment is retried. suspended: the grace period ended
 * unpaid; the license is suspended until a payment succeeds. paused: paused by the customer or an
 * administrator for one to three periods; nothing is charged and the license reads `paused` until
 * `pause.resumes_at`. cancelled: ended.
 */
export const SUBSCRIPTION_STATUSES = [
  'pending',
  'active',
  'past_due',
  'suspended',
  'paused',
  'cancelled',
] as const;

/** How many periods a subscription may be paused for at once. */
export const MAX_PAUSE_PERIODS = 3;

export const subscriptionPauseSchema = z
  .object({
    periods: z.number().int().min(1).max(MAX_PAUSE_PERIODS),
    requested_at: isoDateTimeSchema,
    starts_at: isoDateTimeSchema.describe(
      'When the paid period ends and the pause starts (the license is valid until then)',
    ),
    resumes_at: isoDateTimeSchema.describe('When the subscription resumes and the next period is charged'),
  })
  .describe(
    'A pause asked for or under way; none while a cancellation at the period’s end is asked for, which outruns it',
  )
  .meta({ id: 'SubscriptionPause' });
export type SubscriptionPause = z.infer<typeof subscriptionPauseSchema>;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SANDBOX_CARDS = ['succeeds', 'declines'] as const;

const planIdField = z.string().trim().min(1, 'plan_id is required').max(64, 'plan_id is too long');
const providerIdField = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is required`)
    .max(100, `${what} is too long`)
    .regex(/^[A-Za-z0-9_-]+$/, `${what} is malformed`);

const subscriptionPlanSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  billing_interval: z.enum(['month', 'year']),
  price_minor: z.number().int(),
  currency: z.string(),
});

export const subscriptionSchema = z
  .object({
    id: z.string(),
    provider_subscription_id: z.string(),
    provider: z.enum(PAYMENT_PROVIDERS),
    sandbox: z.boolean().describe('True for sandbox subscriptions: no money moves'),
    status: z.enum(SUBSCRIPTION_STATUSES),
    plan: subscriptionPlanSchema,
    license_id: z.string().nullable(),
    current_period_start: isoDateTimeSchema.nullable(),
    current_period_end: isoDateTimeSchema.nullable(),
    next_charge: z
      .object({
        at: isoDateTimeSchema,
        amount_minor: z.number().int().describe('The plan’s price less the kept balance'),
        currency: z.string(),
      })
      .nullable()
      .describe('Null once no further charge will be made (canceled, or ending at period end)'),
    cancel_at_period_end: z.boolean(),
    cancel_requested_at: isoDateTimeSchema.nullable(),
    ended_at: isoDateTimeSchema.nullable(),
    grace_ends_at: isoDateTimeSchema.nullable().describe('While past due: when the license is suspended'),
    failed_attempts: z.number().int(),
    payment_method: z.string().nullable(),
    sandbox_card: z.enum(SANDBOX_CARDS).nullable(),
    credit_minor: z
      .number()
      .int()
      .describe(
        'Kept from a move to a cheaper plan; taken off the next charges while the subscription renews',
      ),
    cancel_credit_refund_minor: z
      .number()
      .int()
      .describe(
        'What canceling (at period end or now) would refund of `credit_minor`, with a credit note; the rest (`credit_minor` less this) cannot be refunded and is not taken off any charge once the subscription ends',
      ),
    cancel_now_refund_minor: z
      .number()
      .int()
      .describe(
        'What canceling now would refund at this moment: the unused part of the paid period (0 when none is left)',
      ),
    trial_ends_at: isoDateTimeSchema
      .nullable()
      .describe(
        'A card trial: when its first charge is due (the trial license ends then unless it is paid). Null without a trial',
      ),
    pause: subscriptionPauseSchema
      .nullable()
      .describe(
        'A pause asked for (status `active`: it starts at `starts_at`) or under way (status `paused`); null without one',
      ),
    created_at: isoDateTimeSchema,
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionListSchema = z
  .object({ data: z.array(subscriptionSchema) })
  .meta({ id: 'SubscriptionList' });

export const subscriptionDetailSchema = subscriptionSchema
  .extend({ charges: z.array(paymentSchema).describe('Every charge, newest first') })
  .meta({ id: 'SubscriptionDetail' });
export type SubscriptionDetail = z.infer<typeof subscriptionDetailSchema>;

export const createSubscriptionRequestSchema = z
  .strictObject({
    plan_id: planIdField,
    coupon_code: couponCodeField,
    currency: buyerCurrencyField,
    /** A seat-based plan is bought for an organisation the caller owns or administers, and only so. */
    organisation_id: organisationIdSchema.optional(),
    seats: z
      .number('Enter a number of seats')
      .int('Whole seats')
      .min(1, 'At least one seat')
      .max(MAX_SEATS, `At most ${MAX_SEATS} seats`)
      .optional(),
    confirm_lifetime_overlap: z
      .boolean('confirm_lifetime_overlap must be true or false')
      .optional()
      .describe(
        'True when the buyer knows a lifetime license they own already includes every feature of this plan; without it that purchase is refused with 409 `lifetime_license_owned`',
      ),
    trial: z
      .boolean('trial must be true or false')
      .optional()
      .describe(
        'True to start with the plan’s free trial: the card is authorized now and first charged at the trial’s end. Refused with 409 `trial_not_offered` when the plan has none, and `trial_already_used` or `machine_trial_used` (with `earlier_trial`) when this account, e-mail address or machine had one',
      ),
    hardware_id: hardwareIdSchema
      .optional()
      .describe(
        'With `trial`: the machine the checkout is opened on (the desktop app), which gets one trial of a plan',
      ),
  })
  .meta({ id: 'CreateSubscriptionRequest' });

export const planQuoteRequestSchema = z
  .strictObject({ plan_id: planIdField })
  .meta({ id: 'PlanQuoteRequest' });

/** What the page opens Checkout with: the provider's subscription id instead of an order id. */
export const subscriptionCheckoutSchema = z
  .object({
    subscription: subscriptionSchema,
    key_id: z.string(),
    subscription_id: z.string().describe('The provider’s subscription id, passed to the checkout'),
    amount: z.number().int().describe('The first charge, in the currency’s minor unit'),
    currency: z.string(),
    sandbox: z.boolean(),
    prefill: z.object({ email: z.string(), name: z.string().optional() }),
  })
  .meta({ id: 'SubscriptionCheckout' });
export type SubscriptionCheckout = z.infer<typeof subscriptionCheckoutSchema>;

/** What Razorpay Checkout hands the page after authorising a subscription; the sandbox answers the same. */
export const verifySubscriptionRequestSchema = z
  .strictObject({
    razorpay_subscription_id: providerIdField('razorpay_subscription_id'),
    razorpay_payment_id: providerIdField('razorpay_payment_id'),
    razorpay_signature: z
      .string()
      .trim()
      .min(1, 'razorpay_signature is required')
      .max(256, 'razorpay_signature is too long'),
  })
  .meta({ id: 'VerifySubscriptionRequest' });
export type VerifySubscriptionRequest = z.infer<typeof verifySubscriptionRequestSchema>;

export const subscriptionActivationSchema = z
  .object({
    subscription: subscriptionSchema,
    license: licenseSchema,
    charge: chargeSummarySchema
      .nullable()
      .describe('What the first charge took today, as its invoice says, and the next charge'),
  })
  .meta({ id: 'SubscriptionActivation' });
export type SubscriptionActivation = z.infer<typeof subscriptionActivationSchema>;

/** The sandbox checkout's decline of a subscription's first charge, worded as Razorpay Checkout's. */
export const sandboxSubscriptionDeclineSchema = z
  .object({
    error: z.object({ code: z.string(), description: z.string(), reason: z.string() }),
  })
  .meta({ id: 'SandboxSubscriptionDecline' });

// Both answers are named: the OpenAPI document (and the renderer tests' fake API, which checks its
// answers against it) refers to each by name.
export const sandboxSubscriptionCheckoutResultSchema = z.union([
  verifySubscriptionRequestSchema,
  sandboxSubscriptionDeclineSchema,
]);

export const cancelSubscriptionRequestSchema = z
  .strictObject({
    at: z
      .enum(['period_end', 'now'])
      .describe(
        'period_end (the default): no further charge, the license runs to the end of the paid period',
      ),
  })
  .partial()
  .meta({ id: 'CancelSubscriptionRequest' });

/** How long a plan-change quote holds: confirmed within it, the change is charged what it showed. */
export const PLAN_CHANGE_QUOTE_VALIDITY_MINUTES = 10;

export const changePlanRequestSchema = z
  .strictObject({
    plan_id: planIdField,
    quote_id: z
      .uuid('quote_id is malformed')
      .describe(
        'The quote the customer saw: charged exactly its `due_now_minor` while it holds (until `expires_at`); refused (409) once it expired (`quote_expired`) or when the subscription changed since (`quote_changed`)',
      )
      .optional(),
    expected_due_now_minor: z
      .number()
      .int()
      .min(0)
      .describe('The amount the preview showed; refused (409) when the price has changed since')
      .optional(),
  })
  .meta({ id: 'ChangeSubscriptionPlanRequest' });

export const planChangeQuoteSchema = z
  .object({
    id: z.string().describe('Send it as `quote_id` to confirm the change at this price'),
    expires_at: isoDateTimeSchema.describe(
      `Until when the quote holds (${PLAN_CHANGE_QUOTE_VALIDITY_MINUTES} minutes after it was made)`,
    ),
    plan: subscriptionPlanSchema,
    credit_minor: z.number().int().describe('The unused part of the current period'),
    balance_minor: z.number().int().describe('Kept from earlier moves, used now too'),
    due_now_minor: z.number().int().describe('Charged now'),
    balance_after_minor: z.number().int().describe('Kept for the next charges'),
    refund_minor: z
      .number()
      .int()
      .describe(
        'Refunded to the card the current period was paid with (Razorpay: the credit is refunded, and the new plan is paid in full through Checkout)',
      ),
    currency: z.string(),
    period_start: isoDateTimeSchema,
    period_end: isoDateTimeSchema,
  })
  .meta({ id: 'PlanChangeQuote' });
export type PlanChangeQuote = z.infer<typeof planChangeQuoteSchema>;

export const paymentMethodRequestSchema = z
  .strictObject({
    sandbox_card: z
      .enum(SANDBOX_CARDS)
      .describe('Sandbox only: whether the card on file pays or declines the next charges'),
  })
  .meta({ id: 'PaymentMethodRequest' });

/**
 * What Razorpay Checkout opens with to change a subscription's card (`subscription_card_change`):
 * the customer authorises the new card; Razorpay then charges it, an outstanding charge at once.
 */
export const cardChangeCheckoutSchema = z
  .object({
    key_id: z.string(),
    subscription_id: z.string().describe('The provider’s subscription id, passed to the checkout'),
    prefill: z.object({ email: z.string(), name: z.string().optional() }),
  })
  .meta({ id: 'CardChangeCheckout' });
export type CardChangeCheckout = z.infer<typeof cardChangeCheckoutSchema>;

export const pauseSubscriptionRequestSchema = z
  .strictObject({
    periods: z
      .number('periods must be a number of billing periods: 1, 2 or 3')
      .int('periods must be a whole number of billing periods')
      .min(1, 'Pause for at least one billing period')
      .max(MAX_PAUSE_PERIODS, `Pause for at most ${MAX_PAUSE_PERIODS} billing periods`)
      .describe(
        'How many billing periods to pause for, counted from the end of the paid period (the license is valid until then)',
      ),
  })
  .meta({ id: 'PauseSubscriptionRequest' });

export const subscriptionIdParamsSchema = z.object({
  id: z.string().trim().min(1).max(100).describe('Our subscription id or the provider’s'),
});
