import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminUserDetailSchema, type AdminUserDetail } from '../../../src/shared/api/admin.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';
import {
  adminTableCounts,
  eventsAbout,
  expectValidationError,
  type SignedIn,
  signIn,
  signInAsAdmin,
} from '../helpers/admin-helpers.js';
import {
  expectApiError,
  familiesOf,
  getMe,
  loginJson,
  refresh,
  userByEmail,
} from '../helpers/auth-helpers.js';
import { activate, giveLicense, machine } from '../helpers/license-helpers.js';

/** A paid payment row as the payments module writes it (the admin API only reads them). */
async function insertPayment(s: TestServer, userId: string, licenseId: string | null) {
  const plan = await s.app.db
    .selectFrom('plans')
    .select('id')
    .where('code', '=', 'pro-monthly')
    .executeTakeFirstOrThrow();
  const now = s.clock.now().toISOString();
  const id = randomUUID();
  await s.app.db
    .insertInto('payments')
    .values({
      id,
      user_id: userId,
      plan_id: plan.id,
      provider: 'sandbox',
      provider_order_id: `order_${id}`,
      provider_payment_id: `pay_${id}`,
      amount_minor: 99_900,
      currency: 'INR',
      status: 'paid',
      license_id: licenseId,
      failure_reason: null,
      created_at: now,
      updated_at: now,
      paid_at: now,
    })
    .execute();
  return id;
}

