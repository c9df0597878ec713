import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { insertMail, requeueFailedMails } from '../../../src/server/platform/mail/outbox-repository.js';
import { retryDelayMs } from '../../../src/server/platform/mail/outbox-worker.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import { createPostgresDatabase, postgresSkipReason, TEST_POSTGRES_URL } from '../../support/databases.js';
import { createTestClock } from '../../support/test-clock.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
  WEB_API_KEY,
} from '../../support/test-server.js';

const outboxRows = (s: TestServer, recipient: string) =>
  s.app.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', recipient).orderBy('id').execute();

const register = (app: FastifyInstance, email: string) =>
  app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/auth/register`,
    headers: { 'x-api-key': WEB_API_KEY },
    payload: { email, password: STRONG_PASSWORD },
  });

describeOnEveryDatabase('mail outbox', (server) => {
  it('answers a sign-up only once the account and its confirmation mail are committed', async () => {
    const s = server();
    const email = uniqueEmail('durable');
    // Straight through Fastify, without the helper that waits for the mail to be sent.
    const response = await register(s.app, email);
    expect(response.statusCode).toBe(202);
    const user = await s.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(user).toBeDefined();
    const [queued] = await outboxRows(s, email);
    expect(queued).toMatchObject({ kind: 'verification' });
  });

  it('signs up a taken address with the same three writes and tells the owner by mail', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const before = await s.app.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const response = await s.api({
      method: 'POST',
      path: '/auth/register',
      body: { email, password: 'another phrase for a taken address 9' },
    });
    expect(response.statusCode).toBe(202);
    const after = await s.app.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(after, 'a confirmed account is written back unchanged').toEqual(before);
    const events = await s.app.db
      .selectFrom('security_events')
      .select('type')
      .where('user_id', '=', before.id)
      .where('type', '=', 'sign_up_for_existing_account')
      .execute();
    expect(events).toHaveLength(1);
    expect((await s.lastMailTo(email)).subject).toMatch(/^You already have/);
  });

  it('queues nothing when the transaction of the change is rolled back', async () => {
    const s = server();
    const email = uniqueEmail('rolled-back');
    await expect(
      s.app.db.transaction().execute(async (trx) => {
        await insertMail(trx, s.clock, 'portal.test', { kind: 'test', to: email, subject: 'Hi', text: 'Hi' });
        throw new Error('the change fails after queueing its mail');
      }),
    ).rejects.toThrow('the change fails');
    expect(await outboxRows(s, email)).toEqual([]);
  });

  it('sends with the Message-ID fixed when the mail was queued, and records it as sent', async () => {
    const s = server();
    const email = uniqueEmail('message-id');
    await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
    const [row] = await outboxRows(s, email);
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 1,
      message_id: expect.stringMatching(/^<.+@portal\.test>$/),
      // Its link opens the account for a day: once sent, the queue forgets it.
      text_body: null,
      link: null,
    });
    const file = (await readdir(s.config.mail.outboxDir)).find((name) => name.startsWith(row!.id));
    expect(file, 'the .eml file is named after the queued mail').toBeDefined();
    const raw = await readFile(join(s.config.mail.outboxDir, file!), 'utf8');
    expect(raw).toMatch(new RegExp(`^Message-ID: ${row!.message_id}$`, 'mi'));
  });

  it('decides a reset mail when it is sent: a link for an account, nothing for an unknown address', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const unknown = uniqueEmail('nobody');
    for (const address of [email, unknown]) {
      const response = await s.api({
        method: 'POST',
        path: '/auth/forgot-password',
        body: { email: address },
      });
      expect(response.statusCode).toBe(202);
    }
    const [reset] = (await outboxRows(s, email)).filter((row) => row.kind === 'password_reset');
    expect(reset).toMatchObject({ status: 'sent', subject: expect.stringMatching(/^Reset your/) });
    expect(await outboxRows(s, unknown)).toMatchObject([
      { kind: 'password_reset', status: 'dropped', subject: null },
    ]);
    expect((await s.outbox()).filter((mail) => mail.to.includes(unknown))).toEqual([]);
  });
});

describeOnEveryDatabase(
  'mail outbox with a mail server that refuses connections',
  (server) => {
    it('retries with growing delays, then leaves the mail as failed until the operator queues it again', async () => {
      const s = server();
      // Stopped, so the delays read back are exactly the ones the worker chose.
      s.clock.freeze();
      const email = uniqueEmail('unreachable');
      await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
      const delays: number[] = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        const [row] = await outboxRows(s, email);
        expect(row).toMatchObject({ attempts: attempt, claimed_until: null, last_error: expect.any(String) });
        if (attempt < 3) {
          expect(row!.status).toBe('pending');
          const delay = Date.parse(row!.next_attempt_at) - s.clock.now().getTime();
          delays.push(delay);
          // Not due before its time: draining now sends nothing and counts no attempt.
          await s.app.mailOutbox.drain();
          expect((await outboxRows(s, email))[0]!.attempts).toBe(attempt);
          s.clock.advance(delay + 1000);
          await s.app.mailOutbox.drain();
        } else {
          expect(row!.status).toBe('failed');
        }
      }
      // What `npm run cli -- retry-mail` does once the mail server is fixed.
      expect(await requeueFailedMails(s.app.db, s.clock.now())).toBe(1);
      await s.app.mailOutbox.drain();
      expect((await outboxRows(s, email))[0]).toMatchObject({ status: 'pending', attempts: 1 });
      // 30 s then 60 s, each spread by at most ±20 %.
      expect(delays[0]).toBeGreaterThanOrEqual(24_000);
      expect(delays[0]).toBeLessThanOrEqual(36_000);
      expect(delays[1]).toBeGreaterThanOrEqual(48_000);
      expect(delays[1]).toBeLessThanOrEqual(72_000);
    });
  },
  // Nothing listens on the discard port of loopback: every attempt is refused at once.
  { env: { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_MAX_ATTEMPTS: '3' } },
);

describeOnEveryDatabase(
  'mail outbox wake-up',
  (server) => {
    it('sends queued mail as soon as its transaction commits, without waiting for the next poll', async () => {
      const s = server();
      const email = uniqueEmail('at-once');
      // Straight through Fastify: nothing here drains the queue, and the poll is ten minutes away.
      expect((await register(s.app, email)).statusCode).toBe(202);
      const deadline = Date.now() + 30_000;
      let status: string | undefined;
      while (Date.now() < deadline) {
        status = (await outboxRows(s, email))[0]?.status;
        if (status === 'sent') break;
        await new Promise((done) => setTimeout(done, 20));
      }
      expect(status).toBe('sent');
    });
  },
  { env: { MAIL_POLL_INTERVAL_MS: '600000' } },
);

describe('retry delays', () => {
  it('double from 30 s up to an hour, spread by ±20 %', () => {
    expect([1, 2, 3, 8, 9, 20].map((attempts) => retryDelayMs(attempts, () => 0.5))).toEqual([
      30_000, 60_000, 120_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
    expect(retryDelayMs(1, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, () => 1)).toBe(36_000);
  });
});

describe.skipIf(!TEST_POSTGRES_URL)(
  `mail outbox with two instances [postgres${TEST_POSTGRES_URL ? '' : `: skipped, ${postgresSkipReason}`}]`,
  () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('sends each queued mail once when two instances work the same queue at the same time', async () => {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      const dataDir = await mkdtemp(join(tmpdir(), 'portal-outbox-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(32).toString('base64url'),
        LOG_LEVEL: 'silent',
        WEB_DIR: join(dataDir, 'no-web-build'),
        PUBLIC_URL: 'http://portal.test',
      });
      const clock = createTestClock();
      const first = await buildApp(config, { clock, logger: false });
      cleanups.push(() => first.close());
      const second = await buildApp(config, { clock, logger: false });
      cleanups.push(() => second.close());

      const recipients = Array.from({ length: 60 }, () => uniqueEmail('two-instances'));
      await first.db.transaction().execute(async (trx) => {
        for (const to of recipients)
          await insertMail(trx, clock, 'portal.test', { kind: 'test', to, subject: 'Hello', text: 'Hello' });
      });
      await Promise.all([first.mailOutbox.drain(), second.mailOutbox.drain()]);

      const rows = await first.db.selectFrom('mail_outbox').select(['status', 'attempts']).execute();
      expect(rows).toHaveLength(60);
      // A mail taken by both instances would have counted two attempts.
      expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
      expect((await readdir(config.mail.outboxDir)).filter((name) => name.endsWith('.eml'))).toHaveLength(60);
    });
  },
);
