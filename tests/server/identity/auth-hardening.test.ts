import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/server/platform/http-error.js';
import { createPasswordHasher } from '../../../src/server/identity/auth/password-hasher.js';
import { assertAcceptableNewPassword } from '../../../src/server/identity/auth/password-policy.js';
import { tokenFromMail } from '../../support/outbox.js';
import { STRONG_PASSWORD, TEST_PASSWORD_HASH_COST, uniqueEmail } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import { expectApiError, expectTokens, loginJson, mailsTo, securityEvents } from '../helpers/auth-helpers.js';

describe('password hasher', () => {
  it('never remembers a refusal: unknown-account sign-ins work again once a busy spell ends', async () => {
    const hasher = createPasswordHasher({ maxConcurrency: 1, maxQueue: 0 });
    const busy = hasher.hash('keeps the only slot busy');
    // The very first unknown-account sign-in arrives while the slot is taken and nothing may wait.
    const first = await hasher.burnVerificationTime('guess').then(
      () => 'answered',
      (error: unknown) => (error instanceof HttpError ? error.statusCode : error),
    );
    expect(['answered', 503]).toContain(first);
    await busy;
    await expect(hasher.burnVerificationTime('guess')).resolves.toBeUndefined();
    await expect(hasher.burnVerificationTime('guess again')).resolves.toBeUndefined();
  });

  it('answers 503 server_busy while its queue is full', async () => {
    const hasher = createPasswordHasher({ maxConcurrency: 1, maxQueue: 0 });
    await hasher.burnVerificationTime('warm up');
    const busy = hasher.hash('keeps the only slot busy');
    const refused = await hasher
      .verify('$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA', 'x')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 503, code: 'server_busy' });
    await busy;
  });

  it("hashes at OWASP's minimum for argon2id unless given a cost, and verifies a hash of any cost", async () => {
    const hasher = createPasswordHasher({ maxConcurrency: 1, maxQueue: 10 });
    expect(await hasher.hash('a long unusual phrase 7')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // What the test servers hash with: the cost is written into the hash, so any hasher verifies it.
    const cheap = createPasswordHasher({ maxConcurrency: 1, maxQueue: 10, cost: TEST_PASSWORD_HASH_COST });
    const stored = await cheap.hash('a long unusual phrase 7');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(await hasher.verify(stored, 'a long unusual phrase 7')).toBe(true);
    expect(await hasher.verify(stored, 'a long unusual phrase 8')).toBe(false);
  });

  it('verifies what it hashed, in the normalized form', async () => {
    const hasher = createPasswordHasher({ maxConcurrency: 2, maxQueue: 10 });
    // "Å" as one code point and as "A" plus a combining ring are the same password.
    const stored = await hasher.hash('\u00c5ngstr\u00f6m units 42');
    expect(await hasher.verify(stored, 'A\u030angstr\u00f6m units 42')).toBe(true);
    expect(await hasher.verify(stored, 'angstrom units 42')).toBe(false);
    expect(await hasher.verify('not a hash', 'anything')).toBe(false);
  });
});

describe('new password policy', () => {
  it('refuses common passwords written with look-alike (full-width) characters', () => {
    expect(() => assertAcceptableNewPassword('ｐａｓｓｗｏｒｄ１', 'someone@example.com')).toThrow(
      /too common/,
    );
    expect(() => assertAcceptableNewPassword('PASSWORD1', 'someone@example.com')).toThrow(/too common/);
    expect(() => assertAcceptableNewPassword('someone@example.com', 'someone@example.com')).toThrow();
    expect(() => assertAcceptableNewPassword('a long unusual phrase 7', 'someone@example.com')).not.toThrow();
  });
});

describeIdentity('auth hardening', (server) => {
  it('lets the newest sign-up of an unconfirmed address decide its password; earlier links die', async () => {
    const s = server();
    const email = uniqueEmail('prehijack');
    const squatterPassword = 'squatter chose this 1';
    // Someone registers the address first, without access to its mailbox.
    await s.api({ method: 'POST', path: '/auth/register', body: { email, password: squatterPassword } });
    const squatterLink = tokenFromMail((await mailsTo(s, email)).at(-1)!);
    // Then the mailbox's owner signs up and follows their own link.
    await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
    const ownerLink = tokenFromMail((await mailsTo(s, email)).at(-1)!);
    expect(ownerLink).not.toBe(squatterLink);

    expectApiError(
      await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token: squatterLink } }),
      400,
      'invalid_verification_token',
    );
    const verified = await s.api({
      method: 'POST',
      path: '/auth/verify-registration',
      body: { token: ownerLink },
    });
    expect(verified.statusCode).toBe(200);

    expectTokens(await loginJson(s, email, STRONG_PASSWORD));
    expectApiError(await loginJson(s, email, squatterPassword, '198.51.100.9'), 401, 'invalid_credentials');
  });

  it('keeps no record of what was typed as the name of an unknown account', async () => {
    const s = server();
    const address = '203.0.113.77';
    const typedIntoNameField = 'my secret passphrase';
    await loginJson(s, typedIntoNameField, 'whatever it is', address);
    const [event] = await securityEvents(s, { type: 'login_failed', ip: address });
    expect(event).toBeDefined();
    expect(event?.details ?? '').not.toContain(typedIntoNameField);
    expect(JSON.parse(event?.details ?? '{}')).toEqual({ reason: 'unknown_account' });
  });
});
