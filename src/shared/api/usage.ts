import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { featureUsageSchema, MAX_USAGE_AMOUNT } from './licenses.js';

/** The most events one usage batch may carry. */
export const MAX_USAGE_BATCH = 1000;
/**
 * How old a reported event may be: as long as the longest lease an app can run offline on (90 days),
 * so what it used offline still counts in the period it happened in.
 */
export const MAX_USAGE_EVENT_AGE_DAYS = 90;
/** How far ahead of the server's clock an event may be dated (a machine's clock runs fast). */
export const USAGE_CLOCK_SKEW_SECONDS = 300;

export const usageEventSchema = z
  .strictObject({
    id: z
      .string()
      .min(1, 'An event id is required')
      .max(100, 'An event id is at most 100 characters')
      .regex(/^[A-Za-z0-9._:-]+$/, 'An event id may contain letters, digits, ".", "_", ":" and "-"')
      .describe('The reporter’s own id for the event: an event is counted once per license'),
    feature: z.string().trim().min(1, 'feature is required').max(64).describe('Feature id or key'),
    amount: z
      .number()
      .int('amount must be a whole number')
      .min(1, 'amount must be at least 1')
      .max(MAX_USAGE_AMOUNT, `amount must be at most ${MAX_USAGE_AMOUNT}`),
    occurred_at: isoDateTimeSchema
      .pipe(z.iso.datetime({ offset: true, message: 'occurred_at must be an ISO 8601 date and time' }))
      .optional()
      .describe('When it happened (default: now); it counts in that period'),
  })
  .meta({ id: 'UsageEvent' });
export type UsageEvent = z.infer<typeof usageEventSchema>;

/** A batch of events: at least one, at most {@link MAX_USAGE_BATCH}. */
const batchOf = <Event extends z.ZodType>(event: Event) =>
  z
    .array(event)
    .min(1, 'Send at least one event')
    .max(MAX_USAGE_BATCH, `A batch carries at most ${MAX_USAGE_BATCH} events`);

export const usageBatchRequestSchema = z
  .strictObject({
    events: batchOf(usageEventSchema),
    machine: z
      .string()
      .min(1, 'machine must name a machine of the license')
      .max(128)
      .optional()
      .describe(
        'The activated machine the batch comes from (its hardware id or activation id): it may use what its lease reserved',
      ),
  })
  .meta({ id: 'UsageBatchRequest' });
export type UsageBatchRequest = z.infer<typeof usageBatchRequestSchema>;

export const USAGE_EVENT_OUTCOMES = ['counted', 'duplicate', 'refused'] as const;

export const usageEventResultSchema = z
  .object({
    id: z.string(),
    outcome: z
      .enum(USAGE_EVENT_OUTCOMES)
      .describe(
        'counted; duplicate: counted before (a retry), nothing added; refused: not counted, see code',
      ),
    code: z.string().optional(),
    message: z.string().optional(),
  })
  .meta({ id: 'UsageEventResult' });
export type UsageEventResult = z.infer<typeof usageEventResultSchema>;

export const usageBatchResponseSchema = z
  .object({
    license_id: z.string(),
    counted: z.number().int(),
    duplicates: z.number().int(),
    refused: z.number().int(),
    results: z.array(usageEventResultSchema).describe('One per event, in the batch’s order'),
    features: z.array(featureUsageSchema).describe('The features the batch named, as they stand now'),
  })
  .meta({ id: 'UsageBatchResponse' });
export type UsageBatchResponse = z.infer<typeof usageBatchResponseSchema>;

/** An event the vendor's AI backend reports: the same event, naming the license it was used under. */
export const backendUsageEventSchema = usageEventSchema
  .extend({ license_id: z.string().min(1).max(64).describe('The license the use counts against') })
  .meta({ id: 'BackendUsageEvent' });

export const backendUsageBatchRequestSchema = z
  .strictObject({ events: batchOf(backendUsageEventSchema) })
  .meta({ id: 'BackendUsageBatchRequest' });
export type BackendUsageBatchRequest = z.infer<typeof backendUsageBatchRequestSchema>;

export const backendUsageBatchResponseSchema = z
  .object({
    counted: z.number().int(),
    duplicates: z.number().int(),
    refused: z.number().int(),
    results: z
      .array(usageEventResultSchema.extend({ license_id: z.string() }))
      .describe('One per event, in the batch’s order'),
  })
  .meta({ id: 'BackendUsageBatchResponse' });
export type BackendUsageBatchResponse = z.infer<typeof backendUsageBatchResponseSchema>;
