import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  uniqueEmail,
  WEB_API_KEY,
} from '../../support/test-server.js';
import { expectApiError, expectTokens, refresh } from '../helpers/auth-helpers.js';
import { activate, expectActivation, planByCode, statusOf, validate } from '../helpers/license-helpers.js';
import {
  expectVerified,
  openOrder,
  payInSandbox,
  sandboxSecretOf,
  verifyPayment,
} from '../helpers/payment-helpers.js';

/** What the server logged, one parsed JSON object per line. */
const written: string[] = [];
const logStream = { write: (line: string) => void written.push(line) };
const logLines = () =>
  written
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const requestLines = () => logLines().filter((line) => line.msg === 'request completed');

describeOnEveryDatabase(
  'request log',
  (server) => {
    it('writes one JSON line per request with its id, kept from a sane X-Request-Id and sent back', async () => {
      const s = server();
      const before = requestLines().length;
      const given = `trace-${randomUUID()}`;
      const kept = await s.api({ path: '/health', headers: { 'x-request-id': given } });
      expect(kept.headers['x-request-id']).toBe(given);
      // Spaces, quotes and overlong ids could forge or bloat lines: a fresh id replaces them.
      const refused = await s.api({ path: '/health', headers: { 'x-request-id': 'a "b"\tc' } });
      const overlong = await s.api({ path: '/health', headers: { 'x-request-id': 'x'.repeat(129) } });
      const made = await s.api({ path: '/health' });
      for (const response of [refused, overlong, made])
        expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set([refused, overlong, made].map((r) => r.headers['x-request-id'])).size).toBe(3);

      const lines = requestLines().slice(before);
      expect(lines).toHaveLength(4);
      expect(lines.map((line) => line.reqId)).toEqual(
        [kept, refused, overlong, made].map((response) => response.headers['x-request-id']),
      );
      expect(lines[0]).toMatchObject({
        level: 30,
        req: { method: 'GET', route: '/api/v1/health', url: '/api/v1/health' },
        res: { statusCode: 200 },
      });
      expect(typeof lines[0]?.responseTime).toBe('number');
    });

    it('sends the id of the request that queued a mail with the mail, as X-Request-Id, with tracing off', async () => {
      const s = server();
      const requestId = `register-${randomUUID()}`;
      const email = uniqueEmail('request-id');
      const registered = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email, password: STRONG_PASSWORD },
        headers: { 'x-request-id': requestId },
      });
      expect(registered.statusCode).toBe(202);
      expect(s.app.tracing.enabled).toBe(false);
      expect((await s.lastMailTo(email)).headers.get('x-request-id')).toBe(requestId);
      // Kept with the queued mail; with tracing off there is no trace to continue.
      const queued = await s.app.db
        .selectFrom('mail_outbox')
        .select(['request_id', 'traceparent'])
        .where('recipient', '=', email)
        .executeTakeFirstOrThrow();
      expect(queued).toEqual({ request_id: requestId, traceparent: null });
    });

    it('logs no secret of a sign-in, a sandbox purchase and an activation', async () => {
      const s = server();
      written.length = 0;
      const { email, password } = await s.createVerifiedUser();
      const wrongPassword = `not the password ${randomUUID()}`;
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/login/json', body: { email, password: wrongPassword } }),
        401,
        'invalid_credentials',
      );
      const signedIn = expectTokens(
        await s.api({ method: 'POST', path: '/auth/login/json', body: { email, password } }),
      );
      const bindingCookie = s.bindingCookieOf(signedIn.refresh_token);
      const refreshed = expectTokens(await refresh(s, signedIn.refresh_token));
      const token = refreshed.access_token;

      const plan = await planByCode(s, 'pro-monthly');
      const order = await openOrder(s, token, plan.id);
      const checkout = await payInSandbox(s, token, order.order_id);
      const { license } = expectVerified(await verifyPayment(s, token, checkout));
      const hardwareId = `hw-log-${randomUUID()}`;
      expectActivation(await activate(s, token, license.license_key, hardwareId), 201);
      // The desktop's checks, the GET one with the key in its query string.
      expect((await validate(s, license.license_key, hardwareId)).statusCode).toBe(200);
      expect((await statusOf(s, license.license_key, hardwareId)).statusCode).toBe(200);
      const changed = await s.api({
        method: 'POST',
        path: '/users/me/password',
        token,
        body: { current_password: password, new_password: `${STRONG_PASSWORD} changed` },
      });
      expect(changed.statusCode, changed.body).toBeLessThan(500);

      const log = written.join('');
      // The log was written (a line per request, the license checks too at debug level)…
      expect(requestLines().length).toBeGreaterThanOrEqual(10);
      expect(log).toContain('/api/v1/licensing/status?license_key=[redacted]');
      // …and none of what would let a reader act as the customer, the desktop or the server.
      const secrets = {
        password,
        wrongPassword,
        newPassword: `${STRONG_PASSWORD} changed`,
        accessToken: signedIn.access_token,
        refreshToken: signedIn.refresh_token,
        rotatedAccessToken: refreshed.access_token,
        rotatedRefreshToken: refreshed.refresh_token,
        bindingCookie: bindingCookie?.split('=')[1],
        licenseKey: license.license_key,
        licenseKeyDigits: license.license_key.replaceAll('-', ''),
        apiKey: WEB_API_KEY,
        paymentSignature: checkout.razorpay_signature,
        sandboxSecret: sandboxSecretOf(s),
        jwtSecret: s.config.jwt.secret,
      };
      for (const [name, secret] of Object.entries(secrets)) {
        expect(secret, name).toBeTruthy();
        expect(log.includes(secret as string), `${name} is in the log`).toBe(false);
      }
    });
  },
  {
    env: { LOG_LEVEL: 'debug', LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: '100000' },
    appOverrides: () => ({ logger: true, logStream }),
  },
);
