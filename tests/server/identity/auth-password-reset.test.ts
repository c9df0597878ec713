import { expect, it } from 'vitest';
import { tokenFromMail } from '../../support/outbox.js';
import { STRONG_PASSWORD, uniqueEmail } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import {
  expectApiError,
  expectTokens,
  familiesOf,
  getMe,
  loginJson,
  mailsTo,
  refresh,
  securityEvents,
  userByEmail,
} from '../helpers/auth-helpers.js';

const NEW_PASSWORD = 'a completely different passphrase 2025';

describeIdentity('auth: forgotten password and reset link', (server) => {
  /** Asks for a reset link and returns the token e-mailed for it. */
  async function requestResetToken(email: string): Promise<string> {
    const s = server();
    const asked = await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
    expect(asked.statusCode).toBe(202);
    return tokenFromMail(await s.lastMailTo(email));
  }

  const resetPassword = (token: string, newPassword: string) =>
    server().api({
      method: 'POST',
      path: '/auth/reset-password',
      body: { token, new_password: newPassword },
    });

  it('resets the password with the e-mailed link: the old password stops working, the new one works', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const user = await userByEmail(s, email);

    await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
    const mail = await s.lastMailTo(email);
    expect(mail.subject).toMatch(/reset/i);
    expect(mail.text).toContain('http://portal.test/reset-password?token=');
    expect(mail.text).toMatch(/expires in 1 hour/);
    const token = tokenFromMail(mail);
    expect(await securityEvents(s, { type: 'password_reset_requested', userId: user.id })).toHaveLength(1);

    const reset = await resetPassword(token, NEW_PASSWORD);
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: expect.stringMatching(/reset/i) });

    expectApiError(await loginJson(s, email, password, '192.0.2.10'), 401, 'invalid_credentials');
    expectTokens(await loginJson(s, email, NEW_PASSWORD));

    const after = await userByEmail(s, email);
    expect(after.password_hash).not.toBe(user.password_hash);
    expect(after.password_changed_at).not.toBeNull();
    expect(await securityEvents(s, { type: 'password_reset', userId: user.id })).toHaveLength(1);
    expect((await s.lastMailTo(email)).subject).toMatch(/password was changed/i);
  });

  it('accepts a reset link once only', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const token = await requestResetToken(email);
    expect((await resetPassword(token, NEW_PASSWORD)).statusCode).toBe(200);
    expectApiError(await resetPassword(token, 'yet another fine passphrase 3'), 400, 'invalid_reset_token');
    // The second attempt changed nothing.
    expectTokens(await loginJson(s, email, NEW_PASSWORD));
  });

  it('refuses a reset link older than one hour', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const token = await requestResetToken(email);
    s.clock.advance(61 * 60 * 1000);
    expectApiError(await resetPassword(token, NEW_PASSWORD), 400, 'invalid_reset_token');
    expectTokens(await loginJson(s, email, password));
  });

  it('refuses a common password without spending the link, which then still works', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const token = await requestResetToken(email);

    expectApiError(await resetPassword(token, 'password123'), 400, 'password_too_common');
    const localPart = email.split('@')[0]!;
    expectApiError(await resetPassword(token, localPart), 400, 'password_too_common');
    expectApiError(await resetPassword(token, 'short'), 400, 'validation_error');

    expect((await resetPassword(token, NEW_PASSWORD)).statusCode).toBe(200);
    expectTokens(await loginJson(s, email, NEW_PASSWORD));
  });

  it('signs out every device: all refresh tokens of the user are revoked and older access tokens refused', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const laptop = await s.login(email, password);
    const phone = await s.login(email, password);
    const token = await requestResetToken(email);

    // No clock advance: tokens issued in the very same second as the reset must end too.
    expect((await resetPassword(token, NEW_PASSWORD)).statusCode).toBe(200);

    expectApiError(await refresh(s, laptop.refresh_token), 401, 'invalid_refresh_token');
    expectApiError(await refresh(s, phone.refresh_token), 401, 'invalid_refresh_token');
    expectApiError(await getMe(s, laptop.access_token), 401, 'invalid_token');

    const families = await familiesOf(s, laptop.user.id);
    expect(families).toHaveLength(2);
    for (const family of families) {
      expect(family.revoked_at).not.toBeNull();
      expect(family.revoked_reason).toBe('password_reset');
    }

    // A session started after the reset works.
    const fresh = expectTokens(await loginJson(s, email, NEW_PASSWORD));
    expect((await getMe(s, fresh.access_token)).statusCode).toBe(200);
  });

  it('invalidates an earlier link when a newer one is requested', async () => {
    const s = server();
    const { email } = await s.createVerifiedUser();
    const older = await requestResetToken(email);
    const newer = await requestResetToken(email);
    expect(newer).not.toBe(older);
    expectApiError(await resetPassword(older, NEW_PASSWORD), 400, 'invalid_reset_token');
    expect((await resetPassword(newer, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses unknown tokens and confirmation-link tokens', async () => {
    const s = server();
    expectApiError(await resetPassword('Z'.repeat(43), NEW_PASSWORD), 400, 'invalid_reset_token');

    const email = uniqueEmail('reset-purpose');
    await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
    const verificationToken = tokenFromMail(await s.lastMailTo(email));
    expectApiError(await resetPassword(verificationToken, NEW_PASSWORD), 400, 'invalid_reset_token');
    // ... and the confirmation link still confirms.
    const verified = await s.api({
      method: 'POST',
      path: '/auth/verify-registration',
      body: { token: verificationToken },
    });
    expect(verified.statusCode).toBe(200);
  });

  it('confirms an unconfirmed address, since following the link proves the mailbox', async () => {
    const s = server();
    const email = uniqueEmail('reset-unconfirmed');
    await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
    expectApiError(await loginJson(s, email, STRONG_PASSWORD), 403, 'email_not_verified');

    const token = await requestResetToken(email);
    expect((await resetPassword(token, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await userByEmail(s, email)).email_verified_at).not.toBeNull();
    expectTokens(await loginJson(s, email, NEW_PASSWORD));
  });

  it('sends no mail and stores no token for an unknown address', async () => {
    const s = server();
    const email = uniqueEmail('reset-nobody');
    const before = await s.app.db.selectFrom('email_tokens').select('id').execute();
    const asked = await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
    expect(asked.statusCode).toBe(202);
    expect(await mailsTo(s, email)).toHaveLength(0);
    const after = await s.app.db.selectFrom('email_tokens').select('id').execute();
    expect(after).toHaveLength(before.length);
  });
});
