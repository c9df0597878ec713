import { composeMail } from '../../platform/mail/compose.js';
import { formatDateTime } from '../../platform/mail/formatting.js';
import type { MailMessage } from '../../platform/mail/message.js';
import { MAX_HELD_DELIVERIES_PER_ENDPOINT, MAX_HELD_DELIVERY_AGE_DAYS } from './held-deliveries.js';

/** The kind the outbox records for this mail; stable, logs and tests name it. */
export const WEBHOOK_DISABLED_MAIL_KIND = 'webhook_endpoint_disabled';

/** Tells an administrator that an endpoint failed too often and gets nothing more until enabled again. */
export const webhookDisabledMail = (input: {
  to: string;
  url: string;
  description: string;
  failures: number;
  failingSince: string | null;
  lastError: string | null;
  disabledAt: Date;
  manageUrl: string;
}): MailMessage =>
  composeMail({
    kind: WEBHOOK_DISABLED_MAIL_KIND,
    to: input.to,
    subject: `Webhook endpoint disabled after repeated failures: ${input.url}`,
    content: {
      preview: `Deliveries to ${input.url} kept failing, so it was disabled.`,
      heading: 'A webhook endpoint was disabled',
      body: [
        {
          paragraph:
            'Deliveries to this endpoint failed every attempt for too long, so the portal stopped sending to it. ' +
            `Events that happen while it is disabled wait for it (at most ${MAX_HELD_DELIVERIES_PER_ENDPOINT}, ` +
            `for up to ${MAX_HELD_DELIVERY_AGE_DAYS} days) and are sent, oldest first, when it is enabled again.`,
        },
        {
          details: [
            { label: 'Endpoint', value: input.url },
            ...(input.description ? [{ label: 'Description', value: input.description }] : []),
            { label: 'Failed deliveries in a row', value: String(input.failures) },
            ...(input.failingSince
              ? [{ label: 'Failing since', value: formatDateTime(new Date(input.failingSince)) }]
              : []),
            ...(input.lastError ? [{ label: 'Last error', value: input.lastError.slice(0, 300) }] : []),
            { label: 'Disabled', value: formatDateTime(input.disabledAt) },
          ],
        },
      ],
      action: { label: 'Review the endpoint', url: input.manageUrl },
      after: [
        {
          note: 'Fix the receiving server, then enable the endpoint again; failed deliveries can be sent again from their log.',
        },
      ],
    },
  });
