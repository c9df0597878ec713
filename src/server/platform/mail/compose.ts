import { type MailContent, type MailUnsubscribe, renderMailText } from './content.js';
import { renderMailHtml } from './layout.js';
import { type MailI18n, mailI18n } from './mail-i18n.js';
import type { MailAttachment, MailMessage } from './message.js';

export interface ComposedMail {
  kind: string;
  to: string;
  subject: string;
  content: MailContent;
  /** The link the mail is about (logged with the file outbox); defaults to the action's URL. */
  link?: string;
  /** Optional mail only: why it came and the link that stops it. Transactional mail has none. */
  unsubscribe?: MailUnsubscribe;
  attachments?: MailAttachment[];
  /**
   * The recipient's language, which wrote the words above (`mailI18n(preference)`): the layout's
   * own words follow it. English when absent (mail to an address without an account).
   */
  i18n?: MailI18n;
}

/**
 * Makes both parts of a mail from what it says, once, when it is queued (or when a deferred
 * request is prepared): the worker sends the stored parts and never renders.
 */
export function composeMail(mail: ComposedMail): MailMessage {
  const link = mail.link ?? mail.content.action?.url;
  const i18n = mail.i18n ?? mailI18n();
  return {
    kind: mail.kind,
    to: mail.to,
    subject: mail.subject,
    text: renderMailText(i18n, mail.content, mail.unsubscribe),
    html: renderMailHtml(i18n, mail.content, mail.unsubscribe),
    ...(link === undefined ? {} : { link }),
    ...(mail.unsubscribe ? { unsubscribeUrl: mail.unsubscribe.url } : {}),
    ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
  };
}
