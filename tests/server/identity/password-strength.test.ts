import { describe, expect, it } from 'vitest';
import { tokenFromMail } from '../../support/outbox.js';
import { describeIdentity } from './identity-server.js';
import { expectApiError, expectTokens, loginJson } from '../helpers/auth-helpers.js';

/**
 * Every way of choosing a new password applies the same strength rule: zxcvbn's score, which finds
 * repeats, sequences and keyboard rows that are on no list, and the account's e-mail name.
 */
const GOOD_PASSPHRASE = 'violet harbour lamp 42';
const TOO_EASY = [
  { kind: 'a repeated character', password: 'aaaaaaaa', says: /Repeated characters/ },
  { kind: 'an alphabet run', password: 'abcdefgh', says: /Sequences like/ },
  { kind: 'a keyboard row', password: 'qwertyuiop', says: /too easy to guess/ },
  { kind: 'a common password', password: 'password', says: /too easy to guess/ },
];
/** The person's e-mail name, with a year, in another case, or without its dot. */
const WITH_EMAIL_NAME = ['jonathan.smith2024', 'JONATHAN.SMITH violet harbour', 'JonathanSmith!!'];

const emailAt = (area: string) => `jonathan.smith@${area}.example.com`;

describeIdentity('new passwords must be hard to guess', (server) => {
  describe('POST /auth/register', () => {
    const register = (email: string, password: string) =>
      server().api({ method: 'POST', path: '/auth/register', body: { email, password } });

    it.each(TOO_EASY)(
      'refuses $kind ($password) with 400 password_too_common',
      async ({ password, says }) => {
        const error = expectApiError(
          await register(emailAt('register'), password),
          400,
          'password_too_common',
        );
        expect(error.message).toMatch(says);
        expect(error.message).toMatch(/Choose a longer phrase that is unique to this account\.$/);
      },
    );

    it.each(WITH_EMAIL_NAME)('refuses %s for jonathan.smith@…, saying why', async (password) => {
      const error = expectApiError(await register(emailAt('register'), password), 400, 'password_too_common');
      expect(error.message).toBe(
        'This password contains the e-mail address or the name before its @. Choose one that does not.',
      );
    });

    it('creates nothing for a refused password, then accepts a good passphrase', async () => {
      const s = server();
      const email = emailAt('register-then');
      await register(email, 'aaaaaaaa');
      expect(await s.app.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual(
        [],
      );
      expect((await register(email, GOOD_PASSPHRASE)).statusCode).toBe(202);
    });
  });

  describe('POST /auth/reset-password', () => {
    it('refuses every weak password without spending the link, then accepts a good passphrase', async () => {
      const s = server();
      const { email } = await s.createVerifiedUser({ email: emailAt('reset') });
      await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
      const token = tokenFromMail(await s.lastMailTo(email));
      const reset = (password: string) =>
        s.api({ method: 'POST', path: '/auth/reset-password', body: { token, new_password: password } });

      for (const password of [...TOO_EASY.map((weak) => weak.password), ...WITH_EMAIL_NAME]) {
        expectApiError(await reset(password), 400, 'password_too_common');
      }
      expect((await reset(GOOD_PASSPHRASE)).statusCode).toBe(200);
      expectTokens(await loginJson(s, email, GOOD_PASSPHRASE));
    });
  });

  describe.each([
    { method: 'POST', path: '/auth/change-password' },
    { method: 'PUT', path: '/users/me/password' },
  ] as const)('$method $path', ({ method, path }) => {
    it('refuses every weak password and keeps the old one, then accepts a good passphrase', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser({
        email: emailAt(`change-${method.toLowerCase()}`),
      });
      const session = await s.login(email, password);
      const change = (newPassword: string) =>
        s.api({
          method,
          path,
          token: session.access_token,
          body: { current_password: password, new_password: newPassword },
        });

      for (const weak of [...TOO_EASY.map((weak) => weak.password), ...WITH_EMAIL_NAME]) {
        expectApiError(await change(weak), 400, 'password_too_common');
      }
      expectTokens(await loginJson(s, email, password));
      expect((await change(GOOD_PASSPHRASE)).statusCode).toBe(200);
      expectTokens(await loginJson(s, email, GOOD_PASSPHRASE));
    });
  });
});
