import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { messageResponseSchema } from '../../../src/shared/api/errors.js';
import { tokenFromMail } from '../../support/outbox.js';
import { STRONG_PASSWORD, uniqueEmail } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import {
  expectApiError,
  expectTokens,
  loginJson,
  mailsTo,
  securityEvents,
  userByEmail,
} from '../helpers/auth-helpers.js';

describeIdentity('auth: registration, e-mail confirmation and sign-in', (server) => {
  describe('POST /auth/register and /auth/verify-registration', () => {
    it('starts the account in the language the portal was shown in; a taken, confirmed address keeps its own', async () => {
      const s = server();
      const email = uniqueEmail('register-language');
      const register = (language: string) =>
        s.api({
          method: 'POST',
          path: '/auth/register',
          body: { email, password: STRONG_PASSWORD, language },
        });
      const languageOf = async () => JSON.parse((await userByEmail(s, email)).preferences).language as string;

      expect((await register('de')).statusCode).toBe(202);
      expect(await languageOf()).toBe('de');
      // Still unconfirmed: the newest sign-up decides, as it does the password.
      expect((await register('es')).statusCode).toBe(202);
      expect(await languageOf()).toBe('es');

      const token = tokenFromMail((await mailsTo(s, email)).at(-1)!);
      expect(
        (await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token } })).statusCode,
      ).toBe(200);
      expect((await register('hi')).statusCode).toBe(202);
      expect(await languageOf()).toBe('es');

      expectApiError(
        await s.api({
          method: 'POST',
          path: '/auth/register',
          body: { email: uniqueEmail('bad-language'), password: STRONG_PASSWORD, language: 'Deutsch!' },
        }),
        400,
        'validation_error',
      );
    });

    it('answers 202, mails a confirmation link, refuses sign-in until the link is followed', async () => {
      const s = server();
      const email = uniqueEmail('register');

      const registered = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email, password: STRONG_PASSWORD, full_name: 'Ada Lovelace' },
      });
      expect(registered.statusCode).toBe(202);
      expect(messageResponseSchema.parse(registered.json()).message).toMatch(/inbox/i);

      const stored = await userByEmail(s, email);
      expect(stored).toMatchObject({ role: 'user', status: 'active', email_verified_at: null });
      expect(stored.full_name).toBe('Ada Lovelace');
      expect(stored.password_hash).toMatch(/^\$argon2id\$/);
      expect(stored.password_hash).not.toContain(STRONG_PASSWORD);
      expect(await securityEvents(s, { type: 'user_registered', userId: stored.id })).toHaveLength(1);

      const mails = await mailsTo(s, email);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail?.subject).toMatch(/confirm/i);
      expect(mail?.text).toContain('http://portal.test/verify-registration?token=');
      const token = tokenFromMail(mail!);
      // Only a hash of the link token is stored.
      const emailTokens = await s.app.db
        .selectFrom('email_tokens')
        .selectAll()
        .where('user_id', '=', stored.id)
        .execute();
      expect(emailTokens).toHaveLength(1);
      expect(emailTokens[0]).toMatchObject({ purpose: 'verify_email', used_at: null });
      expect(emailTokens[0]?.token_hash).not.toBe(token);

      expectApiError(await loginJson(s, email, STRONG_PASSWORD), 403, 'email_not_verified');

      const verified = await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token } });
      expect(verified.statusCode).toBe(200);
      expect(messageResponseSchema.parse(verified.json()).message).toMatch(/confirmed/i);
      expect((await userByEmail(s, email)).email_verified_at).not.toBeNull();

      const tokens = expectTokens(await loginJson(s, email, STRONG_PASSWORD));
      expect(tokens.user).toMatchObject({ id: stored.id, email });
    });

    it('confirms once; the link opened again (a mail scanner, a double click) says the account is already confirmed', async () => {
      const s = server();
      const email = uniqueEmail('verify-once');
      await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
      const token = tokenFromMail(await s.lastMailTo(email));
      const first = await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token } });
      expect(first.statusCode).toBe(200);
      const confirmedAt = (await userByEmail(s, email)).email_verified_at;
      s.clock.advance(60_000);
      const second = await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token } });
      expect(second.statusCode).toBe(200);
      expect(messageResponseSchema.parse(second.json()).message).toBe(
        'Your e-mail address is already confirmed. You can sign in.',
      );
      // Nothing is confirmed again: the first confirmation's time stays.
      expect((await userByEmail(s, email)).email_verified_at).toBe(confirmedAt);
    });

    it('refuses an unknown or expired confirmation token', async () => {
      const s = server();
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/auth/verify-registration',
          body: { token: 'x'.repeat(43) },
        }),
        400,
        'invalid_verification_token',
      );

      const email = uniqueEmail('verify-expired');
      await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
      const token = tokenFromMail(await s.lastMailTo(email));
      s.clock.advance(24 * 60 * 60 * 1000 + 1000);
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token } }),
        400,
        'invalid_verification_token',
      );
      expect((await userByEmail(s, email)).email_verified_at).toBeNull();
    });

    it('refuses a common password or one that is the e-mail address, and creates no account', async () => {
      const s = server();
      const email = uniqueEmail('weak');
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/register', body: { email, password: 'password123' } }),
        400,
        'password_too_common',
      );
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/register', body: { email, password: email } }),
        400,
        'password_too_common',
      );
      const tooShort = expectApiError(
        await s.api({ method: 'POST', path: '/auth/register', body: { email, password: 'short' } }),
        400,
        'validation_error',
      );
      expect(tooShort.errors?.[0]?.field).toBe('password');
      const rows = await s.app.db.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(rows).toHaveLength(0);
      expect(await mailsTo(s, email)).toHaveLength(0);
    });

    it('sends a new link to an unconfirmed account on /auth/resend-verification; the older link stops working', async () => {
      const s = server();
      const email = uniqueEmail('resend');
      await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
      const firstToken = tokenFromMail(await s.lastMailTo(email));

      const resent = await s.api({ method: 'POST', path: '/auth/resend-verification', body: { email } });
      expect(resent.statusCode).toBe(202);
      const unknown = await s.api({
        method: 'POST',
        path: '/auth/resend-verification',
        body: { email: uniqueEmail('resend-unknown') },
      });
      expect(unknown.statusCode).toBe(resent.statusCode);
      expect(unknown.json()).toEqual(resent.json());

      const mails = await mailsTo(s, email);
      expect(mails).toHaveLength(2);
      const secondToken = tokenFromMail(mails[1]!);
      expect(secondToken).not.toBe(firstToken);
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token: firstToken } }),
        400,
        'invalid_verification_token',
      );
      const verified = await s.api({
        method: 'POST',
        path: '/auth/verify-registration',
        body: { token: secondToken },
      });
      expect(verified.statusCode).toBe(200);
    });
  });

  describe('no account enumeration', () => {
    it('answers a taken address exactly like a new one and mails the owner instead', async () => {
      const s = server();
      const { email } = await s.createVerifiedUser();
      const before = await userByEmail(s, email);
      const mailsBefore = (await mailsTo(s, email)).length;

      const taken = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email: email.toUpperCase(), password: 'another long passphrase 7' },
      });
      const fresh = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email: uniqueEmail('fresh'), password: 'another long passphrase 7' },
      });
      expect(taken.statusCode).toBe(202);
      expect(fresh.statusCode).toBe(taken.statusCode);
      expect(taken.body).toBe(fresh.body);
      expect(taken.headers['content-type']).toBe(fresh.headers['content-type']);

      // The existing account is untouched: one row, same password hash, still confirmed.
      const after = await s.app.db.selectFrom('users').selectAll().where('email', '=', email).execute();
      expect(after).toHaveLength(1);
      expect(after[0]?.password_hash).toBe(before.password_hash);
      expect(after[0]?.email_verified_at).toBe(before.email_verified_at);

      const mails = await mailsTo(s, email);
      expect(mails).toHaveLength(mailsBefore + 1);
      const notice = mails.at(-1)!;
      expect(notice.subject).toMatch(/already have an? .*account/i);
      expect(notice.text).toContain('http://portal.test/login');
      expect(notice.text).toContain('http://portal.test/forgot-password');
      expect(notice.text).not.toMatch(/[?&]token=/);
    });

    it('re-sends the confirmation link when a taken address is still unconfirmed', async () => {
      const s = server();
      const email = uniqueEmail('unconfirmed-again');
      await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
      const again = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email, password: STRONG_PASSWORD },
      });
      expect(again.statusCode).toBe(202);
      const mails = await mailsTo(s, email);
      expect(mails).toHaveLength(2);
      expect(mails[1]?.subject).toMatch(/confirm/i);
      const verified = await s.api({
        method: 'POST',
        path: '/auth/verify-registration',
        body: { token: tokenFromMail(mails[1]!) },
      });
      expect(verified.statusCode).toBe(200);
    });

    it('answers forgot-password alike for known and unknown addresses; only the known one gets mail', async () => {
      const s = server();
      const { email } = await s.createVerifiedUser();
      const unknownEmail = uniqueEmail('nobody');

      const known = await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
      const unknown = await s.api({
        method: 'POST',
        path: '/auth/forgot-password',
        body: { email: unknownEmail },
      });
      expect(known.statusCode).toBe(202);
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(messageResponseSchema.parse(known.json()).message).toMatch(/if an account exists/i);

      expect((await s.lastMailTo(email)).subject).toMatch(/reset/i);
      expect(await mailsTo(s, unknownEmail)).toHaveLength(0);
    });

    it('answers a wrong password and an unknown account with the same 401', async () => {
      const s = server();
      const { email } = await s.createVerifiedUser();
      const wrong = await loginJson(s, email, 'not the password at all', '10.1.0.1');
      const unknown = await loginJson(s, uniqueEmail('ghost'), 'not the password at all', '10.1.0.1');
      expectApiError(wrong, 401, 'invalid_credentials');
      expectApiError(unknown, 401, 'invalid_credentials');
      expect(unknown.body).toBe(wrong.body);
    });
  });

  describe('POST /auth/login (form) and /auth/login/json', () => {
    it('signs in with a form-encoded username and password (OAuth2 password flow)', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const response = await s.api({
        method: 'POST',
        path: '/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email, password, grant_type: 'password' }).toString(),
      });
      const tokens = expectTokens(response);
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.expires_in).toBeGreaterThan(0);
      expect(tokens.expires_in).toBeLessThanOrEqual(900);
      expect(tokens.refresh_token.length).toBeGreaterThanOrEqual(43);
      expect(tokens.user.email).toBe(email);
      expect(tokens.user).not.toHaveProperty('password_hash');

      const me = await s.api({ path: '/users/me', token: tokens.access_token });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email });
    });

    it('refuses a wrong password on the form login with 401 invalid_credentials', async () => {
      const s = server();
      const { email } = await s.createVerifiedUser();
      const response = await s.api({
        method: 'POST',
        path: '/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email, password: 'wrong password here' }).toString(),
        remoteAddress: '10.1.0.2',
      });
      expectApiError(response, 401, 'invalid_credentials');
    });

    it('signs in with JSON, the address given as email (any case) or as username', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const byEmail = expectTokens(
        await s.api({
          method: 'POST',
          path: '/auth/login/json',
          body: { email: `  ${email.toUpperCase()} `, password },
        }),
      );
      const byUsername = expectTokens(
        await s.api({ method: 'POST', path: '/auth/login/json', body: { username: email, password } }),
      );
      expect(byEmail.user.email).toBe(email);
      expect(byUsername.user.id).toBe(byEmail.user.id);
      // Each sign-in is its own session with its own tokens.
      expect(byUsername.refresh_token).not.toBe(byEmail.refresh_token);
      expect(decodeJwt(byUsername.access_token).jti).not.toBe(decodeJwt(byEmail.access_token).jti);

      const families = await s.app.db
        .selectFrom('refresh_token_families')
        .select('id')
        .where('user_id', '=', byEmail.user.id)
        .execute();
      expect(families).toHaveLength(2);
      expect(await securityEvents(s, { type: 'login_succeeded', userId: byEmail.user.id })).toHaveLength(2);
    });

    it('issues an HS256 access token with sub, role, exp, iat, iss, aud and jti, living at most 15 minutes', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const beforeLogin = Math.floor(s.clock.now().getTime() / 1000);
      const tokens = await s.login(email, password);
      const afterLogin = Math.floor(s.clock.now().getTime() / 1000);
      const user = await userByEmail(s, email);

      expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
      const claims = decodeJwt(tokens.access_token);
      expect(claims).toMatchObject({
        sub: user.id,
        role: 'user',
        iss: s.config.jwt.issuer,
        aud: s.config.jwt.audience,
      });
      expect(claims.jti).toEqual(expect.any(String));
      expect(claims.jti!.length).toBeGreaterThan(0);
      expect(claims.iat).toEqual(expect.any(Number));
      expect(claims.exp).toEqual(expect.any(Number));
      const lifetime = claims.exp! - claims.iat!;
      expect(lifetime).toBeGreaterThan(0);
      expect(lifetime).toBeLessThanOrEqual(900);
      expect(tokens.expires_in).toBe(lifetime);
      // iat is the server's time (the test clock) during the sign-in, in seconds.
      expect(claims.iat).toBeGreaterThanOrEqual(beforeLogin);
      expect(claims.iat).toBeLessThanOrEqual(afterLogin);
      // The token carries no secrets of the account.
      expect(JSON.stringify(claims)).not.toContain(user.password_hash);
    });

    it('answers malformed sign-in requests with 400/415 JSON errors', async () => {
      const s = server();
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/login/json', body: { password: 'whatever1' } }),
        400,
        'validation_error',
      );
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/auth/login',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'username=someone%40example.com',
        }),
        400,
        'validation_error',
      );
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/auth/login/json',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'email=a%40example.com&password=whatever1',
        }),
        415,
        'unsupported_media_type',
      );
    });
  });
});
