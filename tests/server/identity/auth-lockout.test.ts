import { expect, it } from 'vitest';
import { tokenFromMail } from '../../support/outbox.js';
import { STRONG_PASSWORD, type TestServer, uniqueEmail } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import {
  expectApiError,
  expectTokens,
  loginJson,
  securityEvents,
  userByEmail,
} from '../helpers/auth-helpers.js';

const LOCK_MS = 15 * 60 * 1000;
const WRONG = 'definitely not the password';

const ACCOUNT_THRESHOLD = 20;
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

let addressSequence = 0;
/** A client address of its own for each use, so lockouts never leak between tests. */
const freshAddress = () => {
  addressSequence += 1;
  return `10.0.${Math.floor(addressSequence / 250)}.${(addressSequence % 250) + 1}`;
};
const freshAddresses = (count: number) => Array.from({ length: count }, freshAddress);
const statusCounts = (responses: readonly { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>((counts, { statusCode }) => {
    counts[statusCode] = (counts[statusCode] ?? 0) + 1;
    return counts;
  }, {});
const detailsOf = (event: { details: string | null }) =>
  JSON.parse(event.details ?? '{}') as Record<string, unknown>;

describeIdentity('auth: sign-in lockout', (server) => {
  it('locks the (account, address) pair after 5 wrong passwords, for 15 minutes, without locking out the owner elsewhere', async () => {
    const s = server();
    // Stepping to just short of the lock's end must not depend on how long the sign-ins took.
    s.clock.freeze();
    const { email, password } = await s.createVerifiedUser();
    const attacker = freshAddress();
    const owner = freshAddress();

    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expectApiError(await loginJson(s, email, WRONG, attacker), 401, 'invalid_credentials');
    }
    const fifth = await loginJson(s, email, WRONG, attacker);
    const locked = expectApiError(fifth, 429, 'account_locked');
    expect(locked.message).toMatch(/15 minutes/);
    const retryAfter = Number(fifth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(15 * 60 - 5);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Even the right password is refused from the locked address, before any password check.
    const correctButLocked = await loginJson(s, email, password, attacker);
    expectApiError(correctButLocked, 429, 'account_locked');
    expect(Number(correctButLocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(correctButLocked.headers['retry-after'])).toBeLessThanOrEqual(retryAfter);

    // The owner, elsewhere, is not locked out.
    expectTokens(await loginJson(s, email, password, owner));

    const user = await userByEmail(s, email);
    const lockEvents = await securityEvents(s, { type: 'account_locked', userId: user.id });
    expect(lockEvents).toHaveLength(1);
    expect(lockEvents[0]).toMatchObject({ ip: attacker, severity: 'warning' });
    expect(JSON.parse(lockEvents[0]!.details ?? '{}')).toMatchObject({ email });
    expect(await securityEvents(s, { type: 'login_failed', userId: user.id, ip: attacker })).toHaveLength(5);

    // One second short of the end it is still locked; once it is over, the right password works.
    s.clock.advance(LOCK_MS - 2000);
    expectApiError(await loginJson(s, email, password, attacker), 429, 'account_locked');
    s.clock.advance(3000);
    expectTokens(await loginJson(s, email, password, attacker));
  });

  it('starts counting again after the lock is over: one more wrong password is a 401, not a new lock', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const address = freshAddress();
    for (let attempt = 1; attempt <= 5; attempt += 1) await loginJson(s, email, WRONG, address);
    expectApiError(await loginJson(s, email, WRONG, address), 429, 'account_locked');

    s.clock.advance(LOCK_MS + 1000);
    expectApiError(await loginJson(s, email, WRONG, address), 401, 'invalid_credentials');
  });

  it('locks unknown accounts alike, so the lockout does not reveal which addresses exist', async () => {
    const s = server();
    const address = freshAddress();
    const ghost = uniqueEmail('ghost');
    const answers = [];
    for (let attempt = 1; attempt <= 5; attempt += 1) answers.push(await loginJson(s, ghost, WRONG, address));
    expect(answers.slice(0, 4).map((answer) => answer.statusCode)).toEqual([401, 401, 401, 401]);
    expectApiError(answers[4]!, 429, 'account_locked');
    expect(answers[4]!.headers['retry-after']).toBeDefined();
    const events = await securityEvents(s, { type: 'account_locked', ip: address });
    expect(events).toHaveLength(1);
    expect(events[0]?.user_id).toBeNull();
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const address = freshAddress();
    for (let attempt = 1; attempt <= 4; attempt += 1) await loginJson(s, email, WRONG, address);
    expectTokens(await loginJson(s, email, password, address));
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expectApiError(await loginJson(s, email, WRONG, address), 401, 'invalid_credentials');
    }
  });

  it('forgets failures older than the 15-minute window', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const address = freshAddress();
    for (let attempt = 1; attempt <= 4; attempt += 1) await loginJson(s, email, WRONG, address);
    s.clock.advance(LOCK_MS + 1000);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expectApiError(await loginJson(s, email, WRONG, address), 401, 'invalid_credentials');
    }
  });

  it('is lifted by a password reset, for that account only (even with LIKE wildcards in the address)', async () => {
    const s = server();
    // `_` is a LIKE wildcard: clearing "a_b|…" must not clear "axb|…".
    const tag = `${process.pid}${Date.now()}`;
    const email = `lock_me_${tag}@example.com`;
    const lookalike = `lockxmex${tag}@example.com`;
    await s.createVerifiedUser({ email });
    const address = freshAddress();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await loginJson(s, email, WRONG, address);
      await loginJson(s, lookalike, WRONG, address);
    }
    expectApiError(await loginJson(s, email, STRONG_PASSWORD, address), 429, 'account_locked');
    expectApiError(await loginJson(s, lookalike, WRONG, address), 429, 'account_locked');

    await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
    const token = tokenFromMail(await s.lastMailTo(email));
    const newPassword = 'a brand new passphrase 99';
    const reset = await s.api({
      method: 'POST',
      path: '/auth/reset-password',
      body: { token, new_password: newPassword },
    });
    expect(reset.statusCode).toBe(200);

    expectTokens(await loginJson(s, email, newPassword, address));
    expectApiError(await loginJson(s, lookalike, WRONG, address), 429, 'account_locked');
  });

  it('lets a burst of 30 concurrent wrong passwords from one address check at most 5 of them', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const address = freshAddress();
    const answers = await Promise.all(Array.from({ length: 30 }, () => loginJson(s, email, WRONG, address)));
    // Attempts 1–4 are checked and fail, the 5th is checked and locks, the rest are refused unchecked.
    expect(statusCounts(answers)).toEqual({ 401: 4, 429: 26 });
    for (const answer of answers.filter((answer) => answer.statusCode === 429)) {
      expectApiError(answer, 429, 'account_locked');
    }
    const user = await userByEmail(s, email);
    expect(await securityEvents(s, { type: 'login_failed', userId: user.id, ip: address })).toHaveLength(5);
    expect(await securityEvents(s, { type: 'account_locked', userId: user.id, ip: address })).toHaveLength(1);
    expectApiError(await loginJson(s, email, password, address), 429, 'account_locked');
    expectTokens(await loginJson(s, email, password, freshAddress()));
  });

  it('caps a concurrent burst against an unknown account alike', async () => {
    const s = server();
    const ghost = uniqueEmail('ghost');
    const address = freshAddress();
    const answers = await Promise.all(Array.from({ length: 30 }, () => loginJson(s, ghost, WRONG, address)));
    expect(statusCounts(answers)).toEqual({ 401: 4, 429: 26 });
    expect(await securityEvents(s, { type: 'login_failed', ip: address })).toHaveLength(5);
  });
});

