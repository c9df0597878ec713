import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { BackgroundWork } from '../background-work.js';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The link the mail is about, logged when mail goes to the outbox so a local user can follow it. */
  link?: string;
}

/** Sends mail in the background: answers never wait for (or reveal, by their timing) a delivery. */
export interface Mailer {
  send(message: MailMessage): void;
}

const fileSafe = (text: string) => text.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);

export function createMailer(
  config: Config['mail'],
  log: FastifyBaseLogger,
  background: BackgroundWork,
): Mailer {
  const toOutbox = !config.smtpUrl;
  const transport = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;

  async function deliver(message: MailMessage): Promise<void> {
    const info = await transport.sendMail({
      from: config.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
    if (!toOutbox) return;
    await mkdir(config.outboxDir, { recursive: true });
    sequence += 1;
    // Zero-padded so file names sort in the order the mails were written.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(sequence).padStart(6, '0')}-${fileSafe(message.to)}.eml`;
    const file = join(config.outboxDir, name);
    await writeFile(file, info.message as Buffer);
    log.info(
      { to: message.to, subject: message.subject, file, link: message.link },
      'mail written to outbox',
    );
  }

  return {
    send: (message) => background.run(`mail to ${message.to}`, () => deliver(message)),
  };
}
