import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { chargeSummarySchema } from './charges.js';
import { couponCodeField } from './coupons.js';
import { licenseSchema } from './licenses.js';
import { dateRange, orderedRange, pageQuerySchema, pagedSchema, rangeProblem } from './paging.js';

/** `razorpay` takes real money; `sandbox` imitates it with a local secret so a fresh install can buy plans. */
export const PAYMENT_PROVIDERS = ['razorpay', 'sandbox'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
/**
 * `expired`: an order left unpaid longer than the server's CHECKOUT_EXPIRY_MINUTES (never a
 * subscription's charge). A late payment of it is still honoured and makes it `paid`.
 */
export const PAYMENT_STATUSES = ['created', 'paid', 'failed', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** A one-off purchase, or one charge of a subscription. */
export const PAYMENT_KINDS = ['purchase', 'subscription'] as const;

const sandboxFlag = z
  .boolean()
  .describe('True for sandbox payments: no money moved. Show it, never mistake one for a real payment.');

const providerIdSchema = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is required`)
    .max(100, `${what} is too long`)
    .regex(/^[A-Za-z0-9_-]+$/, `${what} is malformed`);

export const paymentConfigSchema = z
  .object({
    provider: z.enum(PAYMENT_PROVIDERS),
    /** The public key id Razorpay Checkout is opened with (`sandbox` for the sandbox). */
    key_id: z.string(),
    sandbox: sandboxFlag,
    currency: z.string().describe('The payment account’s home currency (ISO 4217): a new plan’s'),
    currencies: z
      .array(z.string())
      .describe('Every currency payments are taken in, the home one first: plans are priced in these'),
  })
  .meta({ id: 'PaymentConfig' });
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

/** The currency a buyer chose among those the plan is sold in; left out, their billing country's. */
export const buyerCurrencyField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'currency must be a three-letter ISO 4217 code')
  .optional()
  .describe(
    'One of the plan’s `prices` currencies; left out, the billing country’s when the plan is sold in it, else the plan’s own',
  );

/** Only the plan (and which of its prices): the amount always comes from the plan on the server. */
export const createOrderRequestSchema = z
  .strictObject(
    {
      plan_id: z.string().trim().min(1, 'plan_id is required').max(64, 'plan_id is too long'),
      coupon_code: couponCodeField,
      currency: buyerCurrencyField,
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `${issue.keys.join(', ')} cannot be sent: the price comes from the plan; send plan_id and, optionally, coupon_code and currency`
          : undefined,
    },
  )
  .meta({ id: 'CreatePaymentOrderRequest' });
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>;

const planSummarySchema = z.object({ id: z.string(), code: z.string(), name: z.string() });

export const paymentOrderSchema = z
  .object({
    id: z.string().describe('Our payment id'),
    order_id: z.string().describe('The provider’s order id, passed to the checkout'),
    amount: z.number().int().describe('In the currency’s minor unit (paise, cents)'),
    currency: z.string(),
    key_id: z.string(),
    provider: z.enum(PAYMENT_PROVIDERS),
    sandbox: sandboxFlag,
    plan: planSummarySchema,
    prefill: z.object({ email: z.string(), name: z.string().optional() }).optional(),
  })
  .meta({ id: 'PaymentOrder' });
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;

/** What Razorpay Checkout hands the page after a successful payment; the sandbox answers the same. */
export const verifyPaymentRequestSchema = z
  .strictObject({
    razorpay_order_id: providerIdSchema('razorpay_order_id'),
    razorpay_payment_id: providerIdSchema('razorpay_payment_id'),
    razorpay_signature: z
      .string()
      .trim()
      .min(1, 'razorpay_signature is required')
      .max(256, 'razorpay_signature is too long'),
  })
  .meta({ id: 'VerifyPaymentRequest' });
export type VerifyPaymentRequest = z.infer<typeof verifyPaymentRequestSchema>;
export const checkoutSuccessSchema = verifyPaymentRequestSchema.meta({ id: 'CheckoutSuccess' });

export const paymentSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    payment_id: z.string().nullable(),
    provider: z.enum(PAYMENT_PROVIDERS),
    sandbox: sandboxFlag,
    status: z.enum(PAYMENT_STATUSES),
    kind: z.enum(PAYMENT_KINDS),
    amount: z.number().int(),
    refunded: z
      .number()
      .int()
      .describe('Refunded of the amount so far, in minor units (processed refunds only); 0 when none'),
    currency: z.string(),
    plan_id: z.string(),
    plan: planSummarySchema,
    license_id: z.string().nullable(),
    failure_reason: z.string().nullable(),
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema,
    paid_at: isoDateTimeSchema.nullable(),
    dismissed_at: isoDateTimeSchema
      .nullable()
      .describe('When the buyer dismissed this expired or failed order from their history'),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof paymentSchema>;

export const paymentVerificationSchema = z
  .object({
    payment: paymentSchema,
    license: licenseSchema,
    sandbox: sandboxFlag,
    charge: chargeSummarySchema.nullable().describe('What the payment charged, as its invoice says'),
  })
  .meta({ id: 'PaymentVerification' });
export type PaymentVerification = z.infer<typeof paymentVerificationSchema>;

export const sandboxCheckoutRequestSchema = z
  .strictObject({ outcome: z.enum(['pay', 'decline']) })
  .meta({ id: 'SandboxCheckoutRequest' });

/** The failure Razorpay Checkout reports on a declined payment, with the payment as it now stands. */
export const checkoutFailureSchema = z
  .object({
    error: z.object({
      code: z.string(),
      description: z.string(),
      reason: z.string(),
      source: z.string(),
      step: z.string(),
      metadata: z.object({ order_id: z.string(), payment_id: z.string() }),
    }),
    payment: paymentSchema,
  })
  .meta({ id: 'CheckoutFailure' });
export type CheckoutFailure = z.infer<typeof checkoutFailureSchema>;
export const sandboxCheckoutResultSchema = z.union([checkoutSuccessSchema, checkoutFailureSchema]);

export const paymentIdParamsSchema = z.object({
  id: z.string().trim().min(1).max(100).describe('Our payment id or the provider’s order id'),
});

export const paymentHistoryQuerySchema = pageQuerySchema(['created_at', 'amount', 'status']).extend({
  status: z.enum(PAYMENT_STATUSES).optional(),
  dismissed: z
    .enum(['hide', 'include'], 'dismissed must be hide or include')
    .default('hide')
    .describe('Dismissed orders are left out unless `include`'),
});
export const paymentListSchema = pagedSchema(paymentSchema).meta({ id: 'PaymentList' });

export const adminPaymentListQuerySchema = pageQuerySchema(['created_at', 'amount', 'status'])
  .extend({
    status: z.enum(PAYMENT_STATUSES).optional(),
    userId: z.string().trim().min(1).max(64).optional(),
    planId: z.string().trim().min(1).max(64).optional(),
    ...dateRange,
  })
  .refine(orderedRange, rangeProblem);

export const adminPaymentSchema = paymentSchema
  .extend({
    user_id: z.string().nullable().describe('Null once the account was deleted'),
    user_email: z.string().nullable(),
  })
  .meta({ id: 'AdminPayment' });
export type AdminPayment = z.infer<typeof adminPaymentSchema>;
export const adminPaymentListSchema = pagedSchema(adminPaymentSchema).meta({ id: 'AdminPaymentList' });

/** The parts of a Razorpay webhook this server reads; other fields are kept as sent. */
const webhookPaymentEntitySchema = z.looseObject({
  id: z.string(),
  order_id: z.string().nullable().optional(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string().optional(),
  error_description: z.string().nullable().optional(),
  error_reason: z.string().nullable().optional(),
});
const webhookOrderEntitySchema = z.looseObject({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string().optional(),
});
/** A subscription as Razorpay's `subscription.*` events carry it (times in Unix seconds). */
const webhookSubscriptionEntitySchema = z.looseObject({
  id: z.string(),
  status: z.string().optional(),
  plan_id: z.string().optional(),
  paid_count: z.number().int().min(0).optional(),
  current_start: z.number().int().nullable().optional(),
  current_end: z.number().int().nullable().optional(),
  ended_at: z.number().int().nullable().optional(),
  payment_method: z.string().nullable().optional(),
});
export const webhookEventSchema = z
  .looseObject({
    event: z.string().min(1),
    payload: z.looseObject({
      payment: z.looseObject({ entity: webhookPaymentEntitySchema }).optional(),
      order: z.looseObject({ entity: webhookOrderEntitySchema }).optional(),
      subscription: z.looseObject({ entity: webhookSubscriptionEntitySchema }).optional(),
    }),
    created_at: z.number().int().optional(),
  })
  .meta({
    id: 'RazorpayWebhookEvent',
    description:
      'Signed by the provider in X-Razorpay-Signature (HMAC-SHA256 of the raw body with the webhook secret).',
  });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const WEBHOOK_OUTCOMES = ['processed', 'ignored', 'rejected', 'duplicate'] as const;
export const webhookAckSchema = z.object({ status: z.enum(WEBHOOK_OUTCOMES) }).meta({ id: 'WebhookAck' });
