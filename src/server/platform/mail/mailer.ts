import type { Clock } from '../clock.js';
import type { DbOrTransaction, DialectName } from '../db/database.js';
import type { AttachmentResolver, AttachmentResolvers } from './attachments.js';
import type { MailMessage, MailRequest } from './message.js';
import { insertMail, insertMailRequest } from './outbox-repository.js';
import { notifyQueuedMail } from './queued-mail-notifications.js';
import type { NotificationPreference, UnsubscribeLinks } from './unsubscribe.js';

/**
 * How services send mail: by queueing it in their own transaction, so a mail exists if and only
 * if the change that causes it was committed. The outbox worker sends it afterwards; answers
 * never wait for (or reveal, by their timing) a delivery.
 */
export interface Mailer {
  /** Queues a mail with its parts already made (the templates render them), attachments included. */
  queue(trx: DbOrTransaction, message: MailMessage): Promise<void>;
  /** Queues a mail whose content the worker decides later (see {@link MailRequest}). */
  queueRequest(trx: DbOrTransaction, request: MailRequest): Promise<void>;
  /**
   * Says how the worker turns attachment references of `kind` into bytes when it sends the
   * mail. Register when the app is built; a mail whose reference has no resolver is not sent
   * (its attempts fail and are retried), never sent without the file.
   */
  registerAttachmentResolver(kind: string, resolver: AttachmentResolver): void;
  /** The signed link that turns `preference` off for the user: give it to an optional mail's template. */
  unsubscribeUrl(userId: string, preference: NotificationPreference): string;
}

/**
 * Tells the workers about the mail once its transaction commits. On PostgreSQL a NOTIFY in the
 * transaction does exactly that, for every instance. SQLite commits synchronously once the
 * transaction's callback returns, so waking the local worker on the next turn of the event loop
 * finds the mail; the poll covers the rare miss.
 */
export function createMailer(deps: {
  clock: Clock;
  publicUrl: string;
  dialect: DialectName;
  wake: () => void;
  attachments: AttachmentResolvers;
  unsubscribeLinks: UnsubscribeLinks;
}): Mailer {
  const { clock, dialect, wake } = deps;
  // Message-IDs name the portal's own host, as mail servers expect of the sender.
  const messageIdDomain = new URL(deps.publicUrl).hostname;
  const announce = async (trx: DbOrTransaction) => {
    if (dialect === 'postgres') await notifyQueuedMail(trx);
    else setImmediate(wake);
  };
  return {
    async queue(trx, message) {
      await insertMail(trx, clock, messageIdDomain, message);
      await announce(trx);
    },
    async queueRequest(trx, request) {
      await insertMailRequest(trx, clock, messageIdDomain, request);
      await announce(trx);
    },
    registerAttachmentResolver: (kind, resolver) => deps.attachments.register(kind, resolver),
    unsubscribeUrl: (userId, preference) => deps.unsubscribeLinks.url(userId, preference),
  };
}