describeOnEveryDatabase('admin users', (server) => {
  let admin: SignedIn;

  beforeAll(async () => {
    admin = await signInAsAdmin(server());
  });

  const create = (body: unknown) =>
    server().api({ method: 'POST', path: '/admin/users', token: admin.token, body });
  const read = (id: string) => server().api({ path: `/admin/users/${id}`, token: admin.token });
  const update = (id: string, body: unknown, token = admin.token) =>
    server().api({ method: 'PUT', path: `/admin/users/${id}`, token, body });
  const remove = (id: string, token = admin.token) =>
    server().api({ method: 'DELETE', path: `/admin/users/${id}`, token });

  const expectUser = (response: Awaited<ReturnType<typeof read>>, status = 200): AdminUserDetail => {
    expect(response.statusCode, response.body).toBe(status);
    return adminUserDetailSchema.parse(response.json());
  };

  describe('POST /admin/users', () => {
    it('creates a verified account that can sign in, and records who created it', async () => {
      const s = server();
      const email = uniqueEmail('Created');
      const created = expectUser(
        await create({
          email: ` ${email.toUpperCase()} `,
          password: STRONG_PASSWORD,
          full_name: 'Grace Hopper',
        }),
        201,
      );
      expect(created).toMatchObject({
        email: email.toLowerCase(),
        full_name: 'Grace Hopper',
        company: null,
        role: 'user',
        status: 'active',
        email_verified: true,
        last_sign_in_at: null,
        counts: { licenses: 0, active_activations: 0, payments: 0 },
      });
      expect(created).not.toHaveProperty('preferences');
      const stored = await userByEmail(s, email);
      expect(stored.password_hash).toMatch(/^\$argon2id\$/);
      expect((await loginJson(s, email, STRONG_PASSWORD)).statusCode).toBe(200);
      expect(expectUser(await read(created.id)).last_sign_in_at).not.toBeNull();

      const [event] = await eventsAbout(s, 'user_created', created.id);
      expect(event).toMatchObject({ actor_id: admin.id, severity: 'info' });
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({ email: email.toLowerCase(), role: 'user' });
    });

    it('creates an administrator, or an account that must confirm its address first', async () => {
      const s = server();
      const adminEmail = uniqueEmail('second-admin');
      const second = expectUser(
        await create({ email: adminEmail, password: STRONG_PASSWORD, role: 'admin' }),
        201,
      );
      expect(second.role).toBe('admin');
      expect((await eventsAbout(s, 'user_created', second.id))[0]?.severity).toBe('warning');

      const unconfirmed = uniqueEmail('unconfirmed');
      expectUser(await create({ email: unconfirmed, password: STRONG_PASSWORD, email_verified: false }), 201);
      expectApiError(await loginJson(s, unconfirmed, STRONG_PASSWORD), 403, 'email_not_verified');
    });

    it.each([
      {
        rule: 'a valid address',
        body: { email: 'not-an-address', password: STRONG_PASSWORD },
        says: 'valid e-mail',
      },
      { rule: 'a long enough password', body: { password: 'short' }, says: 'at least 8' },
      { rule: 'a known role', body: { role: 'root' }, says: 'role' },
      { rule: 'a known status', body: { status: 'banned' }, says: 'status' },
      { rule: 'no unknown fields', body: { password_hash: 'x' }, says: 'password_hash' },
      { rule: 'no control characters in names', body: { full_name: 'a\u0007b' }, says: 'control characters' },
    ])('refuses an account without $rule → 400, nothing written', async ({ body, says }) => {
      const s = server();
      const before = await adminTableCounts(s);
      const message = expectValidationError(
        await create({ email: uniqueEmail('refused'), password: STRONG_PASSWORD, ...body }),
      );
      expect(message).toContain(says);
      expect(await adminTableCounts(s)).toEqual(before);
    });

    it('refuses a common password with the registration policy → 400 password_too_common', async () => {
      const s = server();
      const before = await adminTableCounts(s);
      expectApiError(
        await create({ email: uniqueEmail('common'), password: 'password123' }),
        400,
        'password_too_common',
      );
      expect(await adminTableCounts(s)).toEqual(before);
    });

    it('an address already in use, in any case → 409 email_taken, nothing written', async () => {
      const s = server();
      const existing = await signIn(s, 'user', 'taken');
      const before = await adminTableCounts(s);
      const error = expectApiError(
        await create({ email: existing.email.toUpperCase(), password: STRONG_PASSWORD }),
        409,
        'email_taken',
      );
      expect(error.message).toContain(existing.email);
      expect(await adminTableCounts(s)).toEqual(before);
    });
  });

  describe('GET /admin/users/{id}', () => {
    it('counts the licenses, machines holding a seat and payments of the user', async () => {
      const s = server();
      const owner = await signIn(s, 'user', 'counted');
      const pro = await giveLicense(s, owner, 'pro-monthly');
      await giveLicense(s, owner, 'base');
      for (const hardwareId of [machine(), machine()])
        expect((await activate(s, owner.token, pro.license_key, hardwareId)).statusCode).toBe(201);
      await insertPayment(s, owner.id, pro.id);
      const detail = expectUser(await read(owner.id));
      expect(detail).toMatchObject({
        id: owner.id,
        email: owner.email,
        role: 'user',
        email_verified: true,
        counts: { licenses: 2, active_activations: 2, payments: 1 },
      });
    });

    it('an unknown id → 404 user_not_found', async () => {
      expectApiError(await read(randomUUID()), 404, 'user_not_found');
    });
  });

  describe('PUT /admin/users/{id}', () => {
    it('changes profile fields, keeps the others, and records what changed', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'profile');
      const updated = expectUser(
        await update(target.id, { full_name: 'Ada King', company: 'Analytical Engines' }),
      );
      expect(updated).toMatchObject({
        full_name: 'Ada King',
        company: 'Analytical Engines',
        role: 'user',
        status: 'active',
      });
      const [event] = await eventsAbout(s, 'user_updated', target.id);
      expect(event?.actor_id).toBe(admin.id);
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
        changes: {
          full_name: { from: null, to: 'Ada King' },
          company: { from: null, to: 'Analytical Engines' },
        },
      });
      // Profile changes leave the user's session alone.
      expect((await getMe(s, target.token)).statusCode).toBe(200);
    });

    it('a change to nothing new writes nothing and records no event', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'same');
      const before = await adminTableCounts(s);
      expectUser(await update(target.id, { role: 'user', status: 'active', email: target.email }));
      expect(await adminTableCounts(s)).toEqual(before);
    });

    it('marks the address unconfirmed and confirmed again', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'confirm');
      expect(expectUser(await update(target.id, { email_verified: false })).email_verified).toBe(false);
      expectApiError(await loginJson(s, target.email, STRONG_PASSWORD), 403, 'email_not_verified');
      expect(expectUser(await update(target.id, { email_verified: true })).email_verified).toBe(true);
      expect((await loginJson(s, target.email, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it('changes the e-mail; one already in use → 409 email_taken and nothing changes', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'mover');
      const other = await signIn(s, 'user', 'holder');
      const before = await adminTableCounts(s);
      expectApiError(
        await update(target.id, { email: other.email, full_name: 'Not saved' }),
        409,
        'email_taken',
      );
      expect(await adminTableCounts(s)).toEqual(before);
      expect((await userByEmail(s, target.email)).full_name).toBeNull();

      const fresh = uniqueEmail('moved');
      expect(expectUser(await update(target.id, { email: fresh })).email).toBe(fresh);
      expect((await loginJson(s, fresh, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it.each([
      { name: 'an empty body', body: {}, says: 'at least one field' },
      { name: 'an unknown role', body: { role: 'owner' }, says: 'role' },
      { name: 'an unknown field', body: { session_version: 0 }, says: 'session_version' },
      { name: 'a bad address', body: { email: 'nope' }, says: 'valid e-mail' },
      { name: 'a password (not changed here)', body: { password: STRONG_PASSWORD }, says: 'password' },
    ])('$name → 400, nothing written', async ({ body, says }) => {
      const s = server();
      const target = await signIn(s, 'user', 'invalid');
      const before = await adminTableCounts(s);
      expect(expectValidationError(await update(target.id, body))).toContain(says);
      expect(await adminTableCounts(s)).toEqual(before);
    });

    it('an unknown id → 404 user_not_found', async () => {
      expectApiError(await update(randomUUID(), { full_name: 'Nobody' }), 404, 'user_not_found');
    });

    it('promoting a user ends their sessions; they sign in again as an administrator', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'promoted');
      const session = await s.login(target.email, STRONG_PASSWORD);
      expect(expectUser(await update(target.id, { role: 'admin' })).role).toBe('admin');

      expectApiError(await getMe(s, session.access_token), 401, 'invalid_token');
      expectApiError(await refresh(s, session.refresh_token), 401, 'invalid_refresh_token');
      expect(
        (await familiesOf(s, target.id)).every((family) => family.revoked_reason === 'role_changed'),
      ).toBe(true);
      const [event] = await eventsAbout(s, 'role_changed', target.id);
      expect(event).toMatchObject({ actor_id: admin.id, severity: 'critical' });
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({ from: 'user', to: 'admin' });

      const again = await s.login(target.email, STRONG_PASSWORD);
      expect((await s.api({ path: '/admin/users', token: again.access_token })).statusCode).toBe(200);
    });

    it('a demoted administrator’s old access token is refused at once (401), on admin and user routes alike', async () => {
      const s = server();
      const demoted = await signIn(s, 'admin', 'demoted');
      expect((await s.api({ path: '/admin/users', token: demoted.token })).statusCode).toBe(200);
      expect(expectUser(await update(demoted.id, { role: 'user' })).role).toBe('user');

      expectApiError(await s.api({ path: '/admin/users', token: demoted.token }), 401, 'invalid_token');
      expectApiError(await getMe(s, demoted.token), 401, 'invalid_token');
      const [event] = await eventsAbout(s, 'role_changed', demoted.id);
      expect(event).toMatchObject({ actor_id: admin.id, severity: 'warning' });

      const again = await s.login(demoted.email, STRONG_PASSWORD);
      expectApiError(await s.api({ path: '/admin/users', token: again.access_token }), 403, 'admin_required');
    });

    it('disabling ends the sessions and refuses sign-in; enabling lets the user back', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'disabled');
      expect(expectUser(await update(target.id, { status: 'disabled' })).status).toBe('disabled');
      expectApiError(await getMe(s, target.token), 401, 'invalid_token');
      expectApiError(await loginJson(s, target.email, STRONG_PASSWORD), 403, 'account_disabled');
      expect(await eventsAbout(s, 'user_disabled', target.id)).toEqual([
        expect.objectContaining({ actor_id: admin.id, severity: 'warning' }),
      ]);

      expect(expectUser(await update(target.id, { status: 'active' })).status).toBe('active');
      expect((await loginJson(s, target.email, STRONG_PASSWORD)).statusCode).toBe(200);
      const [enabled] = await eventsAbout(s, 'user_updated', target.id);
      expect(JSON.parse(enabled?.details ?? '{}')).toMatchObject({
        changes: { status: { from: 'disabled', to: 'active' } },
      });
    });

    it.each([
      { what: 'demote', body: { role: 'user' } },
      { what: 'disable', body: { status: 'disabled' } },
    ])(
      'an administrator cannot $what themselves → 400 own_account, nothing written',
      async ({ body, what }) => {
        const s = server();
        const self = await signIn(s, 'admin', 'self');
        const before = await adminTableCounts(s);
        const error = expectApiError(await update(self.id, body, self.token), 400, 'own_account');
        expect(error.message).toContain(`cannot ${what} your own account`);
        expect(await adminTableCounts(s)).toEqual(before);
        expect((await s.api({ path: '/admin/users', token: self.token })).statusCode).toBe(200);
      },
    );

    it('an administrator may still edit their own profile', async () => {
      const self = await signIn(server(), 'admin', 'own-profile');
      expect(
        expectUser(await update(self.id, { full_name: 'Me', role: 'admin' }, self.token)).full_name,
      ).toBe('Me');
    });
  });

  describe('DELETE /admin/users/{id}', () => {
    it('deletes the account with its sessions, licenses and activations, keeps its payments, and logs the e-mail', async () => {
      const s = server();
      const target = await signIn(s, 'user', 'deleted');
      const license = await giveLicense(s, target, 'pro-monthly');
      expect((await activate(s, target.token, license.license_key, machine())).statusCode).toBe(201);
      const paymentId = await insertPayment(s, target.id, license.id);

      const response = await remove(target.id);
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');

      const db = s.app.db;
      expect(await db.selectFrom('users').select('id').where('id', '=', target.id).execute()).toEqual([]);
      expect(await db.selectFrom('licenses').select('id').where('user_id', '=', target.id).execute()).toEqual(
        [],
      );
      expect(
        await db.selectFrom('activations').select('id').where('license_id', '=', license.id).execute(),
      ).toEqual([]);
      expect(await familiesOf(s, target.id)).toEqual([]);
      expect(
        await db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirst(),
      ).toMatchObject({
        user_id: null,
        license_id: null,
        amount_minor: 99_900,
        status: 'paid',
      });
      expectApiError(await getMe(s, target.token), 401, 'invalid_token');
      expectApiError(await read(target.id), 404, 'user_not_found');
      expectApiError(await remove(target.id), 404, 'user_not_found');

      const [event] = await eventsAbout(s, 'user_deleted', target.id);
      expect(event).toMatchObject({ actor_id: admin.id, severity: 'warning' });
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({ email: target.email, licenses_deleted: 1 });
    });

    it('an administrator cannot delete themselves → 400 own_account, nothing written', async () => {
      const s = server();
      const self = await signIn(s, 'admin', 'self-delete');
      const before = await adminTableCounts(s);
      expectApiError(await remove(self.id, self.token), 400, 'own_account');
      expect(await adminTableCounts(s)).toEqual(before);
    });

    it('deletes another administrator while one remains', async () => {
      const s = server();
      const other = await signIn(s, 'admin', 'other-admin');
      expect((await remove(other.id)).statusCode).toBe(204);
      expectApiError(await s.api({ path: '/admin/users', token: other.token }), 401, 'invalid_token');
    });
  });
});
