import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiError, apiErrorSchema } from '../../../src/shared/api/errors.js';
import { type Preferences, preferencesSchema, userProfileSchema } from '../../../src/shared/api/users.js';
import { type TestServer } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';

const DEFAULT_PREFERENCES: Preferences = {
  theme: 'system',
  language: 'en',
  notifications: { product_updates: true, security_alerts: true, billing: true },
};

function expectProblem(response: LightMyRequestResponse, status: number, code?: string): ApiError {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = apiErrorSchema.parse(response.json());
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.message.length).toBeGreaterThan(0);
  if (code !== undefined) expect(body.code).toBe(code);
  return body;
}

interface Session {
  id: string;
  email: string;
  password: string;
  token: string;
}

async function signedInUser(s: TestServer): Promise<Session> {
  const { email, password } = await s.createVerifiedUser();
  const tokens = await s.login(email, password);
  return { id: tokens.user.id, email, password, token: tokens.access_token };
}

const userRow = (s: TestServer, id: string) =>
  s.app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describeIdentity('users endpoints', (server) => {
  describe('GET /users/me', () => {
    let me: Session;
    beforeAll(async () => {
      me = await signedInUser(server());
    });

    it('without a token → 401 not_authenticated JSON', async () => {
      expectProblem(await server().api({ path: '/users/me' }), 401, 'not_authenticated');
    });

    it.each([
      { name: 'a garbage bearer token', authorization: 'Bearer not-a-jwt' },
      { name: 'a Basic header', authorization: 'Basic dXNlcjpwYXNz' },
      { name: 'a bearer header with two tokens', authorization: 'Bearer a b' },
      { name: 'an empty bearer', authorization: 'Bearer ' },
    ])('with $name → 401 invalid_token JSON', async ({ authorization }) => {
      expectProblem(
        await server().api({ path: '/users/me', headers: { authorization } }),
        401,
        'invalid_token',
      );
    });

    it('with a token but without the API key → 401 invalid_api_key', async () => {
      expectProblem(
        await server().api({ path: '/users/me', token: me.token, withoutApiKey: true }),
        401,
        'invalid_api_key',
      );
    });

    it('with a token → the profile with the default preferences', async () => {
      const s = server();
      const response = await s.api({ path: '/users/me', token: me.token });
      expect(response.statusCode).toBe(200);
      const profile = userProfileSchema.parse(response.json());
      expect(profile).toEqual({
        id: me.id,
        email: me.email.toLowerCase(),
        full_name: null,
        company: null,
        role: 'user',
        status: 'active',
        email_verified: true,
        preferences: DEFAULT_PREFERENCES,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const row = await userRow(s, me.id);
      expect(profile.created_at).toBe(row.created_at);
      expect(Number.isNaN(Date.parse(profile.created_at))).toBe(false);
      expect(response.body).not.toMatch(/password|hash/i);
    });
  });

  describe('PUT /users/me', () => {
    let me: Session;
    beforeAll(async () => {
      me = await signedInUser(server());
    });

    const put = (body: unknown) => server().api({ method: 'PUT', path: '/users/me', token: me.token, body });
    const get = async () =>
      userProfileSchema.parse((await server().api({ path: '/users/me', token: me.token })).json());

    it('without a token → 401', async () => {
      expectProblem(
        await server().api({ method: 'PUT', path: '/users/me', body: { full_name: 'Nobody' } }),
        401,
        'not_authenticated',
      );
    });

    it('updates full_name and company, trimmed, and the change persists', async () => {
      const s = server();
      const before = await get();
      s.clock.advance(1000);
      const response = await put({ full_name: '  Ada Lovelace ', company: ' Analytical Engines Ltd ' });
      expect(response.statusCode).toBe(200);
      const profile = userProfileSchema.parse(response.json());
      expect(profile).toMatchObject({ full_name: 'Ada Lovelace', company: 'Analytical Engines Ltd' });
      expect(profile.created_at).toBe(before.created_at);
      expect(Date.parse(profile.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(await get()).toEqual(profile);
      expect(await userRow(s, me.id)).toMatchObject({
        full_name: 'Ada Lovelace',
        company: 'Analytical Engines Ltd',
      });
    });

    it('changes only the fields sent', async () => {
      await put({ full_name: 'First Name', company: 'First Co' });
      const response = await put({ company: 'Second Co' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ full_name: 'First Name', company: 'Second Co' });
      expect(await get()).toMatchObject({ full_name: 'First Name', company: 'Second Co' });
    });

    it('null clears a field', async () => {
      await put({ full_name: 'To Be Cleared', company: 'Kept Co' });
      const response = await put({ full_name: null });
      expect(response.statusCode).toBe(200);
      expect(await get()).toMatchObject({ full_name: null, company: 'Kept Co' });
    });

    it('accepts exactly 100 characters and refuses 101', async () => {
      expect((await put({ full_name: 'n'.repeat(100) })).statusCode).toBe(200);
      expect((await get()).full_name).toBe('n'.repeat(100));
      const problem = expectProblem(await put({ full_name: 'n'.repeat(101) }), 400, 'validation_error');
      expect(problem.errors?.map((error) => error.field)).toContain('full_name');
      expect((await get()).full_name).toBe('n'.repeat(100));
    });

    it.each([
      'Zoë Ñandú 李雷',
      'زينب الحسن',
      'שרה כהן',
      'Ольга Иванова',
      '👩‍💻 Dev 🚀',
      'e\u0301cole (decomposed é)',
      'Kim\u200Cberly (zero-width non-joiner)',
      "Robert'); DROP TABLE users;--",
      '<script>alert(1)</script>',
    ])('keeps the name %j exactly, in the answer and in the database', async (name) => {
      const s = server();
      const response = await put({ full_name: name, company: name });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ full_name: name, company: name });
      expect(await get()).toMatchObject({ full_name: name, company: name });
      expect(await userRow(s, me.id)).toMatchObject({ full_name: name, company: name });
      expect(await s.app.db.selectFrom('users').select('id').where('id', '=', me.id).execute()).toHaveLength(
        1,
      );
    });

    it.each([
      { name: 'an empty object', body: {}, field: 'body' },
      { name: 'an email change', body: { email: 'new@example.com' }, field: 'body' },
      {
        name: 'an email change next to a valid field',
        body: { full_name: 'Sneaky', email: 'new@example.com' },
        field: 'body',
      },
      { name: 'a role change', body: { role: 'admin' }, field: 'body' },
      { name: 'a status change', body: { full_name: 'Sneaky', status: 'disabled' }, field: 'body' },
      { name: 'email_verified', body: { email_verified: false }, field: 'body' },
      { name: 'preferences through the profile', body: { preferences: { theme: 'dark' } }, field: 'body' },
      { name: 'a NUL in the name', body: { full_name: 'Zoë\u0000' }, field: 'full_name' },
      { name: 'a newline in the company', body: { company: 'Two\nLines' }, field: 'company' },
      { name: 'a number as the name', body: { full_name: 42 }, field: 'full_name' },
      { name: 'an object as the company', body: { company: { name: 'x' } }, field: 'company' },
    ])('refuses $name with 400 and changes nothing', async ({ body, field }) => {
      const s = server();
      await put({ full_name: 'Stable Name', company: 'Stable Co' });
      const before = await userRow(s, me.id);
      s.clock.advance(1000);
      const problem = expectProblem(await put(body), 400, 'validation_error');
      expect(problem.errors?.map((error) => error.field)).toContain(field);
      expect(await userRow(s, me.id)).toEqual(before);
      expect(before).toMatchObject({ role: 'user', status: 'active', email: me.email.toLowerCase() });
    });
  });

  describe('PUT /users/me/preferences', () => {
    let me: Session;
    beforeAll(async () => {
      me = await signedInUser(server());
    });

    const put = (body: unknown) =>
      server().api({ method: 'PUT', path: '/users/me/preferences', token: me.token, body });
    const stored = async () =>
      userProfileSchema.parse((await server().api({ path: '/users/me', token: me.token })).json())
        .preferences;

    it('without a token → 401', async () => {
      expectProblem(
        await server().api({ method: 'PUT', path: '/users/me/preferences', body: { theme: 'dark' } }),
        401,
        'not_authenticated',
      );
    });

    it('merges partial updates and every result persists', async () => {
      expect(await stored()).toEqual(DEFAULT_PREFERENCES);

      const theme = await put({ theme: 'dark' });
      expect(theme.statusCode).toBe(200);
      const afterTheme = { ...DEFAULT_PREFERENCES, theme: 'dark' };
      expect(preferencesSchema.parse(theme.json())).toEqual(afterTheme);
      expect(await stored()).toEqual(afterTheme);

      const billing = await put({ notifications: { billing: false } });
      const afterBilling = {
        ...afterTheme,
        notifications: { product_updates: true, security_alerts: true, billing: false },
      };
      expect(billing.json()).toEqual(afterBilling);
      expect(await stored()).toEqual(afterBilling);

      const updates = await put({ notifications: { product_updates: false } });
      const afterUpdates = {
        ...afterBilling,
        notifications: { product_updates: false, security_alerts: true, billing: false },
      };
      expect(updates.json()).toEqual(afterUpdates);

      const language = await put({ language: 'pt-BR' });
      const afterLanguage = { ...afterUpdates, language: 'pt-BR' };
      expect(language.json()).toEqual(afterLanguage);
      expect(await stored()).toEqual(afterLanguage);
    });

    it('a new sign-in carries the saved preferences', async () => {
      const s = server();
      await put({ theme: 'light', language: 'de', notifications: { security_alerts: false } });
      const fresh = await s.login(me.email, me.password);
      expect(fresh.user.preferences).toMatchObject({
        theme: 'light',
        language: 'de',
        notifications: { security_alerts: false },
      });
      expect(await stored()).toEqual(fresh.user.preferences);
    });

    it('an empty object changes nothing', async () => {
      const before = await stored();
      const response = await put({});
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(before);
      expect(await stored()).toEqual(before);
    });

    it.each(['en', 'fr', 'pt-BR', 'zh-Hant-TW', 'es-419', 'fil'])(
      'accepts the language tag %s',
      async (tag) => {
        const response = await put({ language: tag });
        expect(response.statusCode).toBe(200);
        expect((await stored()).language).toBe(tag);
      },
    );

    it.each([
      { name: 'an unknown theme', body: { theme: 'neon' }, field: 'theme' },
      { name: 'an upper-case theme', body: { theme: 'DARK' }, field: 'theme' },
      { name: 'a null theme', body: { theme: null }, field: 'theme' },
      { name: 'an upper-case language', body: { language: 'EN' }, field: 'language' },
      { name: 'an underscore tag', body: { language: 'en_US' }, field: 'language' },
      { name: 'a language name', body: { language: 'english' }, field: 'language' },
      { name: 'an empty language', body: { language: '' }, field: 'language' },
      { name: 'a 36-character tag', body: { language: `en${'-abcdefgh'.repeat(4)}` }, field: 'language' },
      { name: 'SQL as language', body: { language: "en'; DROP TABLE users;--" }, field: 'language' },
      {
        name: 'a string notification flag',
        body: { notifications: { billing: 'no' } },
        field: 'notifications.billing',
      },
      { name: 'an unknown notification', body: { notifications: { sms: true } }, field: 'notifications' },
      { name: 'null notifications', body: { notifications: null }, field: 'notifications' },
      { name: 'an unknown key', body: { theme: 'dark', font_size: 14 }, field: 'body' },
    ])('refuses $name with 400 and keeps the stored preferences', async ({ body, field }) => {
      const s = server();
      await put({ theme: 'dark', language: 'en', notifications: { billing: true } });
      const before = await userRow(s, me.id);
      s.clock.advance(1000);
      const problem = expectProblem(await put(body), 400, 'validation_error');
      expect(problem.errors?.map((error) => error.field)).toContain(field);
      expect(await userRow(s, me.id)).toEqual(before);
    });
  });

  describe('PUT /users/me/password', () => {
    it('refuses a wrong current password with 400 and keeps the session', async () => {
      const s = server();
      const me = await signedInUser(s);
      const response = await s.api({
        method: 'PUT',
        path: '/users/me/password',
        token: me.token,
        body: { current_password: 'not my password at all', new_password: 'a brand new passphrase 9' },
      });
      expectProblem(response, 400, 'invalid_current_password');
      expect((await s.api({ path: '/users/me', token: me.token })).statusCode).toBe(200);
      await expect(s.login(me.email, me.password)).resolves.toHaveProperty('access_token');
    });

    it('changes the password: the old one stops working, the new one signs in, old tokens end', async () => {
      const s = server();
      const me = await signedInUser(s);
      const newPassword = 'a brand new passphrase 9';
      const response = await s.api({
        method: 'PUT',
        path: '/users/me/password',
        token: me.token,
        body: { current_password: me.password, new_password: newPassword },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: expect.any(String) });
      expectProblem(await s.api({ path: '/users/me', token: me.token }), 401);
      await expect(s.login(me.email, me.password)).rejects.toThrow(/401/);
      await expect(s.login(me.email, newPassword)).resolves.toHaveProperty('access_token');
    });
  });
});
