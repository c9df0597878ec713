import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import type { Clock } from '../../../src/server/platform/clock.js';
import { insertMail } from '../../../src/server/platform/mail/outbox-repository.js';
import { startMaintenance } from '../../../src/server/platform/maintenance.js';
import { expiredRowPrunes, pruneExpiredRows } from '../../../src/server/pruning.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';
import { userByEmail } from '../helpers/auth-helpers.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** An ISO timestamp this far from the server's clock (negative = in the past). */
const at = (s: TestServer, offsetMs: number) => new Date(s.clock.now().getTime() + offsetMs).toISOString();

async function addThrottle(s: TestServer, firstFailureMs: number, lockedUntilMs: number | null) {
  const key = `prune-${randomUUID()}@example.com|192.0.2.1`;
  await s.app.db
    .insertInto('login_throttles')
    .values({
      key,
      failures: 3,
      first_failure_at: at(s, firstFailureMs),
      locked_until: lockedUntilMs === null ? null : at(s, lockedUntilMs),
    })
    .execute();
  return key;
}

async function addEmailToken(s: TestServer, userId: string, expiresMs: number, usedMs: number | null) {
  const id = randomUUID();
  await s.app.db
    .insertInto('email_tokens')
    .values({
      id,
      user_id: userId,
      purpose: 'reset_password',
      token_hash: `hash-${id}`,
      created_at: at(s, expiresMs - 60 * MINUTE_MS),
      expires_at: at(s, expiresMs),
      used_at: usedMs === null ? null : at(s, usedMs),
    })
    .execute();
  return id;
}

async function addChallenge(s: TestServer, expiresMs: number) {
  const id = randomUUID();
  await s.app.db
    .insertInto('auth_challenges')
    .values({
      id,
      kind: 'passkey_sign_in',
      user_id: null,
      token_hash: `hash-${id}`,
      webauthn_challenge: `challenge-${id}`,
      created_at: at(s, expiresMs - 5 * MINUTE_MS),
      expires_at: at(s, expiresMs),
      used_at: null,
    })
    .execute();
  return id;
}

/** Resolves after `count` ticks of an interval of `periodMs` started now. */
const ticksOf = (periodMs: number, count: number) =>
  new Promise<void>((resolve) => {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
      if (ticks < count) return;
      clearInterval(timer);
      resolve();
    }, periodMs);
  });

const remainingThrottles = async (s: TestServer, keys: readonly string[]) =>
  (await s.app.db.selectFrom('login_throttles').select('key').where('key', 'in', keys).execute()).map(
    (row) => row.key,
  );

