import { PRODUCT_NAME } from '../../shared/constants.js';
import { composeMail } from '../platform/mail/compose.js';
import type { MailBlock } from '../platform/mail/content.js';
import { formatDateTime } from '../platform/mail/formatting.js';
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

/**
 * To the customer: their request arrived, with the reference to quote and a copy of what they
 * wrote. Replying reaches support when SUPPORT_EMAIL is set.
 */
export const supportRequestReceivedMail = (input: {
  to: string;
  name: string | null;
  reference: string;
  topic: string;
  subject: string;
  message: string;
  sentAt: Date;
  /** The Support page, where the customer sees their requests and whether each was handled. */
  supportUrl: string;
  /** SUPPORT_EMAIL, when set: replies go there. */
  replyTo: string | undefined;
}): MailMessage => ({
  ...composeMail({
    kind: mailKinds.supportRequestReceived,
    to: input.to,
    subject: `[${input.reference}] We received your request: ${input.subject}`,
    content: {
      preview: `Your support request ${input.reference} reached us. We reply to this address.`,
      heading: 'We received your support request',
      body: [
        { paragraph: input.name?.trim() ? `Hello ${input.name.trim()},` : 'Hello,' },
        {
          paragraph: `Thank you for writing to ${PRODUCT_NAME} support. Your request reached us, and we reply to this address. Quote ${input.reference} in anything you send about it.`,
        },
        {
          details: [
            { label: 'Reference', value: input.reference },
            { label: 'Topic', value: input.topic },
            { label: 'Subject', value: input.subject },
            { label: 'Sent', value: formatDateTime(input.sentAt) },
          ],
        },
        { paragraph: 'What you wrote:' },
        ...messageParagraphs(input.message),
      ],
      action: { label: 'See your requests', url: input.supportUrl },
      after: [
        {
          note: input.replyTo
            ? 'To add something, reply to this mail.'
            : 'To add something, send another request from the Support page and quote the reference.',
        },
      ],
    },
  }),
  ...(input.replyTo ? { replyTo: input.replyTo } : {}),
});
