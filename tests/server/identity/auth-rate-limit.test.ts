import { expect, it } from 'vitest';
import { uniqueEmail } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import { expectApiError, expectTokens, loginJson } from '../helpers/auth-helpers.js';

// Each test uses client addresses of its own: the limit counts requests per address and route
// (the two sign-in routes share one count).
describeIdentity(
  'auth: request rate limit (3 per minute)',
  (server) => {
    it('answers the 4th sign-in within a minute from one address with 429 rate_limited, even with the right password', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const address = '192.0.2.101';

      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expectApiError(
          await loginJson(s, email, 'wrong password, sorry', address),
          401,
          'invalid_credentials',
        );
      }
      const fourth = await loginJson(s, email, password, address);
      expectApiError(fourth, 429, 'rate_limited');
      const retryAfter = Number(fourth.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);

      // Another address is not affected.
      expectTokens(await loginJson(s, email, password, '192.0.2.102'));
    });

    it('counts the form and the JSON sign-in against one budget per address', async () => {
      const s = server();
      const address = '192.0.2.121';
      const formLogin = () =>
        s.api({
          method: 'POST',
          path: '/auth/login',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            username: 'nobody@example.com',
            password: 'whatever it is',
          }).toString(),
          remoteAddress: address,
        });
      expectApiError(await formLogin(), 401, 'invalid_credentials');
      expectApiError(
        await loginJson(s, 'nobody@example.com', 'whatever it is', address),
        401,
        'invalid_credentials',
      );
      expectApiError(await formLogin(), 401, 'invalid_credentials');
      // Three in all: the fourth is refused whichever route it takes.
      expectApiError(
        await loginJson(s, 'nobody@example.com', 'whatever it is', address),
        429,
        'rate_limited',
      );
      expectApiError(await formLogin(), 429, 'rate_limited');
    });

    it('limits the form sign-in, registration and forgot-password as well', async () => {
      const s = server();
      const formLogin = () =>
        s.api({
          method: 'POST',
          path: '/auth/login',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: uniqueEmail('rl'), password: 'whatever it is' }).toString(),
          remoteAddress: '192.0.2.111',
        });
      const register = () =>
        s.api({
          method: 'POST',
          path: '/auth/register',
          body: { email: uniqueEmail('rl'), password: 'long enough passphrase 1' },
          remoteAddress: '192.0.2.112',
        });
      const forgot = () =>
        s.api({
          method: 'POST',
          path: '/auth/forgot-password',
          body: { email: uniqueEmail('rl') },
          remoteAddress: '192.0.2.113',
        });

      for (const [call, okStatus] of [
        [formLogin, 401],
        [register, 202],
        [forgot, 202],
      ] as const) {
        for (let attempt = 1; attempt <= 3; attempt += 1) expect((await call()).statusCode).toBe(okStatus);
        expectApiError(await call(), 429, 'rate_limited');
      }
    });

    it('limits refresh-token guessing too', async () => {
      const s = server();
      const guess = () =>
        s.api({
          method: 'POST',
          path: '/auth/refresh',
          body: { refresh_token: uniqueEmail('guess').replace(/[^a-z0-9]/gi, '') },
          remoteAddress: '192.0.2.121',
        });
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expectApiError(await guess(), 401, 'invalid_refresh_token');
      }
      expectApiError(await guess(), 429, 'rate_limited');
    });
  },
  { env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } },
);
