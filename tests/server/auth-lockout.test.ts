import { expect, it } from 'vitest';
import { tokenFromMail } from '../support/outbox.js';
import { describeOnEveryDatabase, STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { expectApiError, expectTokens, loginJson, securityEvents, userByEmail } from './auth-helpers.js';

const LOCK_MS = 15 * 60 * 1000;
const WRONG = 'definitely not the password';

let addressSequence = 0;
/** A client address of its own for each test, so lockouts never leak between tests. */
const freshAddress = () => `198.51.100.${++addressSequence}`;

describeOnEveryDatabase('auth: sign-in lockout', (server) => {
  it('locks the (account, address) pair after 5 wrong passwords, for 15 minutes, without locking out the owner elsewhere', async () => {
    const s = server();
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
});
