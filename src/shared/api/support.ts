import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { pageQuerySchema, pagedSchema } from './paging.js';

/** What a request is about; support sorts its mail by it. */
export const SUPPORT_TOPICS = [
  'Licensing and activation',
  'Billing and payments',
  'Account and sign-in',
  'Desktop app problem',
  'Something else',
] as const;
export type SupportTopic = (typeof SUPPORT_TOPICS)[number];

export const SUPPORT_SUBJECT_MAX = 120;
export const SUPPORT_MESSAGE_MIN = 20;
export const SUPPORT_MESSAGE_MAX = 5000;
/** The app and account information block is a dozen short lines; this leaves room for long ids. */
export const SUPPORT_DIAGNOSTICS_MAX = 4000;

const NO_CONTROL = /^[^\p{Cc}]*$/u;
const withoutLineBreaks = (text: string) => text.replace(/[\r\n\t]/g, '');

export const supportRequestBodySchema = z
  .strictObject({
    topic: z.enum(SUPPORT_TOPICS, 'Choose one of the listed topics'),
    subject: z
      .string('Write a short subject')
      .trim()
      .min(3, 'Write a short subject')
      .max(SUPPORT_SUBJECT_MAX, `Keep the subject under ${SUPPORT_SUBJECT_MAX} characters`)
      .regex(NO_CONTROL, 'Must not contain control characters'),
    message: z
      .string('Describe the problem')
      .trim()
      .min(
        SUPPORT_MESSAGE_MIN,
        `Describe the problem in a few words (at least ${SUPPORT_MESSAGE_MIN} characters)`,
      )
      .max(
        SUPPORT_MESSAGE_MAX,
        `Keep the message under ${SUPPORT_MESSAGE_MAX.toLocaleString('en')} characters`,
      )
      .refine((text) => NO_CONTROL.test(withoutLineBreaks(text)), 'Must not contain control characters'),
    diagnostics: z
      .string()
      .trim()
      .min(1)
      .max(
        SUPPORT_DIAGNOSTICS_MAX,
        `The app and account information is at most ${SUPPORT_DIAGNOSTICS_MAX} characters`,
      )
      .refine((text) => NO_CONTROL.test(withoutLineBreaks(text)), 'Must not contain control characters')
      .optional()
      .describe('The app and account information; send it only when the customer agreed to'),
  })
  .meta({ id: 'SupportRequestBody' });
export type SupportRequestBody = z.infer<typeof supportRequestBodySchema>;

/** What the customer is told once the request is stored. */
export const supportRequestReceiptSchema = z
  .object({
    id: z.string(),
    reference: z.string().describe('Quote it in later mail about this request, e.g. SR-7KQ2M4PX'),
    reply_to: z.string().describe('The address support replies to: the account’s'),
    diagnostics_included: z.boolean(),
    created_at: isoDateTimeSchema,
  })
  .meta({ id: 'SupportRequestReceipt' });
export type SupportRequestReceipt = z.infer<typeof supportRequestReceiptSchema>;

export const SUPPORT_REQUEST_STATES = ['open', 'handled'] as const;
export type SupportRequestState = (typeof SUPPORT_REQUEST_STATES)[number];

/** One of the customer's own requests, as they see it: what they asked and whether it was handled. */
export const supportRequestSchema = z
  .object({
    id: z.string(),
    reference: z.string(),
    topic: z.string(),
    subject: z.string(),
    state: z.enum(SUPPORT_REQUEST_STATES).describe('handled once support marked it so'),
    handled_at: isoDateTimeSchema.nullable(),
    created_at: isoDateTimeSchema,
  })
  .meta({ id: 'SupportRequest' });
export type SupportRequest = z.infer<typeof supportRequestSchema>;

export const supportRequestListQuerySchema = pageQuerySchema(['created_at']);
export const supportRequestListSchema = pagedSchema(supportRequestSchema).meta({ id: 'SupportRequestList' });
export type SupportRequestList = z.infer<typeof supportRequestListSchema>;

export const adminSupportRequestSchema = z
  .object({
    id: z.string(),
    reference: z.string(),
    user_id: z.string().nullable().describe('Null once the account was deleted'),
    email: z.string(),
    topic: z.string(),
    subject: z.string(),
    message: z.string(),
    diagnostics: z.string().nullable(),
    state: z.enum(SUPPORT_REQUEST_STATES),
    handled_at: isoDateTimeSchema.nullable(),
    handled_by_email: z.string().nullable(),
    created_at: isoDateTimeSchema,
  })
  .meta({ id: 'AdminSupportRequest' });
export type AdminSupportRequest = z.infer<typeof adminSupportRequestSchema>;

export const adminSupportRequestListQuerySchema = pageQuerySchema(['created_at']).extend({
  state: z.enum(SUPPORT_REQUEST_STATES).optional(),
});
export const adminSupportRequestListSchema = pagedSchema(adminSupportRequestSchema).meta({
  id: 'AdminSupportRequestList',
});

export const supportRequestHandledBodySchema = z
  .strictObject({ handled: z.boolean('handled must be true or false') })
  .meta({ id: 'SupportRequestHandledBody' });
