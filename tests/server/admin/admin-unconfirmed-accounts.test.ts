import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  adminUserListSchema,
  adminUserDetailSchema,
  dashboardStatsSchema,
} from '../../../src/shared/api/admin.js';
import { tokenFromMail } from '../../support/outbox.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';
import {
  eventsAbout,
  expectValidationError,
  signInAsAdmin,
  signInAsUser,
  type SignedIn,
} from '../helpers/admin-helpers.js';
import { expectApiError, mailsTo, userByEmail } from '../helpers/auth-helpers.js';
import { enrolTotp } from '../helpers/two-factor-helpers.js';

/** Someone who signed up and has not opened the confirmation link yet. */
async function unconfirmedSignUp(s: TestServer, label = 'unconfirmed') {
  const email = uniqueEmail(label);
  const response = await s.api({
    method: 'POST',
    path: '/auth/register',
    body: { email, password: STRONG_PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(202);
  return { email, id: (await userByEmail(s, email)).id };
}

const listUsers = async (s: TestServer, admin: SignedIn, query: string) => {
  const response = await s.api({ path: `/admin/users?perPage=100&${query}`, token: admin.token });
  expect(response.statusCode, response.body).toBe(200);
  return adminUserListSchema.parse(response.json());
};

const stats = async (s: TestServer, admin: SignedIn) =>
  dashboardStatsSchema.parse((await s.api({ path: '/admin/dashboard', token: admin.token })).json());

const resend = (s: TestServer, admin: SignedIn, id: string) =>
  s.api({ method: 'POST', path: `/admin/users/${id}/resend-confirmation`, token: admin.token });

describeOnEveryDatabase('administrators and accounts whose e-mail is not confirmed', (server) => {
  describe('GET /admin/users?verification=', () => {
    it('lists confirmed or unconfirmed accounts only, and refuses another value with a 400', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const pending = await unconfirmedSignUp(s, 'filter-pending');
      const confirmed = await s.createVerifiedUser({ email: uniqueEmail('filter-confirmed') });

      const unconfirmedList = await listUsers(s, admin, 'verification=unconfirmed');
      expect(unconfirmedList.data.map((user) => user.email)).toContain(pending.email);
      expect(unconfirmedList.data.map((user) => user.email)).not.toContain(confirmed.email);
      expect(unconfirmedList.data.every((user) => !user.email_verified)).toBe(true);

      const confirmedList = await listUsers(s, admin, 'verification=confirmed');
      expect(confirmedList.data.map((user) => user.email)).toContain(confirmed.email);
      expect(confirmedList.data.map((user) => user.email)).not.toContain(pending.email);
      expect(confirmedList.data.every((user) => user.email_verified)).toBe(true);

      // With the other filters and search, and without the filter both are there.
      const both = await listUsers(s, admin, `search=${encodeURIComponent('filter-')}`);
      expect(both.data.map((user) => user.email)).toEqual(
        expect.arrayContaining([pending.email, confirmed.email]),
      );
      const narrowed = await listUsers(s, admin, 'verification=unconfirmed&status=active&role=user');
      expect(narrowed.data.map((user) => user.email)).toContain(pending.email);

      const bad = await s.api({ path: '/admin/users?verification=maybe', token: admin.token });
      expect(expectValidationError(bad)).toMatch(/verification/);
    });
  });

  describe('POST /admin/users/:id/resend-confirmation', () => {
    it('queues a new confirmation link that confirms the account, and records who asked', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const pending = await unconfirmedSignUp(s, 'resend');
      const before = (await mailsTo(s, pending.email)).length;

      const response = await resend(s, admin, pending.id);
      expect(response.statusCode, response.body).toBe(202);
      expect(response.json<{ message: string }>().message).toMatch(/confirmation link/);

      const mails = await mailsTo(s, pending.email);
      expect(mails.length).toBe(before + 1);
      const [event] = await eventsAbout(s, 'confirmation_mail_resent', pending.id);
      expect(event).toMatchObject({ actor_id: admin.id, severity: 'info' });

      // The new link works.
      const token = tokenFromMail(mails.at(-1) as (typeof mails)[number]);
      const verified = await s.api({ method: 'POST', path: '/auth/verify-registration', body: { token } });
      expect(verified.statusCode, verified.body).toBe(200);
      expect((await userByEmail(s, pending.email)).email_verified_at).not.toBeNull();
    });

    it('refuses a confirmed account and a disabled one (409), an unknown one (404), and sends nothing', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const confirmed = await s.createVerifiedUser({ email: uniqueEmail('resend-confirmed') });
      const confirmedId = (await userByEmail(s, confirmed.email)).id;
      const disabled = await unconfirmedSignUp(s, 'resend-disabled');
      await s.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', disabled.id).execute();
      const mailsBefore = (await s.outbox()).length;

      expectApiError(await resend(s, admin, confirmedId), 409, 'email_already_confirmed');
      expectApiError(await resend(s, admin, disabled.id), 409, 'account_disabled');
      expectApiError(await resend(s, admin, randomUUID()), 404, 'user_not_found');
      // A body, when there is one, must be empty.
      const withBody = await s.api({
        method: 'POST',
        path: `/admin/users/${disabled.id}/resend-confirmation`,
        token: admin.token,
        body: { force: true },
      });
      expect(withBody.statusCode).toBe(400);

      expect((await s.outbox()).length).toBe(mailsBefore);
      expect(await eventsAbout(s, 'confirmation_mail_resent', disabled.id)).toEqual([]);
    });
  });

  describe('marking an address as confirmed, and the overview', () => {
    it('counts unconfirmed accounts apart from active ones; confirming moves one across, audited', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const before = await stats(s, admin);
      const pending = await unconfirmedSignUp(s, 'overview');

      const waiting = await stats(s, admin);
      expect(waiting.users).toMatchObject({
        total: before.users.total + 1,
        active: before.users.active,
        unconfirmed: before.users.unconfirmed + 1,
      });

      const response = await s.api({
        method: 'PUT',
        path: `/admin/users/${pending.id}`,
        token: admin.token,
        body: { email_verified: true },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(adminUserDetailSchema.parse(response.json()).email_verified).toBe(true);

      const after = await stats(s, admin);
      expect(after.users).toMatchObject({
        total: before.users.total + 1,
        active: before.users.active + 1,
        unconfirmed: before.users.unconfirmed,
      });
      const [event] = await eventsAbout(s, 'user_updated', pending.id);
      expect(event).toMatchObject({ actor_id: admin.id });
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
        changes: { email_verified_at: { from: null } },
      });

      // A disabled account is counted as disabled, not as unconfirmed.
      const other = await unconfirmedSignUp(s, 'overview-disabled');
      await s.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', other.id).execute();
      const last = await stats(s, admin);
      expect(last.users).toMatchObject({
        unconfirmed: before.users.unconfirmed,
        disabled: before.users.disabled + 1,
      });
    });
  });

  describe('GET /admin/users/:id: confirmation and second factors', () => {
    it('says when the address was confirmed and which second factors the account has', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const pending = await unconfirmedSignUp(s, 'detail-state');
      const detail = async (id: string) => {
        const response = await s.api({ path: `/admin/users/${id}`, token: admin.token });
        expect(response.statusCode, response.body).toBe(200);
        return adminUserDetailSchema.parse(response.json());
      };

      expect(await detail(pending.id)).toMatchObject({
        email_verified: false,
        email_verified_at: null,
        second_factors: { authenticator_app: false, passkeys: 0 },
      });

      // Frozen, so the time the server writes is the time read here.
      s.clock.freeze();
      const confirmedAt = s.clock.now().toISOString();
      const marked = await s.api({
        method: 'PUT',
        path: `/admin/users/${pending.id}`,
        token: admin.token,
        body: { email_verified: true },
      });
      expect(marked.statusCode, marked.body).toBe(200);
      expect((await detail(pending.id)).email_verified_at).toBe(confirmedAt);

      // An account that enrolled an authenticator app reads as such (its passkeys stay 0).
      const member = await signInAsUser(s, 'detail-totp');
      await enrolTotp(s, member.token);
      expect((await detail(member.id)).second_factors).toEqual({ authenticator_app: true, passkeys: 0 });
    });
  });
});
