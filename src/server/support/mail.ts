import type { SupportTopic } from '../../shared/api/support.js';
import { PRODUCT_NAME } from '../../shared/constants.js';
import { composeMail } from '../platform/mail/compose.js';
import type { MailBlock } from '../platform/mail/content.js';
import { greeting } from '../platform/mail/customer-mails.js';
import { formatDateTime } from '../platform/mail/formatting.js';
import { type MailI18n, mailI18n } from '../platform/mail/mail-i18n.js';
import type { MailMessage } from '../platform/mail/message.js';
import { mailKinds } from '../platform/mail/templates.js';

export const DIAGNOSTICS_FILENAME = 'app-and-account-information.txt';

/** What the customer typed, a paragraph per blank-line-separated block (plain text: escaped in HTML). */
const messageParagraphs = (message: string): MailBlock[] =>
  message
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => ({ paragraph }));

/**
 * A support request as support reads it: replying answers the customer (Reply-To), the subject
 * carries the reference, and the app and account information comes as a text file only when the
 * customer agreed to send it. What the customer typed is plain text (the HTML part escapes it).
 * Written in English: the support address has no account, so no language.
 */
export const supportRequestMail = (input: {
  to: string;
  reference: string;
  customerEmail: string;
  customerName: string | null;
  userId: string;
  topic: string;
  subject: string;
  message: string;
  diagnostics: string | null;
  sentAt: Date;
}): MailMessage => ({
  ...composeMail({
    kind: mailKinds.supportRequest,
    to: input.to,
    subject: `[${input.reference}] ${input.topic}: ${input.subject}`,
    content: {
      preview: `${input.customerEmail} asks about ${input.topic.toLowerCase()}.`,
      heading: `Support request ${input.reference}`,
      body: [
        {
          details: [
            {
              label: 'From',
              value: input.customerName
                ? `${input.customerName} <${input.customerEmail}>`
                : input.customerEmail,
            },
            { label: 'Account id', value: input.userId },
            { label: 'Topic', value: input.topic },
            { label: 'Subject', value: input.subject },
            { label: 'Sent', value: formatDateTime(input.sentAt) },
          ],
        },
        ...messageParagraphs(input.message),
      ],
      after: [
        {
          note: input.diagnostics
            ? `The customer attached the app and account information (${DIAGNOSTICS_FILENAME}). Reply to this mail to answer them.`
            : `The customer chose not to send the app and account information. Reply to this mail to answer them.`,
        },
      ],
    },
  }),
  replyTo: input.customerEmail,
  ...(input.diagnostics
    ? {
        attachments: [
          {
            filename: DIAGNOSTICS_FILENAME,
            contentType: 'text/plain; charset=utf-8',
            content: new TextEncoder().encode(`${input.diagnostics}\n`),
          },
        ],
      }
    : {}),
});

/** A support topic in the customer's language; the topic itself is stored, and sent to support, in English. */
function topicLabel(topic: string, i18n: MailI18n): string {
  switch (topic as SupportTopic) {
    case 'Licensing and activation':
      return i18n._({ id: 'mail.support.topic.licensing', message: 'Licensing and activation' });
    case 'Billing and payments':
      return i18n._({ id: 'mail.support.topic.billing', message: 'Billing and payments' });
    case 'Account and sign-in':
      return i18n._({ id: 'mail.support.topic.account', message: 'Account and sign-in' });
    case 'Desktop app problem':
      return i18n._({ id: 'mail.support.topic.app', message: 'Desktop app problem' });
    case 'Something else':
      return i18n._({ id: 'mail.support.topic.other', message: 'Something else' });
    default:
      return topic;
  }
}

/**
 * To the customer, in their language: their request arrived, with the reference to quote and a
 * copy of what they wrote. Replying reaches support when SUPPORT_EMAIL is set.
 */
export const supportRequestReceivedMail = (input: {
  to: string;
  name: string | null;
  language?: string | null | undefined;
  reference: string;
  topic: string;
  subject: string;
  message: string;
  sentAt: Date;
  /** The Support page, where the customer sees their requests and whether each was handled. */
  supportUrl: string;
  /** SUPPORT_EMAIL, when set: replies go there. */
  replyTo: string | undefined;
}): MailMessage => {
  const i18n = mailI18n(input.language);
  const { reference, subject } = input;
  return {
    ...composeMail({
      kind: mailKinds.supportRequestReceived,
      to: input.to,
      i18n,
      subject: i18n._(
        { id: 'mail.supportReceived.subject', message: '[{reference}] We received your request: {subject}' },
        { reference, subject },
      ),
      content: {
        preview: i18n._(
          {
            id: 'mail.supportReceived.preview',
            message: 'Your support request {reference} reached us. We reply to this address.',
          },
          { reference },
        ),
        heading: i18n._({ id: 'mail.supportReceived.heading', message: 'We received your support request' }),
        body: [
          greeting(input.name, i18n),
          {
            paragraph: i18n._(
              {
                id: 'mail.supportReceived.body',
                message:
                  'Thank you for writing to {product} support. Your request reached us, and we reply to this address. Quote {reference} in anything you send about it.',
              },
              { product: PRODUCT_NAME, reference },
            ),
          },
          {
            details: [
              { label: i18n._({ id: 'mail.label.reference', message: 'Reference' }), value: reference },
              {
                label: i18n._({ id: 'mail.label.topic', message: 'Topic' }),
                value: topicLabel(input.topic, i18n),
              },
              { label: i18n._({ id: 'mail.label.subject', message: 'Subject' }), value: subject },
              {
                label: i18n._({ id: 'mail.label.sent', message: 'Sent' }),
                value: formatDateTime(input.sentAt, i18n.locale),
              },
            ],
          },
          { paragraph: i18n._({ id: 'mail.supportReceived.youWrote', message: 'What you wrote:' }) },
          ...messageParagraphs(input.message),
        ],
        action: {
          label: i18n._({ id: 'mail.supportReceived.action', message: 'See your requests' }),
          url: input.supportUrl,
        },
        after: [
          {
            note: input.replyTo
              ? i18n._({
                  id: 'mail.supportReceived.addByReply',
                  message: 'To add something, reply to this mail.',
                })
              : i18n._({
                  id: 'mail.supportReceived.addByRequest',
                  message:
                    'To add something, send another request from the Support page and quote the reference.',
                }),
          },
        ],
      },
    }),
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
  };
};
