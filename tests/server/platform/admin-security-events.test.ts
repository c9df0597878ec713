import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type SecurityEvent,
  securityEventListSchema,
  securityEventSchema,
} from '../../../src/shared/api/admin.js';
import { tokenFromMail } from '../../support/outbox.js';
import { describeOnEveryDatabase, STRONG_PASSWORD, uniqueEmail } from '../../support/test-server.js';
import { type SignedIn, signIn, signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError, loginJson, refresh, userByEmail } from '../helpers/auth-helpers.js';

const NEW_PASSWORD = 'a different long passphrase 7';
const RESET_PASSWORD = 'yet another long passphrase 9';

describeOnEveryDatabase('admin security events', (server) => {
  let admin: SignedIn;

  beforeAll(async () => {
    admin = await signInAsAdmin(server());
  });

  const eventsOf = async (userId: string, query = ''): Promise<SecurityEvent[]> => {
    const response = await server().api({
      path: `/admin/security-events?userId=${userId}&perPage=100&sort=created_at${query}`,
      token: admin.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return securityEventListSchema.parse(response.json()).data;
  };

  describe('GET /admin/security-events/{id}', () => {
    it('shows one event with the e-mails of the account and of the administrator, details as an object', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'subject');
      const changed = await s.api({
        method: 'PUT',
        path: `/admin/users/${target.id}`,
        token: admin.token,
        body: { role: 'admin' },
      });
      expect(changed.statusCode).toBe(200);
      const [listed] = await eventsOf(target.id, '&type=role_changed');
      const response = await s.api({ path: `/admin/security-events/${listed?.id}`, token: admin.token });
      expect(response.statusCode).toBe(200);
      expect(securityEventSchema.parse(response.json())).toEqual({
        id: listed?.id,
        type: 'role_changed',
        severity: 'critical',
        user_id: target.id,
        user_email: target.email,
        actor_id: admin.id,
        actor_email: admin.email,
        ip: '127.0.0.1',
        user_agent: 'lightMyRequest',
        details: { email: target.email, from: 'user', to: 'admin' },
        created_at: listed?.created_at,
      });
    });

    it('an unknown id → 404 security_event_not_found', async () => {
      expectApiError(
        await server().api({ path: `/admin/security-events/${randomUUID()}`, token: admin.token }),
        404,
        'security_event_not_found',
      );
    });

    it('keeps the events of a deleted account: no e-mail joined any more, but the deletion names it', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'gone');
      expect(
        (await s.api({ method: 'DELETE', path: `/admin/users/${target.id}`, token: admin.token })).statusCode,
      ).toBe(204);
      const events = await eventsOf(target.id);
      expect(events.map((event) => event.type)).toEqual(['login_succeeded', 'user_deleted']);
      for (const event of events) expect(event.user_email).toBeNull();
      expect(events[1]).toMatchObject({ actor_email: admin.email, details: { email: target.email } });
    });

    it('shows unreadable details as such instead of failing', async () => {
      const s = server();
      const id = randomUUID();
      await s.app.db
        .insertInto('security_events')
        .values({
          id,
          type: 'login_failed',
          severity: 'warning',
          user_id: null,
          actor_id: null,
          ip: null,
          user_agent: null,
          details: 'not json',
          created_at: s.clock.now().toISOString(),
        })
        .execute();
      const response = await s.api({ path: `/admin/security-events/${id}`, token: admin.token });
      expect(response.json()).toMatchObject({ details: { unreadable: 'not json' }, user_email: null });
    });
  });

  describe('the account events of issue 4, item 4, as an administrator reads them', () => {
    it('registration, e-mail confirmation, failed and successful sign-in, refresh reuse, password change and reset, lockout', async () => {
      const s = server();
      const email = uniqueEmail('history');
      expect(
        (await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } }))
          .statusCode,
      ).toBe(202);
      const confirmation = tokenFromMail(await s.lastMailTo(email));
      expect(
        (await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token: confirmation } }))
          .statusCode,
      ).toBe(200);
      const { id } = await userByEmail(s, email);

      expectApiError(await loginJson(s, email, 'not the password at all'), 401, 'invalid_credentials');
      const session = await s.login(email, STRONG_PASSWORD);
      expect((await refresh(s, session.refresh_token)).statusCode).toBe(200);
      expectApiError(await refresh(s, session.refresh_token), 401, 'refresh_token_reused');

      const fresh = await s.login(email, STRONG_PASSWORD);
      const changed = await s.api({
        method: 'POST',
        path: '/auth/change-password',
        token: fresh.access_token,
        body: { current_password: STRONG_PASSWORD, new_password: NEW_PASSWORD },
      });
      expect(changed.statusCode, changed.body).toBe(200);

      await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
      const reset = await s.api({
        method: 'POST',
        path: '/auth/reset-password',
        body: { token: tokenFromMail(await s.lastMailTo(email)), new_password: RESET_PASSWORD },
      });
      expect(reset.statusCode, reset.body).toBe(200);

      // Failures up to the lockout threshold, from an address of their own.
      for (let attempt = 0; attempt < s.config.lockout.threshold; attempt += 1) {
        await loginJson(s, email, `wrong guess ${attempt}`, '198.51.100.77');
      }

      const events = await eventsOf(id);
      const types = new Set(events.map((event) => event.type));
      for (const type of [
        'user_registered',
        'email_verified',
        'login_failed',
        'login_succeeded',
        'refresh_token_reuse',
        'password_changed',
        'password_reset_requested',
        'password_reset',
        'account_locked',
      ])
        expect(types, type).toContain(type);
      for (const event of events) expect(event.user_email).toBe(email);
      expect(events.find((event) => event.type === 'refresh_token_reuse')?.severity).toBe('critical');
      expect(events.find((event) => event.type === 'account_locked')).toMatchObject({
        severity: 'warning',
        ip: '198.51.100.77',
      });

      const chosen = await eventsOf(id, '&type=email_verified,password_reset');
      expect(chosen.map((event) => event.type)).toEqual(['email_verified', 'password_reset']);
    });
  });
});
