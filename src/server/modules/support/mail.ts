import { composeMail } from '../../mail/compose.js';
import { formatDateTime } from '../../mail/formatting.js';
import type { MailMessage } from '../../mail/message.js';
import { mailKinds } from '../../mail/templates.js';

export const DIAGNOSTICS_FILENAME = 'app-and-account-information.txt';

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
        ...input.message
          .split(/\n{2,}/)
          .map((paragraph) => paragraph.trim())
          .filter(Boolean)
          .map((paragraph) => ({ paragraph })),
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
