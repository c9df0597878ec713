import { z } from 'zod';
import { displayText, isoDateTimeSchema } from './common.js';
import { pageQuerySchema, pagedSchema } from './paging.js';

/** Every event an endpoint may subscribe to, as `type` in the payload; the portal offers exactly these. */
export const WEBHOOK_EVENT_TYPES = [
  'license.created',
  'license.updated',
  'license.suspended',
  'license.revoked',
  'license.expired',
  'license.trial_started',
  'license.trial_ending',
  'license.trial_converted',
  'license.trial_expired',
  'license.machine_limit_reached',
  'license.deactivation_limit_reached',
  'activation.created',
  'activation.deleted',
  'payment.paid',
  'payment.refunded',
  'subscription.created',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.cancelled',
  'organisation.created',
  'organisation.updated',
  'organisation.member_joined',
  'organisation.member_removed',
  'organisation.seats_changed',
  'usage.allowance_warning',
  'usage.allowance_reached',
  'usage.overage_charged',
  'usage.pack_bought',
  'floating.seats_exhausted',
  'floating.borrow_overdue',
  'floating.heartbeats_stopped',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each event means, for the portal's checkboxes and the event-types answer. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'license.created': 'A license was issued (purchase, subscription, administrator, free plan)',
  'license.updated': 'An administrator changed a license (status, expiry, seats or plan)',
  'license.suspended': 'A license was suspended',
  'license.revoked': 'A license was revoked for good',
  'license.expired': 'A license reached its expiry date',
  'license.trial_started': 'A customer started a free trial (its license is issued with the trial’s end)',
  'license.trial_ending': 'A free trial ends soon: three days before its end, and on its last day',
  'license.trial_converted': 'A customer bought the plan while on its trial: the trial license is now paid',
  'license.trial_expired': 'A free trial ended without the plan being bought',
  'license.machine_limit_reached': 'A machine took the last seat of a license: it is active on all it allows',
  'license.deactivation_limit_reached':
    'A deactivation was refused: the license freed as many machines in 30 days as its plan allows',
  'activation.created': 'A machine was activated on a license',
  'activation.deleted': 'A machine was deactivated',
  'payment.paid': 'A payment was received',
  'payment.refunded': 'A payment was refunded, in full or in part',
  'subscription.created': 'A subscription started',
  'subscription.renewed': 'A subscription was charged for a new period',
  'subscription.past_due': 'A subscription charge failed',
  'subscription.paused':
    'A subscription was paused for one to three periods (it pauses when its paid period ends; `pause_resumes_at` says when it resumes)',
  'subscription.resumed':
    'A paused subscription resumed (at its pause’s end or early), or a planned pause was withdrawn',
  'subscription.cancelled': 'A subscription was canceled',
  'organisation.created': 'An organization was created',
  'organisation.updated': 'An organization’s name, billing details or ownership changed',
  'organisation.member_joined': 'Someone joined an organization (an invitation was accepted)',
  'organisation.member_removed': 'A member left or was removed from an organization',
  'organisation.seats_changed': 'An organization bought seats, or a seat was assigned or taken back',
  'usage.allowance_warning': 'A license used 80% of a metered feature’s allowance this period',
  'usage.allowance_reached': 'A license used all of a metered feature’s allowance this period',
  'usage.overage_charged':
    'Use past a metered feature’s allowance in an ended period was charged with a renewal',
  'usage.pack_bought': 'A customer bought a credit pack of a metered feature (its payment settled)',
  'floating.seats_exhausted': 'A machine took the last free seat of a floating license',
  'floating.borrow_overdue': 'A seat borrowed for offline use was not returned before its borrow ended',
  'floating.heartbeats_stopped':
    'A machine holding a floating seat stopped sending heartbeats; its seat is free',
};

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;

const eventTypesSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, `Choose from ${WEBHOOK_EVENT_TYPES.join(', ')}`))
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)]);

