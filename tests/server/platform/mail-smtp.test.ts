import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { composeMail } from '../../../src/server/platform/mail/compose.js';
import { parseMail, tokenFromMail } from '../../support/outbox.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';

// The mail worker against a real SMTP server on loopback (smtp-server, from the makers of
// nodemailer): the bytes a mail provider would receive, and what a refusal from it does.

interface ReceivedMail {
  recipients: string[];
  raw: string;
}

const received: ReceivedMail[] = [];
let refusalsToGive = 0;

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      if (refusalsToGive > 0) {
        refusalsToGive -= 1;
        callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        return;
      }
      received.push({
        recipients: session.envelope.rcptTo.map((recipient) => recipient.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      callback();
    });
  },
});
await new Promise<void>((done) => smtp.listen(0, '127.0.0.1', done));
const smtpPort = (smtp.server.address() as AddressInfo).port;
afterAll(() => new Promise<void>((done) => smtp.close(done)));

const receivedBy = (email: string) => received.filter((mail) => mail.recipients.includes(email));
const rowsTo = (s: TestServer, email: string) =>
  s.app.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).execute();

describeOnEveryDatabase(
  'mail over SMTP',
  (server) => {
    beforeEach(() => {
      refusalsToGive = 0;
    });

    it('delivers the confirmation mail with the queued Message-ID, the sender and a link that confirms', async () => {
      const s = server();
      const email = uniqueEmail('smtp');
      await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
      const [mail] = receivedBy(email);
      expect(mail, 'one mail reached the SMTP server').toBeDefined();
      const parsed = await parseMail(mail!.raw);
      const [row] = await rowsTo(s, email);
      expect(parsed.headers.get('message-id')).toBe(row!.message_id);
      expect(parsed.headers.get('from')).toBe('Portal <portal@example.com>');
      expect(parsed.subject).toMatch(/^Confirm your/);
      const token = tokenFromMail(parsed);
      const verified = await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token } });
      expect(verified.statusCode).toBe(200);
    });

    it('tries again after the mail server refuses for now, and the retry carries the same Message-ID', async () => {
      const s = server();
      const email = uniqueEmail('smtp-retry');
      // Made directly: the helper that signs up reads the file outbox, which SMTP bypasses.
      await s.app.authService.createAccount({
        email,
        password: STRONG_PASSWORD,
        role: 'user',
        verified: true,
      });
      const before = receivedBy(email).length;
      refusalsToGive = 1;
      await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
      const [reset] = (await rowsTo(s, email)).filter((row) => row.kind === 'password_reset');
      expect(reset).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: expect.stringContaining('451'),
      });
      expect(receivedBy(email)).toHaveLength(before);

      s.clock.advance(Date.parse(reset!.next_attempt_at) - s.clock.now().getTime() + 1000);
      await s.app.mailOutbox.drain();
      const delivered = receivedBy(email).slice(before);
      expect(delivered).toHaveLength(1);
      expect((await parseMail(delivered[0]!.raw)).headers.get('message-id')).toBe(reset!.message_id);
      expect((await rowsTo(s, email)).find((row) => row.id === reset!.id)).toMatchObject({
        status: 'sent',
        attempts: 2,
        last_error: null,
      });
    });

    it('delivers both parts, the files and the one-click unsubscribe headers to the mail server', async () => {
      const s = server();
      const email = uniqueEmail('smtp-parts');
      const file = Buffer.from(Array.from({ length: 700 }, (_, index) => (index * 7) % 256));
      s.app.mailer.registerAttachmentResolver('smtp_test_file', async () => file);
      const unsubscribeUrl = s.app.mailer.unsubscribeUrl('some-user', 'billing');
      await s.app.db.transaction().execute((trx) =>
        s.app.mailer.queue(
          trx,
          composeMail({
            kind: 'smtp_test',
            to: email,
            subject: 'Parts <and> files',
            content: {
              preview: 'Parts',
              heading: 'Parts',
              body: [{ paragraph: 'Hello <b>there</b>' }],
              action: { label: 'Open', url: 'http://portal.test/billing?x=1&y=2' },
            },
            unsubscribe: { url: unsubscribeUrl, reason: 'Because billing reminders are on.' },
            attachments: [
              {
                filename: 'a.bin',
                contentType: 'application/octet-stream',
                ref: { kind: 'smtp_test_file', id: '1' },
              },
            ],
          }),
        ),
      );
      await s.app.mailOutbox.drain();
      const [mail] = receivedBy(email);
      expect(mail, 'the mail reached the SMTP server').toBeDefined();
      expect(mail!.raw).toMatch(/^Content-Type: multipart\/alternative;\s+boundary=/m);
      expect(mail!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      const parsed = await parseMail(mail!.raw);
      expect(parsed.headers.get('list-unsubscribe')).toBe(`<${unsubscribeUrl}>`);
      expect(parsed.text).toContain('Hello <b>there</b>');
      expect(parsed.text).toContain('http://portal.test/billing?x=1&y=2');
      expect(parsed.html).toContain('Hello &lt;b&gt;there&lt;/b&gt;');
      expect(parsed.html).toContain('href="http://portal.test/billing?x=1&amp;y=2"');
      expect(parsed.attachments).toHaveLength(1);
      expect(parsed.attachments[0]!.content.equals(file)).toBe(true);
    });
  },
  { env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'Portal <portal@example.com>' } },
);