/** Wrong passwords from each address in turn, `rounds` times over; the answers in order. */
async function spreadGuesses(s: TestServer, email: string, addresses: readonly string[], rounds: number) {
  const answers = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const address of addresses) answers.push(await loginJson(s, email, WRONG, address));
  }
  return answers;
}

describeIdentity('auth: account-wide sign-in lockout', (server) => {
  it("locks new addresses out after 20 failures spread over many, while the owner's usual address still signs in", async () => {
    const s = server();
    // Stepping to just short of the lock's end must not depend on how long the 60 guesses took.
    s.clock.freeze();
    const { email, password } = await s.createVerifiedUser();
    const home = freshAddress();
    expectTokens(await loginJson(s, email, password, home));

    // 20 addresses, 3 wrong guesses each, round after round: no address reaches its own limit.
    const answers = await spreadGuesses(s, email, freshAddresses(ACCOUNT_THRESHOLD), 3);
    expect(answers.slice(0, ACCOUNT_THRESHOLD - 1).map((answer) => answer.statusCode)).toEqual(
      Array<number>(ACCOUNT_THRESHOLD - 1).fill(401),
    );
    const locking = expectApiError(answers[ACCOUNT_THRESHOLD - 1]!, 429, 'account_locked');
    expect(locking.message).toMatch(/15 minutes/);
    for (const answer of answers.slice(ACCOUNT_THRESHOLD)) expectApiError(answer, 429, 'account_locked');

    const user = await userByEmail(s, email);
    expect(await securityEvents(s, { type: 'login_failed', userId: user.id })).toHaveLength(
      ACCOUNT_THRESHOLD,
    );
    const lockEvents = await securityEvents(s, { type: 'account_locked', userId: user.id });
    expect(lockEvents).toHaveLength(1);
    expect(detailsOf(lockEvents[0]!)).toMatchObject({ email, scope: 'account' });

    // A new address is refused even with the right password; the owner's usual one is not.
    const newcomer = await loginJson(s, email, password, freshAddress());
    expectApiError(newcomer, 429, 'account_locked');
    expect(Number(newcomer.headers['retry-after'])).toBeGreaterThan(15 * 60 - 10);
    expectTokens(await loginJson(s, email, password, home));

    // The lock ends with its window.
    s.clock.advance(LOCK_MS - 2000);
    expectApiError(await loginJson(s, email, password, freshAddress()), 429, 'account_locked');
    s.clock.advance(3000);
    expectTokens(await loginJson(s, email, password, freshAddress()));
  });

  it('checks at most 20 passwords when 40 addresses guess at once', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const answers = await Promise.all(
      freshAddresses(40).map((address) => loginJson(s, email, WRONG, address)),
    );
    expect(statusCounts(answers)).toEqual({ 401: ACCOUNT_THRESHOLD - 1, 429: 40 - ACCOUNT_THRESHOLD + 1 });
    const user = await userByEmail(s, email);
    expect(await securityEvents(s, { type: 'login_failed', userId: user.id })).toHaveLength(
      ACCOUNT_THRESHOLD,
    );
  });

  it('no longer spares an address the owner last signed in from over 30 days ago', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const home = freshAddress();
    expectTokens(await loginJson(s, email, password, home));
    s.clock.advance(KNOWN_ADDRESS_MS + 60_000);

    await spreadGuesses(s, email, freshAddresses(ACCOUNT_THRESHOLD), 1);
    expectApiError(await loginJson(s, email, password, home), 429, 'account_locked');
  });

  it('locks unknown accounts alike, recording the lock without the typed name', async () => {
    const s = server();
    const ghost = uniqueEmail('ghost');
    const answers = await spreadGuesses(s, ghost, freshAddresses(ACCOUNT_THRESHOLD), 2);
    expect(answers.slice(0, ACCOUNT_THRESHOLD - 1).every((answer) => answer.statusCode === 401)).toBe(true);
    for (const answer of answers.slice(ACCOUNT_THRESHOLD - 1)) expectApiError(answer, 429, 'account_locked');
    expectApiError(await loginJson(s, ghost, WRONG, freshAddress()), 429, 'account_locked');

    const lockEvents = (await securityEvents(s, { type: 'account_locked' })).filter(
      (event) => detailsOf(event)['scope'] === 'account' && event.user_id === null,
    );
    expect(lockEvents).toHaveLength(1);
    expect(detailsOf(lockEvents[0]!)).not.toHaveProperty('email');
    expect(lockEvents[0]!.details).not.toContain(ghost);
  });

  it('is lifted by a password reset', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    await spreadGuesses(s, email, freshAddresses(ACCOUNT_THRESHOLD), 1);
    expectApiError(await loginJson(s, email, STRONG_PASSWORD, freshAddress()), 429, 'account_locked');

    await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
    const token = tokenFromMail(await s.lastMailTo(email));
    const newPassword = 'another brand new passphrase 7';
    const reset = await s.api({
      method: 'POST',
      path: '/auth/reset-password',
      body: { token, new_password: newPassword },
    });
    expect(reset.statusCode).toBe(200);
    expectTokens(await loginJson(s, email, newPassword, freshAddress()));
  });
});
