import type { Clock } from '../clock.js';
import type { DbOrTransaction } from '../db/database.js';
import type { MailMessage, MailRequest } from './message.js';
import { insertMail, insertMailRequest } from './outbox-repository.js';

/**
 * How services send mail: by queueing it in their own transaction, so a mail exists if and only
 * if the change that causes it was committed. The outbox worker sends it afterwards; answers
 * never wait for (or reveal, by their timing) a delivery.
 */
export interface Mailer {
  queue(trx: DbOrTransaction, message: MailMessage): Promise<void>;
  /** Queues a mail whose content the worker decides later (see {@link MailRequest}). */
  queueRequest(trx: DbOrTransaction, request: MailRequest): Promise<void>;
}

/**
 * `wake` tells the local worker to look soon. It runs on the next turn of the event loop, which
 * is usually after the caller's commit; if it comes too early, the next poll finds the mail.
 */
export function createMailer(clock: Clock, publicUrl: string, wake: () => void): Mailer {
  // Message-IDs name the portal's own host, as mail servers expect of the sender.
  const messageIdDomain = new URL(publicUrl).hostname;
  const wakeSoon = () => setImmediate(wake);
  return {
    async queue(trx, message) {
      await insertMail(trx, clock, messageIdDomain, message);
      wakeSoon();
    },
    async queueRequest(trx, request) {
      await insertMailRequest(trx, clock, messageIdDomain, request);
      wakeSoon();
    },
  };
}
