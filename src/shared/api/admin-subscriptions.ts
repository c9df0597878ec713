import { z } from 'zod';
import { invoiceSchema } from './invoices.js';
import { displayText } from './common.js';
import { dateRange, orderedRange, pageQuerySchema, pagedSchema, rangeProblem } from './paging.js';
import { adminPaymentSchema } from './payments.js';
import { MAX_PAUSE_PERIODS, SUBSCRIPTION_STATUSES, subscriptionSchema } from './subscriptions.js';

/** Schemas of the administrators' subscriptions (`/admin/subscriptions`). */

/** A subscription with its customer (null once the account is gone). */
export const adminSubscriptionSchema = subscriptionSchema
  .extend({
    user_id: z.string().nullable().describe('Null once the account was deleted'),
    user_email: z.string().nullable(),
    seats: z
      .number()
      .int()
      .min(1)
      .describe('Seats paid for each cycle: 1 unless the plan is priced per seat'),
    organisation: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .describe('The organization it was bought for (a seat-based plan); null for a customer’s own'),
  })
  .meta({ id: 'AdminSubscription' });
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;

export const ADMIN_SUBSCRIPTION_SORT_FIELDS = ['created_at', 'current_period_end', 'status'] as const;

export const adminSubscriptionListQuerySchema = pageQuerySchema(ADMIN_SUBSCRIPTION_SORT_FIELDS)
  .extend({
    status: z
      .enum(SUBSCRIPTION_STATUSES)
      .optional()
      .describe('Without it, every subscription but the pending ones (checkouts never paid)'),
    planId: z.string().trim().min(1).max(64).optional(),
    userId: z.string().trim().min(1).max(64).optional(),
    ...dateRange,
  })
  .refine(orderedRange, rangeProblem);
export const adminSubscriptionListSchema = pagedSchema(adminSubscriptionSchema).meta({
  id: 'AdminSubscriptionList',
});
export type AdminSubscriptionList = z.infer<typeof adminSubscriptionListSchema>;

/** One subscription with its charges and the invoices and credit notes issued for them. */
export const adminSubscriptionDetailSchema = adminSubscriptionSchema
  .extend({
    charges: z
      .array(adminPaymentSchema)
      .describe(
        'Every charge (a payment), newest first; refund one through /payments/admin/payments/{id}/refunds',
      ),
    invoices: z
      .array(invoiceSchema)
      .describe('The invoices of the charges and the credit notes of their refunds, newest first'),
  })
  .meta({ id: 'AdminSubscriptionDetail' });
export type AdminSubscriptionDetail = z.infer<typeof adminSubscriptionDetailSchema>;

export const ADMIN_CANCEL_REASON_MAX_LENGTH = 500;

/** An administrator's cancellation: when it takes effect, and why (kept in the security log). */
export const adminCancelSubscriptionRequestSchema = z
  .strictObject({
    at: z
      .enum(['period_end', 'now'])
      .default('period_end')
      .describe(
        'period_end (the default): no further charge, the license runs to the end of the paid period; now: the license ends now',
      ),
    reason: displayText(ADMIN_CANCEL_REASON_MAX_LENGTH).min(1, 'reason is required: say why you cancel it'),
  })
  .meta({ id: 'AdminCancelSubscriptionRequest' });
export type AdminCancelSubscriptionRequest = z.input<typeof adminCancelSubscriptionRequestSchema>;

/** An administrator's pause for the customer: for how many periods, and why (kept in the security log). */
export const adminPauseSubscriptionRequestSchema = z
  .strictObject({
    periods: z
      .number('periods must be a number of billing periods: 1, 2 or 3')
      .int('periods must be a whole number of billing periods')
      .min(1, 'Pause for at least one billing period')
      .max(MAX_PAUSE_PERIODS, `Pause for at most ${MAX_PAUSE_PERIODS} billing periods`),
    reason: displayText(ADMIN_CANCEL_REASON_MAX_LENGTH).min(1, 'reason is required: say why you pause it'),
  })
  .meta({ id: 'AdminPauseSubscriptionRequest' });
export type AdminPauseSubscriptionRequest = z.input<typeof adminPauseSubscriptionRequestSchema>;

/** An administrator's early resumption of a paused subscription (or withdrawal of a pause to come). */
export const adminResumePauseRequestSchema = z
  .strictObject({
    reason: displayText(ADMIN_CANCEL_REASON_MAX_LENGTH).min(1, 'reason is required: say why you resume it'),
  })
  .meta({ id: 'AdminResumePauseRequest' });
export type AdminResumePauseRequest = z.input<typeof adminResumePauseRequestSchema>;
