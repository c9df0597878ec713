import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '../../../src/server/platform/db/database.js';
import {
  createPostgresDatabase,
  type DialectUnderTest,
  postgresSkipReason,
  TEST_POSTGRES_URL,
} from '../../support/databases.js';
import {
  killChildServers,
  freePort,
  type RunningServer,
  startChildServer,
  waitUntilHealthy,
} from '../../support/child-server.js';
import { readOutbox } from '../../support/outbox.js';
import { STRONG_PASSWORD, uniqueEmail, WEB_API_KEY } from '../../support/test-server.js';

// Sign-ups and password-reset requests under load, the server SIGKILLed at a random moment of
// each round and restarted on the same data: every request answered 2xx must have left its
// account and its mail behind, sent or still queued.

const ROUNDS = 3;
const CLIENTS = 6;

interface Acknowledged {
  signUps: string[];
  resetRequests: string[];
}

async function post(server: RunningServer, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': WEB_API_KEY },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/** One client: signs up new accounts and asks for reset links of acknowledged ones until the server dies. */
async function client(server: RunningServer, acknowledged: Acknowledged): Promise<void> {
  for (;;) {
    try {
      const email = uniqueEmail('crash');
      if ((await post(server, '/auth/register', { email, password: STRONG_PASSWORD })) === 202)
        acknowledged.signUps.push(email);
      const known = acknowledged.signUps[Math.floor(Math.random() * acknowledged.signUps.length)];
      if (known && (await post(server, '/auth/forgot-password', { email: known })) === 202)
        acknowledged.resetRequests.push(known);
    } catch {
      return; // the server was killed: whatever was not answered was not acknowledged
    }
  }
}

/** Resolves once `count` more sign-ups than `from` were acknowledged. */
async function acknowledgedBeyond(acknowledged: Acknowledged, from: number, count: number): Promise<void> {
  while (acknowledged.signUps.length < from + count) await sleep(10);
}

/** Queued mail the running worker can take now (not held by the claim of a killed process). */
async function dueMails(db: Db): Promise<number> {
  const now = new Date().toISOString();
  const { count } = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .executeTakeFirstOrThrow();
  return Number(count);
}

function defineCrashSuite(dialect: DialectUnderTest): void {
  const dirs: string[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  afterEach(killChildServers);
  afterAll(async () => {
    await dropDatabase?.();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged sign-up and reset request, and sends their mail, across SIGKILLs under load', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portal-crash-'));
    dirs.push(dataDir);
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      WEB_DIR: join(dataDir, 'no-web-build'),
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'silent',
      MAIL_POLL_INTERVAL_MS: '200',
    };
    if (dialect === 'postgres') {
      const database = await createPostgresDatabase();
      dropDatabase = database.drop;
      env['DATABASE_URL'] = database.url;
    }

    const acknowledged: Acknowledged = { signUps: [], resetRequests: [] };
    const killedAfter: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const server = startChildServer(env, await freePort());
      await waitUntilHealthy(server);
      const clients = Array.from({ length: CLIENTS }, () => client(server, acknowledged));
      // A random moment: after a few more acknowledged sign-ups, with other requests in flight.
      await acknowledgedBeyond(acknowledged, acknowledged.signUps.length, 3 + Math.floor(Math.random() * 8));
      await sleep(Math.random() * 150);
      killedAfter.push(acknowledged.signUps.length);
      server.child.kill('SIGKILL');
      await server.exited;
      await Promise.all(clients);
    }
    expect(acknowledged.resetRequests.length, 'the load asked for reset links too').toBeGreaterThan(0);

    // Restarted once more on the same data, the server sends what was queued when it died. Mail
    // the killed process had taken to send stays queued until its claim runs out: still queued,
    // not lost, and counted as such below.
    const last = startChildServer(env, await freePort());
    await waitUntilHealthy(last);
    const { db } = createDatabase({ databaseUrl: env['DATABASE_URL'], dataDir });
    try {
      const deadline = Date.now() + 120_000;
      while ((await dueMails(db)) > 0 && Date.now() < deadline) await sleep(200);
      // All that may be left is mail a killed process had taken: the restarted one sent the rest.
      expect(await dueMails(db), 'mail the restarted server could send but did not').toBe(0);
      last.child.kill('SIGTERM');
      await last.exited;

      const context = `killed after ${killedAfter.join(', ')} acknowledged sign-ups`;
      const accounts = new Set(
        (await db.selectFrom('users').select('email').execute()).map((row) => row.email),
      );
      expect(
        acknowledged.signUps.filter((email) => !accounts.has(email)),
        `lost accounts, ${context}`,
      ).toEqual([]);

      const mails = await readOutbox(join(dataDir, 'outbox'));
      const queued = await db
        .selectFrom('mail_outbox')
        .select(['recipient', 'kind', 'status'])
        .where('status', '!=', 'sent')
        .execute();
      expect(queued.filter((row) => row.status === 'failed')).toEqual([]);
      const sentOrQueued = (email: string, subject: RegExp, kind: string) =>
        mails.filter((mail) => mail.to.includes(email) && subject.test(mail.subject)).length +
        queued.filter((row) => row.status === 'pending' && row.recipient === email && row.kind === kind)
          .length;

      expect(
        acknowledged.signUps.filter((email) => sentOrQueued(email, /^Confirm your/, 'verification') === 0),
        `lost confirmation mails, ${context}`,
      ).toEqual([]);
      const resetsAsked = new Map<string, number>();
      for (const email of acknowledged.resetRequests)
        resetsAsked.set(email, (resetsAsked.get(email) ?? 0) + 1);
      expect(
        [...resetsAsked].filter(
          ([email, asked]) => sentOrQueued(email, /^Reset your/, 'password_reset') < asked,
        ),
        `lost reset mails, ${context}`,
      ).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
}

// Every round starts a real Node process and loads it; a busy machine needs the room.
const slow = { timeout: 300_000 };

describe('mail outbox under SIGKILL [sqlite]', slow, () => defineCrashSuite('sqlite'));
if (TEST_POSTGRES_URL)
  describe('mail outbox under SIGKILL [postgres]', slow, () => defineCrashSuite('postgres'));
else
  describe.skip(`mail outbox under SIGKILL [postgres: skipped, ${postgresSkipReason}]`, slow, () =>
    defineCrashSuite('postgres'),
  );
