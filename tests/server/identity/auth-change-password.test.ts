import { describe, expect, it } from 'vitest';
import { describeIdentity } from './identity-server.js';
import {
  expectApiError,
  expectTokens,
  familiesOf,
  getMe,
  loginJson,
  refresh,
  securityEvents,
  userByEmail,
} from '../helpers/auth-helpers.js';

const NEW_PASSWORD = 'my new and rather long passphrase 8';

/** Both ways of changing the password (the API offers two): the auth call and the user call. */
const endpoints = [
  { method: 'POST', path: '/auth/change-password' },
  { method: 'PUT', path: '/users/me/password' },
] as const;

describeIdentity('auth: changing the password while signed in', (server) => {
  for (const endpoint of endpoints) {
    describe(`${endpoint.method} ${endpoint.path}`, () => {
      const change = (token: string | undefined, body: Record<string, string>) =>
        server().api({ method: endpoint.method, path: endpoint.path, ...(token ? { token } : {}), body });

      it('refuses a wrong current password with 400 and changes nothing', async () => {
        const s = server();
        const { email, password } = await s.createVerifiedUser();
        const session = await s.login(email, password);
        const before = await userByEmail(s, email);

        expectApiError(
          await change(session.access_token, {
            current_password: 'not my current password',
            new_password: NEW_PASSWORD,
          }),
          400,
          'invalid_current_password',
        );
        const after = await userByEmail(s, email);
        expect(after.password_hash).toBe(before.password_hash);
        expect(after.password_changed_at).toBeNull();
        // The session is untouched.
        expectTokens(await refresh(s, session.refresh_token));
        expect((await getMe(s, session.access_token)).statusCode).toBe(200);
      });

      it('changes the password, revokes every refresh token and refuses access tokens issued before', async () => {
        const s = server();
        const { email, password } = await s.createVerifiedUser();
        const current = await s.login(email, password);
        const otherDevice = await s.login(email, password);

        // No clock advance: tokens issued in the very same second as the change must end too.
        const changed = await change(current.access_token, {
          current_password: password,
          new_password: NEW_PASSWORD,
        });
        expect(changed.statusCode).toBe(200);
        expect(changed.json()).toEqual({ message: expect.stringMatching(/changed/i) });

        expectApiError(await getMe(s, current.access_token), 401, 'invalid_token');
        expectApiError(await getMe(s, otherDevice.access_token), 401, 'invalid_token');
        expectApiError(await refresh(s, current.refresh_token), 401, 'invalid_refresh_token');
        expectApiError(await refresh(s, otherDevice.refresh_token), 401, 'invalid_refresh_token');
        const families = await familiesOf(s, current.user.id);
        expect(families.map((family) => family.revoked_reason)).toEqual([
          'password_changed',
          'password_changed',
        ]);

        expectApiError(await loginJson(s, email, password, '192.0.2.77'), 401, 'invalid_credentials');
        const fresh = expectTokens(await loginJson(s, email, NEW_PASSWORD));
        expect((await getMe(s, fresh.access_token)).statusCode).toBe(200);

        expect(await securityEvents(s, { type: 'password_changed', userId: current.user.id })).toHaveLength(
          1,
        );
        expect((await s.lastMailTo(email)).subject).toMatch(/password was changed/i);
      });

      it('refuses a common new password with 400 password_too_common', async () => {
        const s = server();
        const { email, password } = await s.createVerifiedUser();
        const session = await s.login(email, password);
        expectApiError(
          await change(session.access_token, { current_password: password, new_password: 'password123' }),
          400,
          'password_too_common',
        );
        expect((await getMe(s, session.access_token)).statusCode).toBe(200);
      });

      it('requires a valid bearer token', async () => {
        const s = server();
        const body = { current_password: 'whatever it is', new_password: NEW_PASSWORD };
        expectApiError(await change(undefined, body), 401, 'not_authenticated');
        expectApiError(await change('not.a.jwt', body), 401, 'invalid_token');
        // A token ended by a logout-everywhere (password change) cannot change it again.
        const { email, password } = await s.createVerifiedUser();
        const session = await s.login(email, password);
        expect(
          (await change(session.access_token, { current_password: password, new_password: NEW_PASSWORD }))
            .statusCode,
        ).toBe(200);
        expectApiError(
          await change(session.access_token, {
            current_password: NEW_PASSWORD,
            new_password: 'a third passphrase entirely 4',
          }),
          401,
          'invalid_token',
        );
      });
    });
  }
});
