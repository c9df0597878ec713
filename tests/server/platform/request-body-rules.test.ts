import { expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer, uniqueEmail } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activateBase,
  expectActivation,
  licenseSuiteOptions,
  licensingTables,
  machine,
  member,
  trackUsage,
} from '../helpers/license-helpers.js';

/** A sign-in body for an unknown address: each use is a fresh address, so no lockout builds up. */
const signInBody = () =>
  JSON.stringify({ email: uniqueEmail('charset'), password: 'not the password at all' });

const signInWith = (s: TestServer, contentType: string, body: string | Buffer) =>
  s.api({ method: 'POST', path: '/auth/login/json', headers: { 'content-type': contentType }, body });

describeOnEveryDatabase(
  'request bodies: UTF-8 only, and no NUL characters',
  (server) => {
    it.each([
      ['application/json; charset=utf-16', Buffer.from(signInBody(), 'utf16le')],
      ['application/json; charset=UTF-16LE', Buffer.from(signInBody(), 'utf16le')],
      ['application/json;charset=iso-8859-1', signInBody()],
      ['application/json; charset="latin1"', signInBody()],
    ])('a body declared as %s is refused with 415, not misread as UTF-8', async (contentType, body) => {
      const problem = expectApiError(
        await signInWith(server(), contentType, body),
        415,
        'unsupported_charset',
      );
      expect(problem.message).toMatch(/UTF-8/);
    });

    it.each([
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
    ])('a body declared as %s reaches the route', async (contentType) => {
      expectApiError(await signInWith(server(), contentType, signInBody()), 401, 'invalid_credentials');
    });

    it('the charset rule holds for the form sign-in and the raw webhook body too', async () => {
      const s = server();
      const form = await s.api({
        method: 'POST',
        path: '/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
        body: new URLSearchParams({
          username: uniqueEmail('charset'),
          password: 'not the password',
        }).toString(),
      });
      expectApiError(form, 415, 'unsupported_charset');
      const webhook = await s.api({
        method: 'POST',
        path: '/payments/razorpay/webhook',
        withoutApiKey: true,
        headers: { 'content-type': 'application/json; charset=utf-16' },
        body: Buffer.from('{"event":"payment.captured"}', 'utf16le'),
      });
      expectApiError(webhook, 415, 'unsupported_charset');
    });

    it('a NUL character in a JSON body is refused with 400, naming the field, before anything is written', async () => {
      const s = server();
      const user = await member(s);
      const { license_id: licenseId } = expectActivation(await activateBase(s, user.token, machine()), 201);
      const before = await licensingTables(s);

      const inFeature = expectApiError(
        await trackUsage(s, user.token, licenseId, { featureId: 'ai_chat\u0000' }),
        400,
        'invalid_characters',
      );
      expect(inFeature.message).toMatch(/^featureId: /);
      const inData = expectApiError(
        await trackUsage(s, user.token, licenseId, {
          featureId: 'ai_chat',
          usageData: { model: 'local-7b', note: 'a\u0000b' },
        }),
        400,
        'invalid_characters',
      );
      expect(inData.message).toMatch(/^usageData\.note: /);
      expect(await licensingTables(s)).toEqual(before);
      // The same request without the NUL is counted.
      expect((await trackUsage(s, user.token, licenseId, { featureId: 'ai_chat' })).statusCode).toBe(200);
    });

    it('a NUL character in the query is refused alike', async () => {
      const s = server();
      const admin = await member(s, 'admin');
      const problem = expectApiError(
        await s.api({ path: '/admin/users?search=a%00b', token: admin.token }),
        400,
        'invalid_characters',
      );
      expect(problem.message).toMatch(/^search: /);
    });

    it('a NUL character in a path parameter is refused alike on both databases', async () => {
      const s = server();
      const user = await member(s);
      const problem = expectApiError(
        await s.api({ path: '/plans/public/a%00b', token: user.token }),
        400,
        'invalid_characters',
      );
      expect(problem.message).toMatch(/^id: /);
    });

    it('a field whose schema refuses control characters still answers in its own words', async () => {
      const s = server();
      const user = await member(s);
      const response = await s.api({
        method: 'PUT',
        path: '/users/me',
        token: user.token,
        body: { full_name: 'Zoë\u0000' },
      });
      expectApiError(response, 400, 'validation_error');
    });
  },
  licenseSuiteOptions,
);
