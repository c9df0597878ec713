import { composeMail } from '../../platform/mail/compose.js';
import { formatCount, formatDateTime } from '../../platform/mail/formatting.js';
import { mailI18n } from '../../platform/mail/mail-i18n.js';
import type { MailMessage } from '../../platform/mail/message.js';
import { MAX_HELD_DELIVERIES_PER_ENDPOINT, MAX_HELD_DELIVERY_AGE_DAYS } from './held-deliveries.js';

/** The kind the outbox records for this mail; stable, logs and tests name it. */
export const WEBHOOK_DISABLED_MAIL_KIND = 'webhook_endpoint_disabled';

/**
 * Tells an administrator, in their language, that an endpoint failed too often and gets nothing
 * more until enabled again. The endpoint's URL, description and last error are data, as they are.
 */
export const webhookDisabledMail = (input: {
  to: string;
  /** The administrator's language preference (`preferences.language`). */
  language?: string | null | undefined;
  url: string;
  description: string;
  failures: number;
  failingSince: string | null;
  lastError: string | null;
  disabledAt: Date;
  manageUrl: string;
}): MailMessage => {
  const i18n = mailI18n(input.language);
  const { url } = input;
  return composeMail({
    kind: WEBHOOK_DISABLED_MAIL_KIND,
    to: input.to,
    i18n,
    subject: i18n._(
      {
        id: 'mail.webhookDisabled.subject',
        message: 'Webhook endpoint disabled after repeated failures: {url}',
      },
      { url },
    ),
    content: {
      preview: i18n._(
        {
          id: 'mail.webhookDisabled.preview',
          message: 'Deliveries to {url} kept failing, so it was disabled.',
        },
        { url },
      ),
      heading: i18n._({ id: 'mail.webhookDisabled.heading', message: 'A webhook endpoint was disabled' }),
      body: [
        {
          paragraph: i18n._(
            {
              id: 'mail.webhookDisabled.body',
              message:
                'Deliveries to this endpoint failed every attempt for too long, so the portal stopped sending to it. Events that happen while it is disabled wait for it (at most {held}, for up to {days, plural, one {# day} other {# days}}) and are sent, oldest first, when it is enabled again.',
            },
            {
              held: formatCount(MAX_HELD_DELIVERIES_PER_ENDPOINT, i18n.locale),
              days: MAX_HELD_DELIVERY_AGE_DAYS,
            },
          ),
        },
        {
          details: [
            { label: i18n._({ id: 'mail.label.endpoint', message: 'Endpoint' }), value: url },
            ...(input.description
              ? [
                  {
                    label: i18n._({ id: 'mail.label.description', message: 'Description' }),
                    value: input.description,
                  },
                ]
              : []),
            {
              label: i18n._({ id: 'mail.label.failuresInARow', message: 'Failed deliveries in a row' }),
              value: formatCount(input.failures, i18n.locale),
            },
            ...(input.failingSince
              ? [
                  {
                    label: i18n._({ id: 'mail.label.failingSince', message: 'Failing since' }),
                    value: formatDateTime(new Date(input.failingSince), i18n.locale),
                  },
                ]
              : []),
            ...(input.lastError
              ? [
                  {
                    label: i18n._({ id: 'mail.label.lastError', message: 'Last error' }),
                    value: input.lastError.slice(0, 300),
                  },
                ]
              : []),
            {
              label: i18n._({ id: 'mail.label.disabled', message: 'Disabled' }),
              value: formatDateTime(input.disabledAt, i18n.locale),
            },
          ],
        },
      ],
      action: {
        label: i18n._({ id: 'mail.webhookDisabled.action', message: 'Review the endpoint' }),
        url: input.manageUrl,
      },
      after: [
        {
          note: i18n._({
            id: 'mail.webhookDisabled.fix',
            message:
              'Fix the receiving server, then enable the endpoint again; failed deliveries can be sent again from their log.',
          }),
        },
      ],
    },
  });
};
