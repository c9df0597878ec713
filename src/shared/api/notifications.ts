import { z } from 'zod';
import { notificationPreferencesSchema } from './users.js';

/**
 * The link of an optional mail: a signed token naming the account and one notification
 * preference. Not strict: a mail provider or link checker may add parameters of its own.
 */
export const unsubscribeQuerySchema = z.object({
  token: z.string().min(1, 'The unsubscribe link has no token').max(512, 'The unsubscribe link is malformed'),
});

/**
 * What a one-click unsubscribe (RFC 8058) posts: `List-Unsubscribe=One-Click`, as a form. The
 * token in the address is what counts; a browser's confirmation form posts the same field.
 */
export const unsubscribeBodySchema = z
  .object({ 'List-Unsubscribe': z.string().max(64).optional() })
  .meta({ id: 'UnsubscribeRequest' });

export const unsubscribeAnswerSchema = z
  .object({
    preference: notificationPreferencesSchema.keyof(),
    /** Whether mail of this kind is still sent to the account. */
    subscribed: z.boolean(),
    message: z.string(),
  })
  .meta({ id: 'UnsubscribeAnswer' });
export type UnsubscribeAnswer = z.infer<typeof unsubscribeAnswerSchema>;
