import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret as Standard Webhooks writes them: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** A message id (`webhook-id`): the same for every attempt and redelivery of one event. */
export const newMessageId = (): string => `msg_${randomUUID().replaceAll('-', '')}`;

/**
 * The three Standard Webhooks headers of one attempt. Each valid secret signs (the current one
 * and, after a rotation, the previous one until it expires), separated by spaces, so a receiver
 * verifying with either secret accepts the delivery.
 */
export function signatureHeaders(
  messageId: string,
  sentAt: Date,
  payload: string,
  secrets: string[],
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': Math.floor(sentAt.getTime() / 1000).toString(),
    'webhook-signature': secrets
      .map((secret) => new Webhook(secret).sign(messageId, sentAt, payload))
      .join(' '),
  };
}
