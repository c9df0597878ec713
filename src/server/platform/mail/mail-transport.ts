import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { ResolvedAttachment } from './attachments.js';
import type { MailMessage } from './message.js';

/** A queued mail with its content decided and its files resolved, as the worker hands it to a transport. */
export interface OutgoingMail extends Omit<MailMessage, 'attachments'> {
  /** The queue id, which also names the mail's file in the outbox folder. */
  id: string;
  messageId: string;
  attachments: ResolvedAttachment[];
  /** The request that queued it, sent as X-Request-Id, so a mail can be traced to its request's log. */
  requestId: string | null;
}

export interface MailTransport {
  /** Resolves once the mail server (or the outbox folder) has the mail; rejects to be retried. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

// Each wait of an SMTP conversation is bounded, so a mail server that stops answering fails the
// attempt (to be retried) well within the worker's claim on the mail.
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

const fileSafe = (text: string) => text.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);

/**
 * SMTP when `SMTP_URL` is set; otherwise each mail becomes an .eml file in the outbox folder,
 * named after its queue id: files list in queue order, and a mail sent again after a crash
 * replaces its own file instead of adding a copy.
 */
export function createMailTransport(config: Config['mail'], log: FastifyBaseLogger): MailTransport {
  const smtp = config.smtpUrl !== undefined;
  const transport = config.smtpUrl
    ? nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  return {
    async send(mail) {
      const info = await transport.sendMail({
        from: config.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        // With both, nodemailer writes multipart/alternative: text first, HTML preferred.
        ...(mail.html === undefined ? {} : { html: mail.html }),
        messageId: mail.messageId,
        ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
        attachments: mail.attachments.map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          content: Buffer.from(file.content),
        })),
        // One-click unsubscribe (RFC 8058): mail providers show their own button and POST to it.
        ...(mail.unsubscribeUrl === undefined ? {} : { list: { unsubscribe: mail.unsubscribeUrl } }),
        headers: {
          ...(mail.unsubscribeUrl === undefined
            ? {}
            : { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }),
          ...(mail.requestId ? { 'X-Request-Id': mail.requestId } : {}),
        },
      });
      if (smtp) return;
      await mkdir(config.outboxDir, { recursive: true, mode: 0o700 });
      const file = join(config.outboxDir, `${mail.id}-${fileSafe(mail.to)}.eml`);
      // Written aside and renamed, so a reader never meets half a mail.
      const partial = `${file}.partial`;
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, file);
      log.info({ to: mail.to, subject: mail.subject, file, link: mail.link }, 'mail written to outbox');
    },
    close: () => transport.close(),
  };
}