describeOnEveryDatabase('maintenance: pruning expired rows', (server) => {
  it('deletes sign-in counts whose window and lock are over and keeps live ones', async () => {
    const s = server();
    const window = s.config.lockout.minutes * MINUTE_MS;
    const stale = await addThrottle(s, -window - MINUTE_MS, null);
    const lockOver = await addThrottle(s, -2 * window, -MINUTE_MS);
    const counting = await addThrottle(s, -window + MINUTE_MS, null);
    const locked = await addThrottle(s, -2 * window, MINUTE_MS);
    // A lock outlives its counting window: the row stays until the lock is over too.
    const lockedPastWindow = await addThrottle(s, -window - MINUTE_MS, 5 * MINUTE_MS);

    const pruned = await pruneExpiredRows(s.app.db, s.clock, s.config);

    expect(pruned.loginThrottles).toBeGreaterThanOrEqual(2);
    expect(
      (await remainingThrottles(s, [stale, lockOver, counting, locked, lockedPastWindow])).sort(),
    ).toEqual([counting, locked, lockedPastWindow].sort());
  });

  it('deletes e-mail tokens used or expired over 7 days ago and keeps the rest', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const user = await userByEmail(s, email);
    const usedLongAgo = await addEmailToken(s, user.id, -7 * DAY_MS, -8 * DAY_MS);
    const expiredLongAgo = await addEmailToken(s, user.id, -8 * DAY_MS, null);
    const usedLately = await addEmailToken(s, user.id, 30 * MINUTE_MS, -6 * DAY_MS);
    const expiredLately = await addEmailToken(s, user.id, -6 * DAY_MS, null);
    const live = await addEmailToken(s, user.id, 30 * MINUTE_MS, null);

    const pruned = await pruneExpiredRows(s.app.db, s.clock, s.config);

    expect(pruned.emailTokens).toBeGreaterThanOrEqual(2);
    const ids = [usedLongAgo, expiredLongAgo, usedLately, expiredLately, live];
    const remaining = await s.app.db.selectFrom('email_tokens').select('id').where('id', 'in', ids).execute();
    expect(remaining.map((row) => row.id).sort()).toEqual([usedLately, expiredLately, live].sort());
  });

  it('deletes mail sent or dropped over 7 days ago and keeps failed and recent mail', async () => {
    const s = server();
    const sentLongAgo = uniqueEmail('sent-long-ago');
    const droppedLongAgo = uniqueEmail('nobody-long-ago');
    const failedLongAgo = uniqueEmail('failed-long-ago');
    await s.api({
      method: 'POST',
      path: '/auth/register',
      body: { email: sentLongAgo, password: STRONG_PASSWORD },
    });
    await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email: droppedLongAgo } });
    await insertMail(s.app.db, s.clock, 'portal.test', {
      kind: 'test',
      to: failedLongAgo,
      subject: 'Hi',
      text: 'Hi',
    });
    await s.app.db
      .updateTable('mail_outbox')
      .set({ status: 'failed' })
      .where('recipient', '=', failedLongAgo)
      .execute();
    s.clock.advance(7 * DAY_MS + MINUTE_MS);
    const sentLately = uniqueEmail('sent-lately');
    await s.api({
      method: 'POST',
      path: '/auth/register',
      body: { email: sentLately, password: STRONG_PASSWORD },
    });

    const pruned = await pruneExpiredRows(s.app.db, s.clock, s.config);

    expect(pruned.mails).toBeGreaterThanOrEqual(2);
    const recipients = [sentLongAgo, droppedLongAgo, failedLongAgo, sentLately];
    const remaining = await s.app.db
      .selectFrom('mail_outbox')
      .select('recipient')
      .where('recipient', 'in', recipients)
      .execute();
    expect(remaining.map((row) => row.recipient).sort()).toEqual([failedLongAgo, sentLately].sort());
  });

  it('deletes sessions ended over RETENTION_SESSIONS_DAYS ago with their tokens, and keeps live and lately ended ones', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const user = await userByEmail(s, email);
    const signedOutLongAgo = await s.login(email, password);
    await s.api({
      method: 'POST',
      path: '/auth/logout',
      body: { refreshToken: signedOutLongAgo.refresh_token },
    });
    s.clock.advance(s.config.retention.sessionsDays * DAY_MS + MINUTE_MS);
    const signedOutLately = await s.login(email, password);
    await s.api({
      method: 'POST',
      path: '/auth/logout',
      body: { refreshToken: signedOutLately.refresh_token },
    });
    const live = await s.login(email, password);
    const sessionsOf = async () =>
      (
        await s.app.db
          .selectFrom('refresh_token_families')
          .select('id')
          .where('user_id', '=', user.id)
          .execute()
      ).length;
    const before = await sessionsOf();

    const pruned = await pruneExpiredRows(s.app.db, s.clock, s.config);

    expect(pruned.endedSessions).toBeGreaterThanOrEqual(1);
    expect(await sessionsOf()).toBe(before - 1);
    const orphanTokens = await s.app.db
      .selectFrom('refresh_tokens')
      .leftJoin('refresh_token_families as family', 'family.id', 'refresh_tokens.family_id')
      .select('refresh_tokens.id')
      .where('family.id', 'is', null)
      .execute();
    expect(orphanTokens).toEqual([]);
    // The live session still refreshes; the lately ended one still says why it ended.
    expect(
      (await s.api({ method: 'POST', path: '/auth/refresh', body: { refresh_token: live.refresh_token } }))
        .statusCode,
    ).toBe(200);
    const ended = await s.api({
      method: 'POST',
      path: '/auth/refresh',
      body: { refresh_token: signedOutLately.refresh_token },
    });
    expect(ended.json<{ reason?: string }>().reason).toBe('signed_out');
  });

  it('deletes security events older than RETENTION_SECURITY_EVENTS_DAYS and keeps newer ones', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const user = await userByEmail(s, email);
    const eventsOf = () =>
      s.app.db.selectFrom('security_events').select('type').where('user_id', '=', user.id).execute();
    const early = (await eventsOf()).length;
    expect(early).toBeGreaterThan(0);
    s.clock.advance(s.config.retention.securityEventsDays * DAY_MS + MINUTE_MS);
    await s.login(email, password);
    const newer = (await eventsOf()).length - early;

    const pruned = await pruneExpiredRows(s.app.db, s.clock, s.config);

    expect(pruned.securityEvents).toBeGreaterThanOrEqual(early);
    expect((await eventsOf()).length).toBe(newer);
  });

  it('deletes sign-in and passkey challenges once expired and keeps live ones', async () => {
    const s = server();
    const expired = await addChallenge(s, -MINUTE_MS);
    const live = await addChallenge(s, MINUTE_MS);

    const pruned = await pruneExpiredRows(s.app.db, s.clock, s.config);

    expect(pruned.authChallenges).toBeGreaterThanOrEqual(1);
    const remaining = await s.app.db
      .selectFrom('auth_challenges')
      .select('id')
      .where('id', 'in', [expired, live])
      .execute();
    expect(remaining.map((row) => row.id)).toEqual([live]);
  });

  it('prunes the counts that real sign-ins leave, once their window is over', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const address = '192.0.2.77';
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await s.api({
        method: 'POST',
        path: '/auth/login/json',
        body: { email, password: 'a wrong password here' },
        remoteAddress: address,
      });
    }
    s.clock.advance(s.config.lockout.minutes * MINUTE_MS + MINUTE_MS);
    await pruneExpiredRows(s.app.db, s.clock, s.config);
    const rows = await s.app.db
      .selectFrom('login_throttles')
      .select('key')
      .where('key', 'like', `${email}|%`)
      .execute();
    expect(rows).toEqual([]);
    const next = await s.api({
      method: 'POST',
      path: '/auth/login/json',
      body: { email, password: 'a wrong password here' },
      remoteAddress: address,
    });
    expect(next.statusCode).toBe(401);
  });

  it('runs on a timer once started and stops when the server closes', async () => {
    const INTERVAL_MS = 20;
    const s = server();
    let runs = 0;
    // Every run reads the clock first, so its reads count the runs.
    const countingClock: Clock = {
      now: () => {
        runs += 1;
        return s.clock.now();
      },
    };
    const host = Fastify({ logger: false });
    startMaintenance(host, s.app.db, countingClock, {
      prunes: expiredRowPrunes(s.config),
      intervalMs: INTERVAL_MS,
      firstRunDelayMs: 0,
    });
    const stale = await addThrottle(s, -2 * s.config.lockout.minutes * MINUTE_MS, null);

    await expect.poll(() => remainingThrottles(s, [stale]), { timeout: 5000 }).toEqual([]);
    await host.close();
    const runsAtClose = runs;
    // Wait for what would run it again, not for a guessed time: ticks of the same period, started
    // after the close. Node fires timers of one period in the order they were scheduled, so a
    // maintenance tick still scheduled would fire (and run, reading the clock) before each of them.
    await ticksOf(INTERVAL_MS, 3);
    expect(runs).toBe(runsAtClose);
  });
});