const urlSchema = z
  .string('Give the endpoint’s URL')
  .trim()
  .min(1, 'Give the endpoint’s URL')
  .max(WEBHOOK_URL_MAX, `The URL is at most ${WEBHOOK_URL_MAX} characters`)
  .refine((value) => URL.canParse(value), 'Give a full URL, e.g. https://example.com/webhooks');

export const createWebhookEndpointBodySchema = z
  .strictObject({
    url: urlSchema,
    description: displayText(WEBHOOK_DESCRIPTION_MAX).optional(),
    event_types: eventTypesSchema,
  })
  .meta({ id: 'CreateWebhookEndpointBody' });
export type CreateWebhookEndpointBody = z.input<typeof createWebhookEndpointBodySchema>;

export const updateWebhookEndpointBodySchema = z
  .strictObject({
    url: urlSchema.optional(),
    description: displayText(WEBHOOK_DESCRIPTION_MAX).optional(),
    event_types: eventTypesSchema.optional(),
    enabled: z.boolean().optional().describe('false stops deliveries; true resumes them'),
  })
  .meta({ id: 'UpdateWebhookEndpointBody' });
export type UpdateWebhookEndpointBody = z.input<typeof updateWebhookEndpointBodySchema>;

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    disabled_at: isoDateTimeSchema.nullable(),
    disabled_reason: z
      .string()
      .nullable()
      .describe('Why it was disabled (an administrator, or repeated failures)'),
    consecutive_failures: z.number().int().describe('Deliveries failed in a row since the last success'),
    failing_since: isoDateTimeSchema
      .nullable()
      .describe('When attempts started failing with no success since; null while it delivers'),
    previous_secret_expires_at: isoDateTimeSchema
      .nullable()
      .describe('Until then deliveries are signed with the previous secret too'),
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** Creating an endpoint or rotating its secret shows the secret, once. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({
    secret: z.string().describe('whsec_…: verify deliveries with it (Standard Webhooks); shown only now'),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const webhookEndpointListQuerySchema = pageQuerySchema(['created_at', 'url']);
export const webhookEndpointListSchema = pagedSchema(webhookEndpointSchema).meta({
  id: 'WebhookEndpointList',
});
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const webhookAttemptSchema = z
  .object({
    attempt: z.number().int(),
    url: z.string(),
    started_at: isoDateTimeSchema,
    duration_ms: z.number().int(),
    request_headers: z.record(z.string(), z.string()),
    request_body: z.string(),
    response_status: z.number().int().nullable(),
    response_headers: z.record(z.string(), z.string()).nullable(),
    response_body: z.string().nullable().describe('The first few kilobytes'),
    error: z.string().nullable(),
    next_attempt_at: isoDateTimeSchema.nullable().describe('When it was to be tried again'),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    endpoint_id: z.string(),
    event_id: z.string().describe('The webhook-id header: the same on every attempt and redelivery'),
    event_type: z.string(),
    redelivery_of: z.string().nullable(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    next_attempt_at: isoDateTimeSchema.nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: isoDateTimeSchema,
    completed_at: isoDateTimeSchema.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryDetailSchema = webhookDeliverySchema
  .extend({ payload: z.string(), attempt_log: z.array(webhookAttemptSchema) })
  .meta({ id: 'WebhookDeliveryDetail' });
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>;

export const webhookDeliveryListQuerySchema = pageQuerySchema(['created_at']).extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});
export const webhookDeliveryListSchema = pagedSchema(webhookDeliverySchema).meta({
  id: 'WebhookDeliveryList',
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

export const webhookEventTypeListSchema = z
  .object({ data: z.array(z.object({ type: z.string(), description: z.string() })) })
  .meta({ id: 'WebhookEventTypeList' });
export type WebhookEventTypeList = z.infer<typeof webhookEventTypeListSchema>;

/** The type of the event "Send test event" delivers to one endpoint, whatever it subscribed to. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';
