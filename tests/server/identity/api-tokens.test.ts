import { createHash } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import {
  API_TOKEN_PATTERN,
  type ApiToken,
  CUSTOMER_SCOPE_TAGS,
  type CreatedApiToken,
  NEVER_TOKEN_TAGS,
  PLATFORM_ONLY_SCOPE_TAGS,
  PUBLIC_TAGS,
} from '../../../src/shared/api/api-tokens.js';
import { OPENAPI_DOCUMENT_PATH } from '../../../src/shared/routes.js';
import { generateApiToken, hasValidChecksum } from '../../../src/server/identity/api-tokens/token-format.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { activateBase, signIn, type SignedIn } from '../helpers/admin-helpers.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;

async function createToken(
  s: TestServer,
  owner: SignedIn,
  scopes: string[],
  {
    kind = 'personal',
    days = 30,
    name = 'CI',
  }: { kind?: 'personal' | 'platform'; days?: number; name?: string } = {},
): Promise<CreatedApiToken> {
  const response = await s.api({
    method: 'POST',
    path: kind === 'platform' ? '/admin/api-tokens' : '/users/me/api-tokens',
    token: owner.token,
    body: { name, scopes, expires_in_days: days },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiToken>();
}

/** The security log's rows of a token's calls, once the counted ones are written. */
async function usesOf(s: TestServer, tokenId: string) {
  await s.app.apiTokenUses.flush();
  const rows = await securityEvents(s, { type: 'api_token_used' });
  return rows.filter((row) => JSON.parse(row.details ?? '{}').token_id === tokenId);
}

describeOnEveryDatabase('API tokens', (server) => {
  it('classifies every tag a route uses: customer, platform only, never, or public', async () => {
    const document = (await server().app.inject(OPENAPI_DOCUMENT_PATH)).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    const used = new Set(
      Object.values(document.paths).flatMap((operations) =>
        Object.values(operations).flatMap((operation) => operation.tags ?? []),
      ),
    );
    const classified: string[] = [
      ...CUSTOMER_SCOPE_TAGS,
      ...PLATFORM_ONLY_SCOPE_TAGS,
      ...NEVER_TOKEN_TAGS,
      ...PUBLIC_TAGS,
    ];
    expect(
      [...used].filter((tag) => !classified.includes(tag)),
      'tags no list names',
    ).toEqual([]);
    expect(new Set(classified).size, 'a tag in two lists').toBe(classified.length);
    const untagged = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => (operation.tags ?? []).length === 0)
        .map(([method]) => `${method} ${path}`),
    );
    expect(untagged, 'operations without a tag').toEqual([]);
  });

  it('asks for a recent sign-in or step-up before creating a token', async () => {
    const s = server();
    const user = await signIn(s, 'user', 'tokens-step-up');
    const long = new Date(s.clock.now().getTime() - DAY_MS).toISOString();
    await s.app.db
      .updateTable('refresh_token_families')
      .set({ authenticated_at: long, stepped_up_at: null })
      .where('user_id', '=', user.id)
      .execute();
    const response = await s.api({
      method: 'POST',
      path: '/users/me/api-tokens',
      token: user.token,
      body: { name: 'x', scopes: ['users:read'], expires_in_days: 30 },
    });
    expectApiError(response, 403, 'step_up_required');
    expect(
      await s.app.db.selectFrom('api_tokens').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });

  it('creates a personal token shown once, stores only its hash, lists and revokes it', async () => {
    const s = server();
    const user = await signIn(s, 'user', 'tokens-owner');
    const created = await createToken(s, user, ['licenses:read'], { name: 'Build server' });
    expect(created.token).toMatch(API_TOKEN_PATTERN);
    expect(created.api_token).toMatchObject({ kind: 'personal', name: 'Build server', status: 'active' });
    expect(created.token.startsWith(created.api_token.prefix)).toBe(true);
    expect(created.token.endsWith(created.api_token.last_four)).toBe(true);

    const row = await s.app.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.api_token.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(8, -4));

    const list = await s.api({ path: '/users/me/api-tokens', token: user.token });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.token);
    expect(list.json<{ data: ApiToken[] }>().data.map((token) => token.id)).toEqual([created.api_token.id]);

    expect((await s.api({ path: '/licenses', token: created.token })).statusCode).toBe(200);
    const revoked = await s.api({
      method: 'DELETE',
      path: `/users/me/api-tokens/${created.api_token.id}`,
      token: user.token,
    });
    expect(revoked.json<ApiToken>().status).toBe('revoked');
    expectApiError(await s.api({ path: '/licenses', token: created.token }), 401, 'invalid_token');

    const events = await securityEvents(s, { type: 'api_token_created', userId: user.id });
    expect(events).toHaveLength(1);
    expect(await securityEvents(s, { type: 'api_token_revoked', userId: user.id })).toHaveLength(1);
  });

  it('refuses a token with a bad checksum before looking it up, and unknown tokens', async () => {
    const s = server();
    const real = generateApiToken();
    expect(hasValidChecksum(real)).toBe(true);
    const flipped = `${real.slice(0, 10)}${real[10] === 'a' ? 'b' : 'a'}${real.slice(11)}`;
    expect(hasValidChecksum(flipped)).toBe(false);
    const lookups = vi.spyOn(s.app.db, 'selectFrom');
    expectApiError(await s.api({ path: '/licenses', token: flipped }), 401, 'invalid_token');
    expect(lookups.mock.calls.some(([table]) => String(table).includes('api_tokens'))).toBe(false);
    lookups.mockRestore();
    // A well-formed token nobody was given.
    expectApiError(await s.api({ path: '/licenses', token: real }), 401, 'invalid_token');
    expectApiError(await s.api({ path: '/licenses', token: 'aap_short' }), 401, 'invalid_token');
  });

  it('stops an expired token', async () => {
    const s = server();
    const user = await signIn(s, 'user', 'tokens-expiry');
    const { token } = await createToken(s, user, ['licenses:read'], { days: 1 });
    s.clock.freeze();
    s.clock.advance(DAY_MS - 1000);
    expect((await s.api({ path: '/licenses', token })).statusCode).toBe(200);
    s.clock.advance(1000);
    expectApiError(await s.api({ path: '/licenses', token }), 401, 'invalid_token');
  });

  it('needs the scope of every tag: read for reading, write for the rest, write implies read', async () => {
    const s = server();
    const user = await signIn(s, 'user', 'tokens-scopes');
    await activateBase(s, user, `tokens-machine-${process.pid}`);
    const reader = (await createToken(s, user, ['licenses:read'])).token;
    const writer = (await createToken(s, user, ['licenses:write'])).token;
    const billing = (await createToken(s, user, ['billing:read'])).token;

    expect((await s.api({ path: '/licenses', token: reader })).statusCode).toBe(200);
    expect((await s.api({ path: '/licenses', token: writer })).statusCode).toBe(200);
    const refused = expectApiError(
      await s.api({ path: '/licenses', token: billing }),
      403,
      'insufficient_scope',
    );
    expect(refused.message).toContain('licenses:read');
    const write = await s.api({
      method: 'POST',
      path: '/licenses/activate-plan',
      token: reader,
      body: { planId: 'base' },
    });
    expectApiError(write, 403, 'insufficient_scope');
    expect(write.headers['www-authenticate']).toContain('scope="licenses:write"');
    expect(
      (
        await s.api({
          method: 'POST',
          path: '/licenses/activate-plan',
          token: writer,
          body: { planId: 'base' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('keeps a personal token a customer even for an administrator, and refuses customer tokens admin scopes', async () => {
    const s = server();
    const admin = await signIn(s, 'admin', 'tokens-admin-personal');
    const personal = (await createToken(s, admin, ['plans:read', 'users:read'])).token;
    expectApiError(await s.api({ path: '/plans', token: personal }), 403, 'admin_required');
    expect((await s.api({ path: '/users/me', token: personal })).statusCode).toBe(200);
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/users/me/api-tokens',
        token: admin.token,
        body: { name: 'x', scopes: ['admin:read'], expires_in_days: 30 },
      }),
      400,
      'invalid_scope',
    );
    const user = await signIn(s, 'user', 'tokens-no-platform');
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/admin/api-tokens',
        token: user.token,
        body: { name: 'x', scopes: ['admin:read'], expires_in_days: 30 },
      }),
      403,
      'admin_required',
    );
  });

  it('lets a platform token act as its administrator until the owner is demoted or disabled', async () => {
    const s = server();
    const admin = await signIn(s, 'admin', 'tokens-platform');
    const other = await signIn(s, 'admin', 'tokens-platform-other');
    const { token, api_token } = await createToken(s, admin, ['plans:read', 'admin:read', 'admin:write'], {
      kind: 'platform',
    });
    expect(api_token.kind).toBe('platform');
    expect((await s.api({ path: '/plans', token })).statusCode).toBe(200);
    expect((await s.api({ path: '/admin/security-events?perPage=1', token })).statusCode).toBe(200);
    // Admin payments carry two tags: both scopes are needed.
    expectApiError(await s.api({ path: '/payments/admin/payments', token }), 403, 'insufficient_scope');

    const demote = await s.api({
      method: 'PUT',
      path: `/admin/users/${admin.id}`,
      token: other.token,
      body: { role: 'user' },
    });
    expect(demote.statusCode, demote.body).toBe(200);
    expectApiError(await s.api({ path: '/plans', token }), 401, 'invalid_token');
    await s.app.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    expect((await s.api({ path: '/plans', token })).statusCode).toBe(200);
    await s.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', admin.id).execute();
    expectApiError(await s.api({ path: '/plans', token }), 401, 'invalid_token');
  });

  it('never reaches tokens, factors or sign-in routes, whatever its scopes', async () => {
    const s = server();
    const admin = await signIn(s, 'admin', 'tokens-barred');
    const { token } = await createToken(s, admin, ['users:write', 'admin:write'], { kind: 'platform' });
    for (const [method, path, body] of [
      ['GET', '/users/me/api-tokens', undefined],
      ['POST', '/users/me/api-tokens', { name: 'x', scopes: ['users:read'], expires_in_days: 30 }],
      ['POST', '/admin/api-tokens', { name: 'x', scopes: ['users:read'], expires_in_days: 30 }],
      ['GET', '/admin/api-tokens', undefined],
      ['POST', '/auth/logout-all', undefined],
      ['POST', '/auth/change-password', { current_password: 'x', new_password: 'y'.repeat(20) }],
    ] as const) {
      const response = await s.api({ method, path, token, body });
      expectApiError(response, 403, 'insufficient_scope');
    }
    expect(
      await s.app.db.selectFrom('api_tokens').select('id').where('user_id', '=', admin.id).execute(),
    ).toHaveLength(1);
  });

  it('writes every call made with a token to the security log, and names it in the events of the call', async () => {
    const s = server();
    const admin = await signIn(s, 'admin', 'tokens-log');
    const { token, api_token } = await createToken(s, admin, ['admin:write', 'features:write'], {
      kind: 'platform',
      name: 'Audit bot',
    });
    const created = await s.api({
      method: 'POST',
      path: '/admin/features',
      token,
      body: { key: `audit_${process.pid}_${Date.now()}`, name: 'Audit', kind: 'boolean' },
    });
    expect(created.statusCode, created.body).toBe(201);
    // admin:write also grants reading.
    await s.api({ path: '/admin/security-events?perPage=1', token });
    await vi.waitFor(async () => expect(await usesOf(s, api_token.id)).toHaveLength(2));
    const [first] = await usesOf(s, api_token.id);
    expect(JSON.parse(first?.details ?? '{}')).toMatchObject({
      token_id: api_token.id,
      name: 'Audit bot',
      method: 'POST',
      route: '/api/v1/admin/features',
      status_code: 201,
    });
    const featureEvent = (await securityEvents(s, { type: 'feature_created' })).at(-1);
    expect(JSON.parse(featureEvent?.details ?? '{}').api_token_id).toBe(api_token.id);
  });

  it('notes the last use and address with the next flush, never moving it back', async () => {
    const s = server();
    const user = await signIn(s, 'user', 'tokens-last-used');
    const { token, api_token } = await createToken(s, user, ['users:read']);
    s.clock.freeze();
    const lastUsed = async () =>
      s.app.db
        .selectFrom('api_tokens')
        .select(['last_used_at', 'last_used_ip'])
        .where('id', '=', api_token.id)
        .executeTakeFirstOrThrow();
    await s.api({ path: '/users/me', token, remoteAddress: '203.0.113.7' });
    s.clock.advance(1000);
    await s.api({ path: '/users/me', token, remoteAddress: '203.0.113.8' });
    // Nothing on the request path: the use waits for the flush.
    expect(await lastUsed()).toEqual({ last_used_at: null, last_used_ip: null });
    await s.app.apiTokenUses.flush();
    const first = await lastUsed();
    expect(first).toEqual({ last_used_at: s.clock.now().toISOString(), last_used_ip: '203.0.113.8' });
    // Another instance may have written a later use: an earlier one does not move it back.
    const later = new Date(s.clock.now().getTime() + 60_000).toISOString();
    await s.app.db
      .updateTable('api_tokens')
      .set({ last_used_at: later, last_used_ip: '203.0.113.20' })
      .where('id', '=', api_token.id)
      .execute();
    await s.api({ path: '/users/me', token, remoteAddress: '203.0.113.9' });
    await s.app.apiTokenUses.flush();
    expect(await lastUsed()).toEqual({ last_used_at: later, last_used_ip: '203.0.113.20' });
  });

  it('lets an administrator find and revoke any account’s token, and a customer only their own', async () => {
    const s = server();
    const admin = await signIn(s, 'admin', 'tokens-oversight');
    const user = await signIn(s, 'user', 'tokens-leaker');
    const other = await signIn(s, 'user', 'tokens-bystander');
    const leaked = await createToken(s, user, ['licenses:read'], { name: 'Leaked one' });
    expectApiError(
      await s.api({
        method: 'DELETE',
        path: `/users/me/api-tokens/${leaked.api_token.id}`,
        token: other.token,
      }),
      404,
      'api_token_not_found',
    );
    const list = await s.api({
      path: `/admin/api-tokens?search=${encodeURIComponent(user.email)}`,
      token: admin.token,
    });
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json<{ data: (ApiToken & { owner_email: string })[] }>();
    expect(page.data.map((token) => [token.id, token.owner_email])).toEqual([
      [leaked.api_token.id, user.email],
    ]);
    expect(list.body).not.toContain(leaked.token);
    const revoked = await s.api({
      method: 'DELETE',
      path: `/admin/api-tokens/${leaked.api_token.id}`,
      token: admin.token,
    });
    expect(revoked.json<ApiToken>().status).toBe('revoked');
    expectApiError(await s.api({ path: '/licenses', token: leaked.token }), 401, 'invalid_token');
    const [event] = await securityEvents(s, { type: 'api_token_revoked', userId: user.id });
    expect(event?.actor_id).toBe(admin.id);
    const inactive = await s.api({
      path: '/admin/api-tokens?status=inactive&kind=personal',
      token: admin.token,
    });
    expect(inactive.json<{ data: ApiToken[] }>().data.map((token) => token.id)).toContain(
      leaked.api_token.id,
    );
  });

  it('refuses bad input: unknown scopes, no scopes, long expiries, unknown fields', async () => {
    const s = server();
    const user = await signIn(s, 'user', 'tokens-bad-input');
    const post = (body: unknown) =>
      s.api({ method: 'POST', path: '/users/me/api-tokens', token: user.token, body });
    expectApiError(
      await post({ name: 'x', scopes: ['auth:write'], expires_in_days: 30 }),
      400,
      'invalid_scope',
    );
    expectApiError(
      await post({ name: 'x', scopes: ['api-tokens:read'], expires_in_days: 30 }),
      400,
      'invalid_scope',
    );
    expectApiError(await post({ name: 'x', scopes: [], expires_in_days: 30 }), 400, 'validation_error');
    expectApiError(
      await post({ name: 'x', scopes: ['users:read'], expires_in_days: 366 }),
      400,
      'validation_error',
    );
    expectApiError(
      await post({ name: '', scopes: ['users:read'], expires_in_days: 30 }),
      400,
      'validation_error',
    );
    expectApiError(
      await post({ name: 'x', scopes: ['users:read'], expires_in_days: 30, token_hash: 'x' }),
      400,
      'validation_error',
    );
  });
});
