import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import {
  createPostgresDatabase,
  type DialectUnderTest,
  postgresSkipReason,
  TEST_POSTGRES_URL,
} from '../../support/databases.js';
import { readOutbox } from '../../support/outbox.js';
import { createTestClock } from '../../support/test-clock.js';
import { STRONG_PASSWORD, uniqueEmail, WEB_API_KEY } from '../../support/test-server.js';

// The app stopped while it builds an export, then started again on the same database: the archive
// completes. Two apps one after the other on one database, as a restart is.

const exportOf = async (app: FastifyInstance, userId: string) =>
  app.db.selectFrom('data_exports').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();

function defineRestart(dialect: DialectUnderTest) {
  it(`completes an export whose server stopped while building it [${dialect}]`, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'export-restart-'));
    const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      WEB_DIR: join(dataDir, 'no-web-build'),
      PUBLIC_URL: 'http://portal.test',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    });
    const clock = createTestClock();
    let second: FastifyInstance | undefined;
    try {
      const first = await buildApp(config, { clock, logger: false });
      const email = uniqueEmail('restart');
      const user = await first.authService.createAccount({
        email,
        password: STRONG_PASSWORD,
        role: 'user',
        verified: true,
      });
      const login = await first.inject({
        method: 'POST',
        url: `${API_BASE_PATH}/auth/login/json`,
        headers: { 'x-api-key': WEB_API_KEY },
        payload: { email, password: STRONG_PASSWORD },
      });
      const token = login.json<{ access_token: string }>().access_token;
      const call = async (method: 'GET' | 'POST', path: string, payload?: object) => {
        const response = await first.inject({
          method,
          url: `${API_BASE_PATH}${path}`,
          headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${token}` },
          ...(payload ? { payload } : {}),
        });
        expect(response.statusCode, response.body).toBeLessThan(300);
        return response.json<Record<string, unknown>>();
      };
      // Bought twice: the archive has invoice PDFs to render, which takes the build a while.
      const plans = (await call('GET', '/plans/public')) as unknown as { id: string; code: string }[];
      for (const code of ['pro-monthly', 'pro-yearly']) {
        const checkout = await call('POST', '/subscriptions', {
          plan_id: plans.find((plan) => plan.code === code)?.id,
        });
        const paid = await call(
          'POST',
          `/payments/sandbox/subscriptions/${String(checkout.subscription_id)}/complete`,
          {
            outcome: 'pay',
          },
        );
        await call('POST', '/subscriptions/verify', paid);
      }
      const asked = await first.inject({
        method: 'POST',
        url: `${API_BASE_PATH}/users/me/data-export`,
        headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${token}` },
      });
      expect(asked.statusCode, asked.body).toBe(202);

      // The build starts; the server stops once its first part is written (the account's).
      const run = first.scheduler.runOnce();
      for (let waited = 0; waited < 5000; waited += 2) {
        const row = await exportOf(first, user.id);
        if (row.progress > 0 || row.status === 'ready') break;
        await new Promise((done) => setTimeout(done, 2));
      }
      await first.close();
      await run;

      second = await buildApp(config, { clock, logger: false });
      const stopped = await exportOf(second, user.id);
      // Stopped mid-way it was handed back (queued, its attempt not counted); or it had just finished.
      expect(['queued', 'ready']).toContain(stopped.status);
      if (stopped.status === 'queued') expect(stopped).toMatchObject({ claimed_until: null, attempts: 0 });
      await second.scheduler.runOnce();
      const made = await exportOf(second, user.id);
      expect(made).toMatchObject({ status: 'ready', progress: 100 });
      await second.mailOutbox.drain();
      const mail = (await readOutbox(config.mail.outboxDir)).find(
        (sent) => sent.to.includes(email) && sent.subject.includes('data export is ready'),
      );
      const link = /\/api\/v1(\/data-exports\/[A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
      expect(link, mail?.text).toBeDefined();
      const download = await second.inject({ method: 'GET', url: `${API_BASE_PATH}${link!}` });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    } finally {
      await second?.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
}

describe('a data export across a restart', () => {
  defineRestart('sqlite');
  if (TEST_POSTGRES_URL) defineRestart('postgres');
  else it.skip(`[postgres: skipped, ${postgresSkipReason}]`, () => undefined);
});
