import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivationResult } from '../../../src/shared/api/licenses.js';
import type { VerifyPaymentRequest } from '../../../src/shared/api/payments.js';
import { API_BASE_PATH, OPENAPI_DOCUMENT_PATH, SCIM_BASE_PATH } from '../../../src/shared/routes.js';
import { publishRelease } from '../../../src/server/distribution/releases.js';
import { pendingSubscriptionRow } from '../../../src/server/billing/subscriptions/new-subscription.js';
import { grantableScopes, type ApiTokenKind } from '../../../src/shared/api/api-tokens.js';
import { scopesNeeded } from '../../../src/server/identity/api-tokens/scopes.js';
import { createApiTokensService } from '../../../src/server/identity/api-tokens/service.js';
import {
  type ApiRequest,
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';
import { activateBase, signIn, type SignedIn } from '../helpers/admin-helpers.js';
import { requestBody } from '../helpers/offline-activation-helpers.js';
import {
  invitationTokenFor,
  newOrganisationContext,
  ORGANISATION_CALLERS,
  type OrganisationCaller,
  type OrganisationContext,
} from '../helpers/organisation-helpers.js';
import {
  declineInSandbox,
  expectVerified,
  openOrder,
  payInSandbox,
  verifyPayment,
} from '../helpers/payment-helpers.js';

/**
 * Who may call what: every operation of the OpenAPI document has a row with the status each kind
 * of caller gets. The rows are checked against the document both ways, so a new route cannot be
 * added without deciding here who may call it, and a row cannot outlive its route.
 *
 * Callers: `anonymous` sends the API key but no bearer token; `user` owns the fixtures (a license
 * with a machine, a payment); `otherUser` is a second signed-in user; `admin` an administrator.
 * Without the API key every operation is refused with 401 except the ones in NO_API_KEY_NEEDED.
 *
 * API tokens: every operation behind a bearer token is also called with the user's and the other
 * user's personal tokens and the administrator's platform token, each holding exactly the scopes
 * the operation's tags need (the answer is the session's), and with one token per needed scope
 * lacking it (403 `insufficient_scope`). Operations tokens never reach refuse a token holding every scope.
 */
type Caller = 'anonymous' | 'user' | 'otherUser' | 'admin';
const CALLERS: readonly Caller[] = ['anonymous', 'user', 'otherUser', 'admin'];

interface Fixtures {
  s: TestServer;
  users: Record<Exclude<Caller, 'anonymous'>, SignedIn>;
  licenseId: string;
  licenseKey: string;
  hardwareId: string;
  activationId: string;
  featureId: string;
  proPlanId: string;
  downloadToken: string;
  paymentId: string;
  orderId: string;
  checkout: VerifyPaymentRequest;
  securityEventId: string;
}

/** What a row sends; `signedInAs` replaces the caller's token with a fresh account of the same role. */
type Request = Omit<ApiRequest, 'method' | 'path' | 'token'> & { path: string; freshAccount?: boolean };

interface Row {
  request: (f: Fixtures, caller: Caller) => Request | Promise<Request>;
  expect: Record<Caller, number>;
  /** What a token with the needed scopes gets where a second call differs from the session's first. */
  tokenExpect?: Partial<Record<Caller, number>>;
  /** An organisation's operation: what each organisation role gets, each on a fresh organisation. */
  organisationRoles?: {
    request: (o: OrganisationContext) => Request | Promise<Request>;
    expect: Record<OrganisationCaller, number>;
  };
}

/**
 * A row of an organisation's operation, on a fresh organisation the fixture user owns (with an
 * admin, a member and a seated member to act on, and a pending invitation): the other user is an
 * outsider, the administrator a platform administrator. Every organisation role calls it too.
 */
function organisationRow(
  request: (o: OrganisationContext) => Request | Promise<Request>,
  roles: Record<OrganisationCaller, number>,
): Row {
  return {
    request: async (f) => request(await newOrganisationContext(f.s, f.users.user)),
    expect: { anonymous: 401, user: roles.owner, otherUser: roles.outsider, admin: roles.platformAdmin },
    organisationRoles: { request, expect: roles },
  };
}
/** A domain the organisation's owner has just claimed, for the rows acting on one. */
async function claimedDomain(o: OrganisationContext): Promise<string> {
  const response = await o.s.api({
    method: 'POST',
    path: `/organisations/${o.organisationId}/domains`,
    token: o.owner.token,
    body: { domain: `matrix-${randomUUID().slice(0, 8)}.example` },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string }>().id;
}
/** The owner's SCIM token of the organisation, made for the rows acting on one. */
async function scimTokenOf(o: OrganisationContext): Promise<string> {
  const response = await o.s.api({
    method: 'POST',
    path: `/organisations/${o.organisationId}/provisioning/token`,
    token: o.owner.token,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ token: string }>().token;
}
/** A group the organisation's identity provider has pushed through SCIM, for the rows mapping one. */
async function pushedGroup(o: OrganisationContext): Promise<string> {
  const response = await o.s.app.inject({
    method: 'POST',
    url: `${SCIM_BASE_PATH}/Groups`,
    headers: { authorization: `Bearer ${await scimTokenOf(o)}` },
    payload: { displayName: `Matrix ${randomUUID().slice(0, 8)}` },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}
/**
 * A SCIM operation: outside /api/v1, it takes neither the API key nor a session or API token,
 * only an organisation's SCIM token, so every caller here is refused (401); what a SCIM token may
 * reach is tested in tests/server/licensing/scim-provisioning.test.ts.
 */
const scimRow = (path: string, body?: unknown): Row => ({
  request: () => ({ path, ...(body === undefined ? {} : { body }) }),
  expect: everyone(401),
});
const isScim = (operation: string) => operation.includes(`${SCIM_BASE_PATH}/`);
/** Sends a row's request: below /api/v1, or as it is for SCIM's paths. */
function send(s: TestServer, request: ApiRequest) {
  if (!request.path.startsWith(SCIM_BASE_PATH)) return s.api(request);
  return s.app.inject({
    method: request.method ?? 'GET',
    url: request.path,
    headers: {
      ...(request.withoutApiKey ? {} : { 'x-api-key': 'dap-web-public' }),
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
    },
    ...(request.body === undefined ? {} : { payload: request.body as object }),
  });
}
/** `METHOD /path` below /api/v1, or the whole path for SCIM's. */
const operationPath = (path: string) =>
  path.startsWith(API_BASE_PATH) ? path.slice(API_BASE_PATH.length) : path;

/** Statuses of an operation for the organisation's owner and admins (and platform administrators), members refused. */
const managers = (status: number): Record<OrganisationCaller, number> => ({
  owner: status,
  orgAdmin: status,
  member: 403,
  outsider: 404,
  platformAdmin: status,
});
const anyMember = (status: number): Record<OrganisationCaller, number> => ({
  ...managers(status),
  member: status,
});

/** Statuses of a route open to anyone holding the API key: the same answer whoever asks. */
const everyone = (status: number): Record<Caller, number> => ({
  anonymous: status,
  user: status,
  otherUser: status,
  admin: status,
});
/** A signed-in route about the caller's own account or licenses, without a resource id. */
const signedIn = (status: number): Record<Caller, number> => ({ ...everyone(status), anonymous: 401 });
/** A route on the user's own resource: another user and an administrator do not see it (404). */
const ownerOnly = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  user: status,
  otherUser: 404,
  admin: 404,
});
/** Administrators only: 401 before sign-in, 403 for users, whatever the input. */
const adminOnly = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  user: 403,
  otherUser: 403,
  admin: status,
});

/** One activation request file of the fixture's machine per route, the same on every call. */
const offlineRequests = new WeakMap<Fixtures, Map<string, Promise<Record<string, unknown>>>>();
function offlineRequestOf(f: Fixtures, route: 'customer' | 'admin'): Promise<Record<string, unknown>> {
  const ofFixture = offlineRequests.get(f) ?? new Map<string, Promise<Record<string, unknown>>>();
  offlineRequests.set(f, ofFixture);
  const body =
    ofFixture.get(route) ??
    requestBody(f.s, f.licenseKey).then((request) => ({ ...request, hardware_id: f.hardwareId }));
  ofFixture.set(route, body);
  return body;
}
/** A well-formed signed-out proof of a license file the server never issued. */
const unknownProof = (f: Fixtures) => ({
  format: 'desktop-ai-assistant.offline-deactivation-proof',
  version: 1,
  license_id: f.licenseId,
  hardware_id: f.hardwareId,
  nonce: 'n'.repeat(43),
  lease_id: randomUUID(),
  deactivated_at: new Date(0).toISOString(),
  signature: 's'.repeat(86),
});

/** The invoice of the fixture's payment. */
const invoiceIdOf = async (f: Fixtures): Promise<string> =>
  (
    await f.s.app.db
      .selectFrom('invoices')
      .select('id')
      .where('payment_id', '=', f.paymentId)
      .executeTakeFirstOrThrow()
  ).id;

const NO_API_KEY_NEEDED = new Set([
  'GET /health',
  'GET /health/live',
  'GET /health/ready',
  'GET /downloads/{token}',
  'GET /data-exports/{token}',
  'GET /update-feed/{token}/{channelFile}',
  'GET /update-feed/{token}/files/{releaseId}/{fileName}',
  'POST /payments/razorpay/webhook',
  'GET /notifications/unsubscribe',
  'POST /notifications/unsubscribe',
  // The identity provider sends the browser back: the state and its cookie are the credential.
  'GET /auth/sso/callback',
  // A SAML identity provider reads our metadata, and the browser posts its answer from the provider's site.
  'GET /auth/sso/saml/{organisationId}/metadata',
  'POST /auth/sso/saml/{organisationId}/acs',
]);

/** The update feed (its path below /api/v1, ending in /) a check from the fixture's machine answers. */
async function updateFeedOf(f: Fixtures): Promise<string> {
  const checked = await f.s.api({
    method: 'POST',
    path: '/updates/check',
    body: { license_key: f.licenseKey, hardware_id: f.hardwareId, platform: 'windows' },
  });
  return new URL(checked.json<{ feed_url: string }>().feed_url).pathname.slice(API_BASE_PATH.length);
}

/** The fixture's published Windows release. */
const fixtureReleaseOf = (f: Fixtures) =>
  f.s.app.db
    .selectFrom('releases')
    .select(['id', 'file_name'])
    .where('platform', '=', 'windows')
    .where('version', '=', '1.0.0')
    .executeTakeFirstOrThrow();

/** The fixture coupon (10% off, made once by the fixture administrator). */
async function fixtureCoupon(f: Fixtures): Promise<{ id: string; code: string }> {
  const existing = await f.s.app.db
    .selectFrom('coupons')
    .select(['id', 'code'])
    .where('code', '=', 'MATRIX-FIXTURE')
    .executeTakeFirst();
  if (existing) return existing;
  const created = await f.s.api({
    method: 'POST',
    path: '/admin/coupons',
    token: f.users.admin.token,
    body: { code: 'MATRIX-FIXTURE', percent_off: 10 },
  });
  return created.json<{ id: string; code: string }>();
}
/** A new webhook endpoint (on a closed local port, so its deliveries fail at once), made by the fixture administrator. */
async function webhookEndpointOf(f: Fixtures): Promise<string> {
  const created = await f.s.api({
    method: 'POST',
    path: '/admin/webhooks',
    token: f.users.admin.token,
    body: { url: 'https://127.0.0.1:9/matrix', event_types: ['license.created'] },
  });
  return created.json<{ id: string }>().id;
}

/** A delivery of a queued event to a new endpoint, written directly (the worker leaves it alone until due). */
async function webhookDeliveryOf(f: Fixtures): Promise<string> {
  const endpointId = await webhookEndpointOf(f);
  const eventId = `msg_matrix${randomUUID().replaceAll('-', '')}`;
  const id = randomUUID();
  const later = new Date(Date.now() + 86_400_000).toISOString();
  await f.s.app.db
    .insertInto('webhook_events')
    .values({ id: eventId, type: 'license.created', payload: '{}', created_at: later })
    .execute();
  await f.s.app.db
    .insertInto('webhook_deliveries')
    .values({
      id,
      endpoint_id: endpointId,
      event_id: eventId,
      redelivery_of: null,
      status: 'failed',
      attempts: 8,
      next_attempt_at: later,
      claimed_until: null,
      last_status_code: null,
      last_error: 'connect ECONNREFUSED',
      created_at: later,
      completed_at: later,
    })
    .execute();
  return id;
}
const couponCodeOf = async (f: Fixtures) => (await fixtureCoupon(f)).code;
const couponIdOf = async (f: Fixtures) => (await fixtureCoupon(f)).id;

/** A subscription the fixture user opened but has not paid (the ones before ended now, so the plan is free to take). */
async function openSubscriptionOf(f: Fixtures): Promise<string> {
  const { token } = f.users.user;
  const list = await f.s.api({ path: '/subscriptions', token });
  for (const { id, status } of list.json<{ data: { id: string; status: string }[] }>().data)
    if (status !== 'cancelled')
      await f.s.api({ method: 'POST', path: `/subscriptions/${id}/cancel`, token, body: { at: 'now' } });
  const opened = await f.s.api({
    method: 'POST',
    path: '/subscriptions',
    token,
    body: { plan_id: 'pro-monthly' },
  });
  return opened.json<{ subscription: { id: string } }>().subscription.id;
}

/** A new paid subscription of the fixture user's. */
async function newSubscriptionOf(f: Fixtures): Promise<string> {
  const { token } = f.users.user;
  const id = await openSubscriptionOf(f);
  const paid = await f.s.api({
    method: 'POST',
    path: `/payments/sandbox/subscriptions/${id}/complete`,
    token,
    body: { outcome: 'pay' },
  });
  const verified = await f.s.api({ method: 'POST', path: '/subscriptions/verify', token, body: paid.json() });
  if (verified.statusCode !== 200) throw new Error(`subscribing failed: ${verified.body}`);
  return id;
}

/**
 * The seats of a fresh role organisation once it subscribes: its license (given as buying does) is
 * put on an active sandbox subscription of the Business plan, paid up to a month from now.
 */
async function billedSeatsOf(o: OrganisationContext): Promise<number> {
  const { s } = o;
  const license = await s.app.db
    .selectFrom('licenses')
    .selectAll()
    .where('organisation_id', '=', o.organisationId)
    .executeTakeFirstOrThrow();
  if (license.subscription_id) return license.seats ?? 1;
  const now = s.clock.now();
  const id = randomUUID();
  await s.app.db
    .insertInto('subscriptions')
    .values({
      ...pendingSubscriptionRow({
        id,
        userId: o.owner.id,
        planId: license.plan_id,
        currency: 'INR',
        provider: 'sandbox',
        providerSubscriptionId: `sub_sandbox_matrix${id.slice(0, 8)}`,
        couponId: null,
        organisation: { id: o.organisationId, seats: license.seats ?? 1 },
        now: now.toISOString(),
      }),
      status: 'active',
      license_id: license.id,
      cycles: 1,
      anchor_at: now.toISOString(),
      current_period_start: now.toISOString(),
      current_period_end: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    })
    .execute();
  await s.app.db.updateTable('licenses').set({ subscription_id: id }).where('id', '=', license.id).execute();
  return license.seats ?? 1;
}

/** The fixture user's unsubscribe link from product news, as an optional mail carries it. */
const unsubscribePath = (f: Fixtures): string =>
  new URL(f.s.app.mailer.unsubscribeUrl(f.users.user.id, 'product_updates')).href.replace(/^.*\/api\/v1/, '');

let sequence = 0;
const unique = (label: string) => `${label}-${process.pid}-${++sequence}`;

/** A verified account's fresh refresh token (for the refresh and logout rows, which use it up). */
async function freshRefreshToken(s: TestServer): Promise<string> {
  const email = uniqueEmail('matrix-refresh');
  await s.app.authService.createAccount({ email, password: STRONG_PASSWORD, role: 'user', verified: true });
  return (await s.login(email, STRONG_PASSWORD)).refresh_token;
}

async function adminCall(f: Fixtures, method: 'POST' | 'PUT', path: string, body: unknown) {
  const response = await f.s.api({ method, path, token: f.users.admin.token, body });
  expect([200, 201], `${method} ${path}: ${response.body}`).toContain(response.statusCode);
  return response.json<Record<string, unknown>>();
}

const newFeature = async (f: Fixtures) =>
  String(
    (
      await adminCall(f, 'POST', '/admin/features', {
        key: unique('feat').replaceAll('-', '_'),
        name: 'Matrix',
        kind: 'boolean',
      })
    ).feature_id,
  );

const newPlan = async (f: Fixtures) =>
  String(
    (
      await adminCall(f, 'POST', '/plans', {
        code: unique('plan'),
        name: 'Matrix plan',
        price_minor: 10_000,
        currency: 'INR',
        billing_interval: 'month',
        max_activations: 2,
      })
    ).id,
  );

const newUser = async (f: Fixtures) => (await signIn(f.s, 'user', 'matrix-victim')).id;

/** An account whose e-mail address is not confirmed yet, made by the fixture administrator. */
const newUnconfirmedUser = async (f: Fixtures) =>
  String(
    (
      await adminCall(f, 'POST', '/admin/users', {
        email: uniqueEmail('matrix-unconfirmed'),
        password: STRONG_PASSWORD,
        email_verified: false,
      })
    ).id,
  );

const newLicenseOf = async (f: Fixtures, userId = f.users.user.id) =>
  String(
    (await adminCall(f, 'POST', '/admin/licenses', { user_id: userId, plan_id: f.proPlanId })).license_id,
  );

/** A new API token of an account's, made directly (no session or step-up involved). */
async function mintToken(
  s: TestServer,
  userId: string,
  kind: ApiTokenKind,
  scopes: readonly string[],
): Promise<{ id: string; token: string }> {
  const owner = await s.app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const created = await createApiTokensService({ db: s.app.db, clock: s.clock }).create(
    owner,
    kind,
    { name: unique('matrix-token'), scopes: [...scopes], expires_in_days: 30 },
    { ip: '127.0.0.1', userAgent: null },
  );
  return { id: created.api_token.id, token: created.token };
}

/** A new personal API token of the fixture user's, for the rows that revoke one. */
const apiTokenIdOf = async (f: Fixtures): Promise<string> =>
  (await mintToken(f.s, f.users.user.id, 'personal', ['licenses:read'])).id;
const newApiTokenBody = (scope: string) => ({ name: unique('token'), scopes: [scope], expires_in_days: 30 });

/** A passkey row of the fixture user's (its key is never used: these rows only name it). */
async function passkeyOf(f: Fixtures): Promise<string> {
  const id = randomUUID();
  await f.s.app.db
    .insertInto('passkeys')
    .values({
      id,
      user_id: f.users.user.id,
      credential_id: randomUUID(),
      public_key: 'AA',
      sign_count: 0,
      transports: null,
      device_type: 'singleDevice',
      backed_up: 0,
      name: 'Matrix key',
      created_at: new Date().toISOString(),
      last_used_at: null,
    })
    .execute();
  return id;
}

/** A ceremony token nobody was given, and an assertion of the right shape. */
const strayPasskeyAnswer = {
  ceremony: 'x'.repeat(43),
  response: {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
    clientExtensionResults: {},
  },
};

const MATRIX: Record<string, Row> = {
  // Health and accounts
  'GET /health': { request: () => ({ path: '/health' }), expect: everyone(200) },
  'GET /health/live': { request: () => ({ path: '/health/live' }), expect: everyone(200) },
  'GET /health/ready': { request: () => ({ path: '/health/ready' }), expect: everyone(200) },
  'POST /auth/login': {
    request: (f) => ({
      path: '/auth/login',
      body: `username=${encodeURIComponent(f.users.user.email)}&password=${encodeURIComponent(STRONG_PASSWORD)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    expect: everyone(200),
  },
  'POST /auth/login/json': {
    request: (f) => ({
      path: '/auth/login/json',
      body: { username: f.users.user.email, password: STRONG_PASSWORD },
    }),
    expect: everyone(200),
  },
  'POST /auth/register': {
    request: () => ({
      path: '/auth/register',
      body: { email: uniqueEmail('matrix-new'), password: STRONG_PASSWORD },
    }),
    expect: everyone(202),
  },
  'POST /auth/verify-registration': {
    request: () => ({ path: '/auth/verify-registration', body: { token: 'x'.repeat(43) } }),
    expect: everyone(400),
  },
  'POST /auth/resend-verification': {
    request: () => ({ path: '/auth/resend-verification', body: { email: uniqueEmail('matrix-nobody') } }),
    expect: everyone(202),
  },
  'POST /auth/refresh': {
    request: async (f) => ({ path: '/auth/refresh', body: { refresh_token: await freshRefreshToken(f.s) } }),
    expect: everyone(200),
  },
  'POST /auth/refresh-token': {
    request: async (f) => ({
      path: '/auth/refresh-token',
      body: { refresh_token: await freshRefreshToken(f.s) },
    }),
    expect: everyone(200),
  },
  // The body's refresh token is the credential; a bearer token the route may not use (an API
  // token's) only leaves the caller anonymous.
  'POST /auth/logout': {
    request: async (f) => ({ path: '/auth/logout', body: { refreshToken: await freshRefreshToken(f.s) } }),
    expect: everyone(200),
    tokenExpect: { user: 200, otherUser: 200, admin: 200 },
  },
  'POST /auth/logout-all': {
    request: () => ({ path: '/auth/logout-all', freshAccount: true }),
    expect: signedIn(200),
  },
  'POST /auth/logout-others': {
    request: () => ({ path: '/auth/logout-others', freshAccount: true }),
    expect: signedIn(200),
  },
  'GET /users/me/sessions': { request: () => ({ path: '/users/me/sessions' }), expect: signedIn(200) },
  // A session of no one: each caller is told it has no such session (it never ends another's).
  'DELETE /users/me/sessions/{id}': {
    request: () => ({ path: '/users/me/sessions/00000000-0000-4000-8000-000000000000' }),
    expect: signedIn(404),
  },
  // The account's own data: its export, and its deletion (an administrator's is refused: another removes it).
  'GET /users/me/data-export': { request: () => ({ path: '/users/me/data-export' }), expect: signedIn(200) },
  'POST /users/me/data-export': {
    request: () => ({ path: '/users/me/data-export', freshAccount: true }),
    expect: signedIn(202),
  },
  'GET /users/me/deletion': { request: () => ({ path: '/users/me/deletion' }), expect: signedIn(200) },
  'POST /users/me/deletion': {
    request: () => ({ path: '/users/me/deletion', freshAccount: true, body: { confirm: true } }),
    expect: { anonymous: 401, user: 202, otherUser: 202, admin: 409 },
  },
  'DELETE /users/me/deletion': {
    request: () => ({ path: '/users/me/deletion', freshAccount: true }),
    expect: signedIn(409),
  },
  // The mailed link is the credential: no key, no sign-in (a link of no export is 404 to anyone).
  'GET /data-exports/{token}': {
    request: () => ({ path: '/data-exports/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }),
    expect: everyone(404),
  },
  // The body's token, else the bearer token: an anonymous caller with neither is told 401.
  // An API token is not a session's access token: it is not valid here (401).
  'POST /auth/validate-token': {
    request: () => ({ path: '/auth/validate-token' }),
    expect: signedIn(200),
    tokenExpect: { user: 401, otherUser: 401, admin: 401 },
  },
  'POST /auth/forgot-password': {
    request: () => ({ path: '/auth/forgot-password', body: { email: uniqueEmail('matrix-forgot') } }),
    expect: everyone(202),
  },
  'POST /auth/reset-password': {
    request: () => ({
      path: '/auth/reset-password',
      body: { token: 'x'.repeat(43), new_password: STRONG_PASSWORD },
    }),
    expect: everyone(400),
  },
  'POST /auth/change-password': {
    request: () => ({
      path: '/auth/change-password',
      freshAccount: true,
      body: { current_password: STRONG_PASSWORD, new_password: `${STRONG_PASSWORD} again` },
    }),
    expect: signedIn(200),
  },
  'PUT /users/me/password': {
    request: () => ({
      path: '/users/me/password',
      freshAccount: true,
      body: { current_password: STRONG_PASSWORD, new_password: `${STRONG_PASSWORD} again` },
    }),
    expect: signedIn(200),
  },
  'GET /users/me': { request: () => ({ path: '/users/me' }), expect: signedIn(200) },
  'PUT /users/me': {
    request: () => ({ path: '/users/me', body: { full_name: 'Matrix Person' } }),
    expect: signedIn(200),
  },
  'PUT /users/me/preferences': {
    request: () => ({ path: '/users/me/preferences', body: { theme: 'dark' } }),
    expect: signedIn(200),
  },

  // Passkeys
  'GET /users/me/passkeys': { request: () => ({ path: '/users/me/passkeys' }), expect: signedIn(200) },
  'POST /users/me/passkeys/options': {
    request: () => ({ path: '/users/me/passkeys/options' }),
    expect: signedIn(200),
  },
  'POST /users/me/passkeys': {
    request: () => ({
      path: '/users/me/passkeys',
      body: {
        ceremony: 'x'.repeat(43),
        name: 'Matrix key',
        response: {
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'public-key',
          response: { clientDataJSON: 'e30', attestationObject: 'AAAA' },
          clientExtensionResults: {},
        },
      },
    }),
    expect: signedIn(400),
  },
  'PATCH /users/me/passkeys/{passkeyId}': {
    request: async (f) => ({ path: `/users/me/passkeys/${await passkeyOf(f)}`, body: { name: 'Renamed' } }),
    expect: ownerOnly(200),
  },
  'DELETE /users/me/passkeys/{passkeyId}': {
    request: async (f) => ({ path: `/users/me/passkeys/${await passkeyOf(f)}` }),
    expect: ownerOnly(204),
  },
  'POST /auth/passkeys/options': {
    request: () => ({ path: '/auth/passkeys/options' }),
    expect: everyone(200),
  },
  'POST /auth/passkeys/login': {
    request: () => ({ path: '/auth/passkeys/login', body: strayPasskeyAnswer }),
    expect: everyone(400),
  },

  // Single sign-on: the address's domain decides, whoever asks; nothing is set up in the fixtures.
  'POST /auth/sso/discover': {
    request: () => ({ path: '/auth/sso/discover', body: { email: 'someone@matrix.example' } }),
    expect: everyone(200),
  },
  'POST /auth/sso/start': {
    request: () => ({ path: '/auth/sso/start', body: { email: 'someone@matrix.example' } }),
    expect: everyone(404),
  },
  // Always a redirect back to the portal, here with the refusal of a missing state.
  'GET /auth/sso/callback': {
    request: () => ({ path: '/auth/sso/callback?code=x' }),
    expect: everyone(302),
  },
  'POST /auth/sso/complete': {
    request: () => ({ path: '/auth/sso/complete', body: { code: 'x'.repeat(43) } }),
    expect: everyone(401),
  },
  // Public, for identity providers: an organisation that does not exist has no metadata.
  'GET /auth/sso/saml/{organisationId}/metadata': {
    request: () => ({ path: `/auth/sso/saml/${randomUUID()}/metadata` }),
    expect: everyone(404),
  },
  // Always a redirect, here to /login with the refusal of a RelayState never given.
  'POST /auth/sso/saml/{organisationId}/acs': {
    request: () => ({
      path: `/auth/sso/saml/${randomUUID()}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'SAMLResponse=eA%3D%3D&RelayState=never-given',
    }),
    expect: everyone(303),
  },
  'POST /auth/step-up/passkey-options': {
    // A fresh account has no passkey to offer.
    request: () => ({ path: '/auth/step-up/passkey-options', freshAccount: true }),
    expect: signedIn(400),
  },
  'POST /auth/step-up/passkey': {
    request: () => ({ path: '/auth/step-up/passkey', body: strayPasskeyAnswer }),
    expect: signedIn(400),
  },

  // Two-factor sign-in and step-up. No API token reaches these rows, whatever its scopes.
  'POST /auth/login/second-factor': {
    request: () => ({
      path: '/auth/login/second-factor',
      body: { challenge: 'x'.repeat(43), code: '123456' },
    }),
    expect: everyone(401),
  },
  'POST /auth/step-up': {
    request: () => ({ path: '/auth/step-up', body: { password: STRONG_PASSWORD } }),
    expect: signedIn(200),
  },
  'GET /users/me/two-factor': { request: () => ({ path: '/users/me/two-factor' }), expect: signedIn(200) },
  'POST /users/me/two-factor/totp': {
    request: () => ({ path: '/users/me/two-factor/totp', freshAccount: true }),
    expect: signedIn(200),
  },
  // A fresh account has started no enrolment and has no app to remove nor codes to renew.
  'POST /users/me/two-factor/totp/confirm': {
    request: () => ({
      path: '/users/me/two-factor/totp/confirm',
      freshAccount: true,
      body: { code: '123456' },
    }),
    expect: signedIn(409),
  },
  'DELETE /users/me/two-factor/totp': {
    request: () => ({ path: '/users/me/two-factor/totp', freshAccount: true, body: { code: '123456' } }),
    expect: signedIn(409),
  },
  'POST /users/me/two-factor/recovery-codes': {
    request: () => ({ path: '/users/me/two-factor/recovery-codes', freshAccount: true }),
    expect: signedIn(409),
  },
  'GET /admin/settings/security': {
    request: () => ({ path: '/admin/settings/security' }),
    expect: adminOnly(200),
  },
  'PUT /admin/settings/security': {
    request: () => ({ path: '/admin/settings/security', body: { require_admin_two_factor: false } }),
    expect: adminOnly(200),
  },

  // Plans
  'GET /plans/public': { request: () => ({ path: '/plans/public' }), expect: everyone(200) },
  'GET /plans/public/{id}': {
    request: (f) => ({ path: `/plans/public/${f.proPlanId}` }),
    expect: everyone(200),
  },
  'GET /plans': { request: () => ({ path: '/plans' }), expect: adminOnly(200) },
  'POST /plans': {
    request: () => ({
      path: '/plans',
      body: {
        code: unique('plan'),
        name: 'New',
        price_minor: 100,
        currency: 'INR',
        billing_interval: 'month',
        max_activations: 1,
      },
    }),
    expect: adminOnly(201),
  },
  'GET /plans/stats': { request: () => ({ path: '/plans/stats' }), expect: adminOnly(200) },
  'GET /plans/{id}': { request: (f) => ({ path: `/plans/${f.proPlanId}` }), expect: adminOnly(200) },
  'PUT /plans/{id}': {
    request: async (f) => ({ path: `/plans/${await newPlan(f)}`, body: { name: 'Renamed' } }),
    expect: adminOnly(200),
  },
  'DELETE /plans/{id}': {
    request: async (f) => ({ path: `/plans/${await newPlan(f)}` }),
    expect: adminOnly(200),
  },
  // Pro is published already: publishing it again answers it as it is, changing nothing.
  'POST /plans/{id}/publish': {
    request: (f) => ({ path: `/plans/${f.proPlanId}/publish` }),
    expect: adminOnly(200),
  },

  // Features
  'GET /admin/features': { request: () => ({ path: '/admin/features' }), expect: adminOnly(200) },
  'POST /admin/features': {
    request: () => ({
      path: '/admin/features',
      body: { key: unique('f').replaceAll('-', '_'), name: 'F', kind: 'boolean' },
    }),
    expect: adminOnly(201),
  },
  'GET /admin/features/stats': { request: () => ({ path: '/admin/features/stats' }), expect: adminOnly(200) },
  'GET /admin/features/{id}': {
    request: (f) => ({ path: `/admin/features/${f.featureId}` }),
    expect: adminOnly(200),
  },
  'PUT /admin/features/{id}': {
    request: async (f) => ({ path: `/admin/features/${await newFeature(f)}`, body: { name: 'Renamed' } }),
    expect: adminOnly(200),
  },
  'DELETE /admin/features/{id}': {
    request: async (f) => ({ path: `/admin/features/${await newFeature(f)}` }),
    expect: adminOnly(204),
  },

  // The user's licenses
  'GET /licenses': { request: () => ({ path: '/licenses' }), expect: signedIn(200) },
  'GET /licenses/current-plan': {
    request: () => ({ path: '/licenses/current-plan' }),
    expect: signedIn(200),
  },
  // Whoever holds a key may activate a machine of their own on it (team members share the
  // owner's key); the owner's machine again is a re-activation for the owner, and a machine
  // another account holds for everyone else (409 machine_activated_by_another_account).
  'POST /licenses/activate': {
    request: (f) => ({
      path: '/licenses/activate',
      body: { license_key: f.licenseKey, hardware_id: f.hardwareId },
    }),
    expect: { anonymous: 401, user: 200, otherUser: 409, admin: 409 },
  },
  // Each signed-in caller has (or gets) a Base license of their own: the token's call, after the
  // session's, finds it there.
  'POST /licenses/activate-base': {
    request: (f) => ({ path: '/licenses/activate-base', body: { hardware_id: f.hardwareId } }),
    expect: { anonymous: 401, user: 200, otherUser: 201, admin: 201 },
    tokenExpect: { otherUser: 200, admin: 200 },
  },
  'POST /organisations/{organisationId}/seat/activate': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/seat/activate`,
      body: { hardware_id: `hw-matrix-${randomUUID()}` },
    }),
    // The owner of a fresh organisation holds no seat yet; a platform administrator holds none either.
    { owner: 403, orgAdmin: 201, member: 201, outsider: 404, platformAdmin: 403 },
  ),
  // Members check a floating seat out signed in; the fixture's organisation has named seats.
  'POST /organisations/{organisationId}/floating/checkout': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/floating/checkout`,
      body: { hardware_id: `hw-matrix-${randomUUID()}` },
    }),
    { owner: 409, orgAdmin: 409, member: 409, outsider: 404, platformAdmin: 403 },
  ),
  // Pro yearly offers no trial: every signed-in caller is told so.
  'POST /licenses/trials': {
    request: () => ({ path: '/licenses/trials', body: { plan_id: 'pro-yearly' } }),
    expect: signedIn(409),
  },
  'POST /licenses/activate-plan': {
    request: () => ({ path: '/licenses/activate-plan', body: { planId: 'base' } }),
    expect: signedIn(200),
  },
  'GET /licenses/{id}': { request: (f) => ({ path: `/licenses/${f.licenseId}` }), expect: ownerOnly(200) },
  'POST /licenses/{id}/deactivate': {
    request: (f) => ({
      path: `/licenses/${f.licenseId}/deactivate`,
      body: { activation_id: 'not-an-activation' },
    }),
    expect: ownerOnly(404),
  },
  'PATCH /licenses/{id}/activations/{activationId}': {
    request: (f) => ({
      path: `/licenses/${f.licenseId}/activations/${f.activationId}`,
      body: { label: 'Matrix machine' },
    }),
    expect: ownerOnly(200),
  },
  'GET /licenses/{id}/usage': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/usage` }),
    expect: ownerOnly(200),
  },
  'POST /licenses/{id}/usage': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/usage`, body: { featureId: 'ai_chat' } }),
    expect: ownerOnly(200),
  },
  'POST /licenses/{id}/usage/events': {
    request: (f) => ({
      path: `/licenses/${f.licenseId}/usage/events`,
      body: { events: [{ id: `matrix-${randomUUID()}`, feature: 'ai_chat', amount: 1 }] },
    }),
    expect: ownerOnly(200),
  },
  // The holder may order packs, but the fixture's plan sells none; nobody else sees the license.
  'POST /licenses/{id}/usage/packs': {
    request: (f) => ({
      path: `/licenses/${f.licenseId}/usage/packs`,
      body: { feature: 'ai_chat', quantity: 1 },
    }),
    expect: { anonymous: 401, user: 409, otherUser: 404, admin: 404 },
  },
  'POST /usage/events': {
    request: (f) => ({
      path: '/usage/events',
      body: {
        events: [{ license_id: f.licenseId, id: `matrix-${randomUUID()}`, feature: 'ai_chat', amount: 1 }],
      },
    }),
    expect: adminOnly(200),
  },
  'GET /usage/licenses/{id}': {
    request: (f) => ({ path: `/usage/licenses/${f.licenseId}` }),
    expect: adminOnly(200),
  },
  'GET /licenses/{id}/features': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/features` }),
    expect: ownerOnly(200),
  },
  'GET /licenses/{id}/features/{featureId}': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/features/ai_chat` }),
    expect: ownerOnly(200),
  },
  'PUT /licenses/{id}/plan': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/plan`, body: { planId: 'base' } }),
    expect: ownerOnly(200),
  },
  'GET /licenses/{id}/download': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/download` }),
    expect: ownerOnly(200),
  },
  // Checks from the desktop: the key and machine are the credentials, not a sign-in.
  'POST /licenses/validate': {
    request: (f) => ({
      path: '/licenses/validate',
      body: { license_key: f.licenseKey, hardware_id: f.hardwareId },
    }),
    expect: everyone(200),
  },
  'GET /licensing/status': {
    request: (f) => ({
      path: `/licensing/status?license_key=${encodeURIComponent(f.licenseKey)}&hardware_id=${f.hardwareId}`,
    }),
    expect: everyone(200),
  },
  'GET /licensing/public-key': { request: () => ({ path: '/licensing/public-key' }), expect: everyone(200) },
  // Floating seats: the key and machine are the credentials; the fixture's license is node-locked.
  ...Object.fromEntries(
    ['checkout', 'heartbeat', 'release', 'borrow', 'return'].map((action) => [
      `POST /licensing/floating/${action}`,
      {
        request: (f: Fixtures) => ({
          path: `/licensing/floating/${action}`,
          body: {
            license_key: f.licenseKey,
            hardware_id: f.hardwareId,
            ...(action === 'borrow' ? { days: 1 } : {}),
          },
        }),
        expect: everyone(409),
      } satisfies Row,
    ]),
  ),
  // The owner and administrators see and free a floating license's seats; the fixture's is not floating.
  'GET /licenses/{id}/floating/seats': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/floating/seats` }),
    expect: { anonymous: 401, user: 409, otherUser: 404, admin: 409 },
  },
  'DELETE /licenses/{id}/floating/seats/{seatId}': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/floating/seats/${randomUUID()}` }),
    expect: { anonymous: 401, user: 409, otherUser: 404, admin: 409 },
  },
  'GET /licenses/{id}/floating/peaks': {
    request: (f) => ({ path: `/licenses/${f.licenseId}/floating/peaks` }),
    expect: { anonymous: 401, user: 409, otherUser: 404, admin: 409 },
  },
  // A machine's trial before any account: no sign-in; no plan offers a trial here, whoever asks.
  'POST /machine-trials': {
    request: (f) => ({ path: '/machine-trials', body: { hardware_id: f.hardwareId } }),
    expect: everyone(409),
  },
  'GET /admin/licensing/settings': {
    request: () => ({ path: '/admin/licensing/settings' }),
    expect: adminOnly(200),
  },
  'PUT /admin/licensing/settings': {
    request: () => ({ path: '/admin/licensing/settings', body: { seat_reclaim_after_days: 30 } }),
    expect: adminOnly(200),
  },
  // The signed link is the credential: no key, no sign-in.
  'GET /downloads/{token}': {
    request: (f) => ({ path: `/downloads/${f.downloadToken}` }),
    expect: everyone(200),
  },
  // Updates: the check's key and machine are the credentials, then the feed's signed token.
  'POST /updates/check': {
    request: (f) => ({
      path: '/updates/check',
      body: { license_key: f.licenseKey, hardware_id: f.hardwareId, platform: 'windows' },
    }),
    expect: everyone(200),
  },
  'GET /update-feed/{token}/{channelFile}': {
    request: async (f) => ({ path: `${await updateFeedOf(f)}latest.yml` }),
    expect: everyone(200),
  },
  'GET /update-feed/{token}/files/{releaseId}/{fileName}': {
    request: async (f) => {
      const release = await fixtureReleaseOf(f);
      return { path: `${await updateFeedOf(f)}files/${release.id}/${encodeURIComponent(release.file_name)}` };
    },
    expect: everyone(200),
  },
  'GET /admin/releases': { request: () => ({ path: '/admin/releases' }), expect: adminOnly(200) },
  'PATCH /admin/releases/{releaseId}': {
    request: async (f) => ({
      path: `/admin/releases/${(await fixtureReleaseOf(f)).id}`,
      body: { release_notes: 'Edited by the matrix' },
    }),
    expect: adminOnly(200),
  },

  // Activation by file. A request file for the fixture's machine (the user's seat): its owner gets
  // the license file (again as 200 with a token), anyone else presenting the machine finds it held
  // as online; an administrator's own route takes a second request of the same machine for the
  // owner. The proof names no license file, so every signed-in caller gets 404.
  'POST /licenses/offline-activations': {
    request: async (f) => ({
      path: '/licenses/offline-activations',
      body: await offlineRequestOf(f, 'customer'),
    }),
    expect: { anonymous: 401, user: 201, otherUser: 409, admin: 409 },
    tokenExpect: { user: 200 },
  },
  'POST /admin/offline-activations': {
    request: async (f) => ({ path: '/admin/offline-activations', body: await offlineRequestOf(f, 'admin') }),
    expect: adminOnly(201),
    tokenExpect: { admin: 200 },
  },
  'POST /licenses/offline-deactivations': {
    request: (f) => ({ path: '/licenses/offline-deactivations', body: unknownProof(f) }),
    expect: signedIn(404),
  },
  'POST /admin/offline-deactivations': {
    request: (f) => ({ path: '/admin/offline-deactivations', body: unknownProof(f) }),
    expect: adminOnly(404),
  },

  // Administration
  'GET /admin/dashboard': { request: () => ({ path: '/admin/dashboard' }), expect: adminOnly(200) },
  'GET /admin/users': { request: () => ({ path: '/admin/users?perPage=5' }), expect: adminOnly(200) },
  'POST /admin/users': {
    request: () => ({
      path: '/admin/users',
      body: { email: uniqueEmail('matrix-made'), password: STRONG_PASSWORD },
    }),
    expect: adminOnly(201),
  },
  'GET /admin/users/{id}': {
    request: (f) => ({ path: `/admin/users/${f.users.user.id}` }),
    expect: adminOnly(200),
  },
  'PUT /admin/users/{id}': {
    request: async (f) => ({ path: `/admin/users/${await newUser(f)}`, body: { full_name: 'Edited' } }),
    expect: adminOnly(200),
  },
  'POST /admin/users/{id}/resend-confirmation': {
    request: async (f) => ({ path: `/admin/users/${await newUnconfirmedUser(f)}/resend-confirmation` }),
    expect: adminOnly(202),
  },
  'DELETE /admin/users/{id}': {
    request: async (f) => ({ path: `/admin/users/${await newUser(f)}` }),
    expect: adminOnly(204),
  },
  'POST /admin/users/{id}/data-export': {
    request: async (f) => ({ path: `/admin/users/${await newUser(f)}/data-export` }),
    expect: adminOnly(202),
  },
  'POST /admin/users/{id}/erase': {
    request: async (f) => ({ path: `/admin/users/${await newUser(f)}/erase`, body: { reason: 'matrix' } }),
    expect: adminOnly(204),
  },
  'GET /admin/licenses': { request: () => ({ path: '/admin/licenses?perPage=5' }), expect: adminOnly(200) },
  'POST /admin/licenses': {
    request: (f) => ({
      path: '/admin/licenses',
      body: { user_id: f.users.otherUser.id, plan_id: f.proPlanId },
    }),
    expect: adminOnly(201),
  },
  'GET /admin/licenses/{id}': {
    request: (f) => ({ path: `/admin/licenses/${f.licenseId}` }),
    expect: adminOnly(200),
  },
  'PUT /admin/licenses/{id}': {
    request: async (f) => ({
      path: `/admin/licenses/${await newLicenseOf(f)}`,
      body: { max_activations: 4 },
    }),
    expect: adminOnly(200),
  },
  'POST /admin/licenses/{id}/revoke': {
    request: async (f) => ({
      path: `/admin/licenses/${await newLicenseOf(f)}/revoke?reason=${encodeURIComponent('Matrix check')}`,
    }),
    expect: adminOnly(200),
  },
  // A license bought, not a trial: the administrator is told it is not one.
  'POST /admin/licenses/{id}/trial': {
    request: async (f) => ({
      path: `/admin/licenses/${await newLicenseOf(f)}/trial`,
      body: { action: 'end' },
    }),
    expect: adminOnly(409),
  },
  'POST /admin/licenses/{id}/usage/grants': {
    request: (f) => ({
      path: `/admin/licenses/${f.licenseId}/usage/grants`,
      body: { feature: 'ai_chat', units: 10, reason: 'Matrix check' },
    }),
    expect: adminOnly(201),
  },
  'POST /admin/licenses/{id}/deactivations/reset': {
    request: (f) => ({
      path: `/admin/licenses/${f.licenseId}/deactivations/reset`,
      body: { reason: 'Matrix check' },
    }),
    expect: adminOnly(200),
  },
  'GET /admin/licenses/{id}/activations': {
    request: (f) => ({ path: `/admin/licenses/${f.licenseId}/activations` }),
    expect: adminOnly(200),
  },
  'POST /admin/licenses/{id}/activations/{activationId}/deactivate': {
    request: async (f) => {
      const licenseId = await newLicenseOf(f);
      const key = (
        await f.s.app.db
          .selectFrom('licenses')
          .select('license_key')
          .where('id', '=', licenseId)
          .executeTakeFirstOrThrow()
      ).license_key;
      const activated = await f.s.api({
        method: 'POST',
        path: '/licenses/activate',
        token: f.users.user.token,
        body: { license_key: key, hardware_id: f.hardwareId },
      });
      const activationId = activated.json<ActivationResult>().activation.activation_id;
      return { path: `/admin/licenses/${licenseId}/activations/${activationId}/deactivate` };
    },
    expect: adminOnly(200),
  },
  'PATCH /admin/licenses/{id}/activations/{activationId}': {
    request: (f) => ({
      path: `/admin/licenses/${f.licenseId}/activations/${f.activationId}`,
      body: { label: 'Named by an administrator' },
    }),
    expect: adminOnly(200),
  },
  // Payments: buyers see only their own; an administrator looks through /payments/admin.
  'GET /payments/config': { request: () => ({ path: '/payments/config' }), expect: signedIn(200) },
  'POST /payments/razorpay/create-order': {
    request: () => ({ path: '/payments/razorpay/create-order', body: { plan_id: 'pro-monthly' } }),
    expect: signedIn(201),
  },
  'POST /payments/sandbox/orders/{orderId}/complete': {
    request: async (f) => {
      const order = await openOrder(f.s, f.users.user.token, 'pro-monthly');
      return {
        path: `/payments/sandbox/orders/${order.order_id}/complete`,
        body: { outcome: 'pay' },
      };
    },
    expect: ownerOnly(200),
  },
  // Verifying the owner's paid order again is idempotent; anybody else's verify finds no order.
  'POST /payments/razorpay/verify': {
    request: (f) => ({ path: '/payments/razorpay/verify', body: f.checkout }),
    expect: ownerOnly(200),
  },
  'GET /payments/status/{id}': {
    request: (f) => ({ path: `/payments/status/${f.paymentId}` }),
    expect: ownerOnly(200),
  },
  'GET /payments/history': { request: () => ({ path: '/payments/history' }), expect: signedIn(200) },
  // A declined order of the owner's: only the owner may hide it.
  'POST /payments/history/{id}/dismiss': {
    request: async (f) => {
      const order = await openOrder(f.s, f.users.user.token, 'pro-monthly');
      await declineInSandbox(f.s, f.users.user.token, order.order_id);
      return { path: `/payments/history/${order.id}/dismiss` };
    },
    expect: ownerOnly(200),
  },
  // Coupons: anyone signed in previews a code on a plan; administrators make and change them.
  'POST /coupons/preview': {
    request: async (f) => ({
      path: '/coupons/preview',
      body: { code: await couponCodeOf(f), plan_id: 'pro-monthly' },
    }),
    expect: signedIn(200),
  },
  'GET /admin/coupons': { request: () => ({ path: '/admin/coupons' }), expect: adminOnly(200) },
  'POST /admin/coupons': {
    request: () => ({ path: '/admin/coupons', body: { code: unique('matrix'), percent_off: 10 } }),
    expect: adminOnly(201),
  },
  'PUT /admin/coupons/{id}': {
    request: async (f) => ({
      path: `/admin/coupons/${await couponIdOf(f)}`,
      body: { description: 'Matrix' },
    }),
    expect: adminOnly(200),
  },
  // Subscriptions: the customer's own; another user (and an administrator here) finds none (404).
  'GET /subscriptions': { request: () => ({ path: '/subscriptions' }), expect: signedIn(200) },
  'POST /subscriptions': {
    request: () => ({ path: '/subscriptions', body: { plan_id: 'pro-yearly' } }),
    expect: signedIn(201),
  },
  'POST /payments/sandbox/subscriptions/{id}/complete': {
    request: async (f) => ({
      path: `/payments/sandbox/subscriptions/${await openSubscriptionOf(f)}/complete`,
      body: { outcome: 'pay' },
    }),
    expect: ownerOnly(200),
  },
  'POST /subscriptions/verify': {
    request: async (f) => {
      const id = await openSubscriptionOf(f);
      const paid = await f.s.api({
        method: 'POST',
        path: `/payments/sandbox/subscriptions/${id}/complete`,
        token: f.users.user.token,
        body: { outcome: 'pay' },
      });
      return { path: '/subscriptions/verify', body: paid.json() };
    },
    expect: ownerOnly(200),
  },
  'GET /subscriptions/{id}': {
    request: async (f) => ({ path: `/subscriptions/${await newSubscriptionOf(f)}` }),
    expect: ownerOnly(200),
  },
  'POST /subscriptions/{id}/cancel': {
    request: async (f) => ({ path: `/subscriptions/${await newSubscriptionOf(f)}/cancel`, body: {} }),
    expect: ownerOnly(200),
  },
  'POST /subscriptions/{id}/resume': {
    request: async (f) => {
      const id = await newSubscriptionOf(f);
      await f.s.api({
        method: 'POST',
        path: `/subscriptions/${id}/cancel`,
        token: f.users.user.token,
        body: {},
      });
      return { path: `/subscriptions/${id}/resume` };
    },
    expect: ownerOnly(200),
  },
  'POST /subscriptions/{id}/pause': {
    request: async (f) => ({
      path: `/subscriptions/${await newSubscriptionOf(f)}/pause`,
      body: { periods: 1 },
    }),
    expect: ownerOnly(200),
  },
  'POST /subscriptions/{id}/unpause': {
    request: async (f) => {
      const id = await newSubscriptionOf(f);
      await f.s.api({
        method: 'POST',
        path: `/subscriptions/${id}/pause`,
        token: f.users.user.token,
        body: { periods: 1 },
      });
      return { path: `/subscriptions/${id}/unpause` };
    },
    expect: ownerOnly(200),
  },
  'POST /subscriptions/{id}/plan/quote': {
    request: async (f) => ({
      path: `/subscriptions/${await newSubscriptionOf(f)}/plan/quote`,
      body: { plan_id: 'pro-yearly' },
    }),
    expect: ownerOnly(200),
  },
  'POST /subscriptions/{id}/plan': {
    request: async (f) => ({
      path: `/subscriptions/${await newSubscriptionOf(f)}/plan`,
      body: { plan_id: 'pro-yearly' },
    }),
    expect: ownerOnly(200),
  },
  'PUT /subscriptions/{id}/payment-method': {
    request: async (f) => ({
      path: `/subscriptions/${await newSubscriptionOf(f)}/payment-method`,
      body: { sandbox_card: 'succeeds' },
    }),
    expect: ownerOnly(200),
  },
  // The sandbox has no card to change (its controls choose whether it pays): its owner is told so.
  'POST /subscriptions/{id}/card-change': {
    request: async (f) => ({ path: `/subscriptions/${await newSubscriptionOf(f)}/card-change` }),
    expect: { ...ownerOnly(200), user: 409 },
  },
  'POST /subscriptions/{id}/card-change/verify': {
    request: async (f) => {
      const id = await newSubscriptionOf(f);
      return {
        path: `/subscriptions/${id}/card-change/verify`,
        body: {
          razorpay_subscription_id: id,
          razorpay_payment_id: 'pay_Matrix01',
          razorpay_signature: 'sig',
        },
      };
    },
    expect: { ...ownerOnly(200), user: 409 },
  },
  // Nothing is due on a paid-up subscription: its owner is told so, anybody else finds none.
  'POST /subscriptions/{id}/pay': {
    request: async (f) => ({ path: `/subscriptions/${await newSubscriptionOf(f)}/pay` }),
    expect: { ...ownerOnly(200), user: 409 },
  },
  'POST /subscriptions/{id}/sandbox/renew': {
    request: async (f) => ({ path: `/subscriptions/${await newSubscriptionOf(f)}/sandbox/renew` }),
    expect: ownerOnly(200),
  },
  // Buying seats, for a subscribed role organisation: each request asks for one seat more than it has.
  'POST /organisations/{organisationId}/seats/quote': organisationRow(
    async (o) => ({
      path: `/organisations/${o.organisationId}/seats/quote`,
      body: { seats: (await billedSeatsOf(o)) + 1 },
    }),
    managers(200),
  ),
  'POST /organisations/{organisationId}/seats': organisationRow(
    async (o) => ({
      path: `/organisations/${o.organisationId}/seats`,
      body: { seats: (await billedSeatsOf(o)) + 1 },
    }),
    managers(200),
  ),
  // Organisations: an outsider is told the organisation does not exist (404), a member may look
  // and leave, owners and admins manage, the owner alone transfers ownership.
  'POST /organisations': {
    request: () => ({ path: '/organisations', body: { name: 'Matrix created organisation' } }),
    expect: signedIn(201),
  },
  'GET /organisations': { request: () => ({ path: '/organisations' }), expect: signedIn(200) },
  'GET /organisations/{organisationId}': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}` }),
    anyMember(200),
  ),
  'PATCH /organisations/{organisationId}': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}`, body: { name: 'Matrix renamed' } }),
    managers(200),
  ),
  'GET /organisations/{organisationId}/members': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/members` }),
    anyMember(200),
  ),
  'PATCH /organisations/{organisationId}/members/{userId}': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/members/${o.accounts.target.id}`,
      body: { role: 'admin' },
    }),
    managers(200),
  ),
  'DELETE /organisations/{organisationId}/members/{userId}': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/members/${o.accounts.target.id}` }),
    managers(204),
  ),
  // The owner holds no seat yet: assigning one is a real change.
  'PUT /organisations/{organisationId}/members/{userId}/seat': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/members/${o.owner.id}/seat` }),
    managers(200),
  ),
  'DELETE /organisations/{organisationId}/members/{userId}/seat': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/members/${o.accounts.target.id}/seat` }),
    managers(200),
  ),
  'PUT /organisations/{organisationId}/members/{userId}/usage-caps': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/members/${o.accounts.target.id}/usage-caps`,
      body: { caps: [{ feature: 'ai_chat', cap: 100 }] },
    }),
    managers(200),
  ),
  'GET /organisations/{organisationId}/usage': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/usage` }),
    managers(200),
  ),
  'GET /organisations/{organisationId}/exports/seat-ledger': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/exports/seat-ledger?format=jsonl` }),
    managers(200),
  ),
  'GET /organisations/{organisationId}/exports/security-events': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/exports/security-events?from=2026-01-01` }),
    managers(200),
  ),
  'GET /organisations/{organisationId}/domains': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/domains` }),
    managers(200),
  ),
  // Claims, proofs and removals are the owner's (and support's), not the organisation's admins'.
  'POST /organisations/{organisationId}/domains': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/domains`,
      body: { domain: `matrix-${randomUUID().slice(0, 8)}.example` },
    }),
    { ...managers(201), orgAdmin: 403 },
  ),
  'POST /organisations/{organisationId}/domains/{domainId}/verify': organisationRow(
    async (o) => ({ path: `/organisations/${o.organisationId}/domains/${await claimedDomain(o)}/verify` }),
    { ...managers(200), orgAdmin: 403 },
  ),
  'DELETE /organisations/{organisationId}/domains/{domainId}': organisationRow(
    async (o) => ({ path: `/organisations/${o.organisationId}/domains/${await claimedDomain(o)}` }),
    { ...managers(204), orgAdmin: 403 },
  ),
  'GET /organisations/{organisationId}/sso': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/sso` }),
    managers(200),
  ),
  // Owners and admins reach the check that a verified domain comes first (the fixtures hold none).
  'PUT /organisations/{organisationId}/sso': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/sso`,
      body: { issuer: 'https://idp.matrix.example', client_id: 'portal', client_secret: 'matrix-secret' },
    }),
    managers(409),
  ),
  'PUT /organisations/{organisationId}/sso/saml': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/sso/saml`,
      body: { metadata_url: 'https://idp.matrix.example/metadata' },
    }),
    managers(409),
  ),
  'DELETE /organisations/{organisationId}/sso': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/sso` }),
    managers(404),
  ),
  'POST /organisations/{organisationId}/sso/test': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/sso/test` }),
    managers(404),
  ),
  'GET /organisations/{organisationId}/provisioning': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/provisioning` }),
    managers(200),
  ),
  // The SCIM token and the groups' roles are the owner's (and support's), not the admins'.
  'POST /organisations/{organisationId}/provisioning/token': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/provisioning/token` }),
    { ...managers(201), orgAdmin: 403 },
  ),
  'POST /organisations/{organisationId}/provisioning/token/rotate': organisationRow(
    async (o) => {
      await scimTokenOf(o);
      return { path: `/organisations/${o.organisationId}/provisioning/token/rotate` };
    },
    { ...managers(200), orgAdmin: 403 },
  ),
  'DELETE /organisations/{organisationId}/provisioning/token': organisationRow(
    async (o) => {
      await scimTokenOf(o);
      return { path: `/organisations/${o.organisationId}/provisioning/token` };
    },
    { ...managers(204), orgAdmin: 403 },
  ),
  'PUT /organisations/{organisationId}/provisioning/groups/{groupId}/role': organisationRow(
    async (o) => ({
      path: `/organisations/${o.organisationId}/provisioning/groups/${await pushedGroup(o)}/role`,
      body: { role: 'admin' },
    }),
    { ...managers(200), orgAdmin: 403 },
  ),
  'GET /scim/v2/ServiceProviderConfig': scimRow('/scim/v2/ServiceProviderConfig'),
  'GET /scim/v2/ResourceTypes': scimRow('/scim/v2/ResourceTypes'),
  'GET /scim/v2/ResourceTypes/{name}': scimRow('/scim/v2/ResourceTypes/User'),
  'GET /scim/v2/Schemas': scimRow('/scim/v2/Schemas'),
  'GET /scim/v2/Schemas/{id}': scimRow('/scim/v2/Schemas/urn:ietf:params:scim:schemas:core:2.0:User'),
  'GET /scim/v2/Users': scimRow('/scim/v2/Users'),
  'POST /scim/v2/Users': scimRow('/scim/v2/Users', { userName: 'matrix@example.com' }),
  'GET /scim/v2/Users/{id}': scimRow(`/scim/v2/Users/${randomUUID()}`),
  'PUT /scim/v2/Users/{id}': scimRow(`/scim/v2/Users/${randomUUID()}`, { userName: 'matrix@example.com' }),
  'PATCH /scim/v2/Users/{id}': scimRow(`/scim/v2/Users/${randomUUID()}`, {
    Operations: [{ op: 'replace', path: 'active', value: 'False' }],
  }),
  'DELETE /scim/v2/Users/{id}': scimRow(`/scim/v2/Users/${randomUUID()}`),
  'GET /scim/v2/Groups': scimRow('/scim/v2/Groups'),
  'POST /scim/v2/Groups': scimRow('/scim/v2/Groups', { displayName: 'Matrix' }),
  'GET /scim/v2/Groups/{id}': scimRow(`/scim/v2/Groups/${randomUUID()}`),
  'PUT /scim/v2/Groups/{id}': scimRow(`/scim/v2/Groups/${randomUUID()}`, { displayName: 'Matrix' }),
  'PATCH /scim/v2/Groups/{id}': scimRow(`/scim/v2/Groups/${randomUUID()}`, {
    Operations: [{ op: 'add', path: 'members', value: [] }],
  }),
  'DELETE /scim/v2/Groups/{id}': scimRow(`/scim/v2/Groups/${randomUUID()}`),
  'POST /organisations/{organisationId}/transfer-ownership': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/transfer-ownership`,
      body: { user_id: o.accounts.target.id },
    }),
    { ...managers(200), orgAdmin: 403 },
  ),
  // The owner transfers first (409); a platform administrator is no member to leave (409).
  'POST /organisations/{organisationId}/leave': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/leave` }),
    { owner: 409, orgAdmin: 204, member: 204, outsider: 404, platformAdmin: 409 },
  ),
  'GET /organisations/{organisationId}/invitations': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/invitations` }),
    managers(200),
  ),
  'POST /organisations/{organisationId}/invitations': organisationRow(
    (o) => ({
      path: `/organisations/${o.organisationId}/invitations`,
      body: { email: uniqueEmail('matrix-invitee') },
    }),
    managers(201),
  ),
  'DELETE /organisations/{organisationId}/invitations/{invitationId}': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/invitations/${o.invitationId}` }),
    managers(200),
  ),
  'POST /organisations/{organisationId}/invitations/{invitationId}/resend': organisationRow(
    (o) => ({ path: `/organisations/${o.organisationId}/invitations/${o.invitationId}/resend` }),
    managers(200),
  ),
  // The link's token is the credential: open to anyone holding it.
  'POST /invitations/preview': {
    request: async (f) => ({
      path: '/invitations/preview',
      body: { token: await invitationTokenFor(f.s, uniqueEmail('matrix-preview')) },
    }),
    expect: everyone(200),
  },
  // Each caller accepts an invitation to its own address.
  'POST /invitations/accept': {
    request: async (f, caller) => ({
      path: '/invitations/accept',
      body: {
        token: await invitationTokenFor(
          f.s,
          caller === 'anonymous' ? uniqueEmail('matrix-accept') : f.users[caller].email,
        ),
      },
    }),
    expect: signedIn(200),
  },
  'POST /invitations/sign-up': {
    request: async (f) => ({
      path: '/invitations/sign-up',
      body: {
        token: await invitationTokenFor(f.s, uniqueEmail('matrix-sign-up')),
        password: STRONG_PASSWORD,
        full_name: 'Matrix Invitee',
      },
    }),
    expect: everyone(200),
  },
  'GET /admin/usage': {
    request: () => ({ path: '/admin/usage?period=previous&sort=-over_allowance' }),
    expect: adminOnly(200),
  },
  'GET /admin/organisations': {
    request: () => ({ path: '/admin/organisations?search=matrix&sort=name' }),
    expect: adminOnly(200),
  },
  'GET /admin/organisations/{organisationId}': {
    request: async (f) => ({
      path: `/admin/organisations/${(await newOrganisationContext(f.s, f.users.user)).organisationId}`,
    }),
    expect: adminOnly(200),
  },
  // Support: anyone signed in writes (each caller a fresh account, clear of the hourly limit) and
  // reads their own; administrators read every request and mark them handled.
  'POST /support/requests': {
    request: () => ({
      path: '/support/requests',
      freshAccount: true,
      body: {
        topic: 'Something else',
        subject: 'Matrix request',
        message: 'A support request written by the authorization matrix.',
      },
    }),
    expect: signedIn(201),
  },
  // Each caller’s own requests, never another account’s (support/support-requests.test.ts shows whose).
  'GET /support/requests': {
    request: () => ({ path: '/support/requests?perPage=5' }),
    expect: signedIn(200),
  },
  'GET /admin/webhooks/event-types': {
    request: () => ({ path: '/admin/webhooks/event-types' }),
    expect: adminOnly(200),
  },
  'GET /admin/webhooks': { request: () => ({ path: '/admin/webhooks?perPage=5' }), expect: adminOnly(200) },
  'POST /admin/webhooks': {
    request: () => ({
      path: '/admin/webhooks',
      body: { url: 'https://127.0.0.1:9/matrix', event_types: ['payment.paid'] },
    }),
    expect: adminOnly(201),
  },
  'GET /admin/webhooks/{endpointId}': {
    request: async (f) => ({ path: `/admin/webhooks/${await webhookEndpointOf(f)}` }),
    expect: adminOnly(200),
  },
  'PATCH /admin/webhooks/{endpointId}': {
    request: async (f) => ({
      path: `/admin/webhooks/${await webhookEndpointOf(f)}`,
      body: { description: 'Changed by the matrix' },
    }),
    expect: adminOnly(200),
  },
  'DELETE /admin/webhooks/{endpointId}': {
    request: async (f) => ({ path: `/admin/webhooks/${await webhookEndpointOf(f)}` }),
    expect: adminOnly(204),
  },
  'POST /admin/webhooks/{endpointId}/rotate-secret': {
    request: async (f) => ({ path: `/admin/webhooks/${await webhookEndpointOf(f)}/rotate-secret` }),
    expect: adminOnly(200),
  },
  'POST /admin/webhooks/{endpointId}/test': {
    request: async (f) => ({ path: `/admin/webhooks/${await webhookEndpointOf(f)}/test` }),
    expect: adminOnly(202),
  },
  'GET /admin/webhooks/{endpointId}/deliveries': {
    request: async (f) => ({ path: `/admin/webhooks/${await webhookEndpointOf(f)}/deliveries` }),
    expect: adminOnly(200),
  },
  'GET /admin/webhooks/deliveries/{deliveryId}': {
    request: async (f) => ({ path: `/admin/webhooks/deliveries/${await webhookDeliveryOf(f)}` }),
    expect: adminOnly(200),
  },
  'POST /admin/webhooks/deliveries/{deliveryId}/redeliver': {
    request: async (f) => ({ path: `/admin/webhooks/deliveries/${await webhookDeliveryOf(f)}/redeliver` }),
    expect: adminOnly(202),
  },
  'GET /admin/support-requests': {
    request: () => ({ path: '/admin/support-requests?perPage=5' }),
    expect: adminOnly(200),
  },
  'PUT /admin/support-requests/{id}/handled': {
    request: async (f) => {
      const id = randomUUID();
      await f.s.app.db
        .insertInto('support_requests')
        .values({
          id,
          reference: `SR-${id.slice(0, 8).toUpperCase()}`,
          user_id: f.users.otherUser.id,
          email: f.users.otherUser.email,
          topic: 'Something else',
          subject: 'Handled?',
          message: 'A request for an administrator to handle.',
          diagnostics: null,
          handled_at: null,
          handled_by: null,
          created_at: f.s.clock.now().toISOString(),
        })
        .execute();
      return { path: `/admin/support-requests/${id}/handled`, body: { handled: true } };
    },
    expect: adminOnly(200),
  },
  'GET /admin/subscriptions': {
    request: () => ({ path: '/admin/subscriptions?perPage=5' }),
    expect: adminOnly(200),
  },
  'GET /admin/subscriptions/{id}': {
    request: async (f) => ({ path: `/admin/subscriptions/${await newSubscriptionOf(f)}` }),
    expect: adminOnly(200),
  },
  'POST /admin/subscriptions/{id}/cancel': {
    request: async (f) => ({
      path: `/admin/subscriptions/${await newSubscriptionOf(f)}/cancel`,
      body: { reason: 'Matrix check' },
    }),
    expect: adminOnly(200),
  },
  'POST /admin/subscriptions/{id}/pause': {
    request: async (f) => ({
      path: `/admin/subscriptions/${await newSubscriptionOf(f)}/pause`,
      body: { periods: 1, reason: 'Matrix check' },
    }),
    expect: adminOnly(200),
  },
  'POST /admin/subscriptions/{id}/unpause': {
    request: async (f) => {
      const id = await newSubscriptionOf(f);
      await f.s.api({
        method: 'POST',
        path: `/subscriptions/${id}/pause`,
        token: f.users.user.token,
        body: { periods: 1 },
      });
      return { path: `/admin/subscriptions/${id}/unpause`, body: { reason: 'Matrix check' } };
    },
    expect: adminOnly(200),
  },
  // Opened from a mail: the signed token in the link is the credential, whoever follows it.
  'GET /notifications/unsubscribe': {
    request: (f) => ({ path: unsubscribePath(f) }),
    expect: everyone(200),
  },
  'POST /notifications/unsubscribe': {
    request: (f) => ({
      path: unsubscribePath(f),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    }),
    expect: everyone(200),
  },
  // Razorpay calls the webhook: its signature is the credential, so an unsigned call is a 400 for anyone.
  'POST /payments/razorpay/webhook': {
    request: () => ({ path: '/payments/razorpay/webhook', body: { event: 'payment.captured', payload: {} } }),
    expect: everyone(400),
  },
  'GET /payments/admin/payments': {
    request: () => ({ path: '/payments/admin/payments?perPage=5' }),
    expect: adminOnly(200),
  },
  'GET /payments/admin/payments/{id}': {
    request: (f) => ({ path: `/payments/admin/payments/${f.paymentId}` }),
    expect: adminOnly(200),
  },
  'GET /payments/admin/payments/{id}/refunds': {
    request: (f) => ({ path: `/payments/admin/payments/${f.paymentId}/refunds` }),
    expect: adminOnly(200),
  },
  // One paisa of the fixture's payment, the license kept: the payment stays paid for the other rows.
  'POST /payments/admin/payments/{id}/refunds': {
    request: (f) => ({
      path: `/payments/admin/payments/${f.paymentId}/refunds`,
      body: { amount: 1, license_action: 'keep' },
    }),
    expect: adminOnly(201),
  },
  'GET /billing/details': { request: () => ({ path: '/billing/details' }), expect: signedIn(200) },
  'PUT /billing/details': {
    request: () => ({
      path: '/billing/details',
      body: { name: 'A', address_line1: 'B', city: 'C', postal_code: '560001', country: 'IN' },
    }),
    expect: signedIn(200),
  },
  'GET /billing/invoices': { request: () => ({ path: '/billing/invoices' }), expect: signedIn(200) },
  // The owner's invoice: administrators read anyone's, another user finds none.
  'GET /billing/invoices/{id}': {
    request: async (f) => ({ path: `/billing/invoices/${await invoiceIdOf(f)}` }),
    expect: { anonymous: 401, user: 200, otherUser: 404, admin: 200 },
  },
  'GET /billing/invoices/{id}/pdf': {
    request: async (f) => ({ path: `/billing/invoices/${await invoiceIdOf(f)}/pdf` }),
    expect: { anonymous: 401, user: 200, otherUser: 404, admin: 200 },
  },
  'GET /admin/users/{id}/invoices': {
    request: (f) => ({ path: `/admin/users/${f.users.user.id}/invoices` }),
    expect: adminOnly(200),
  },
  'GET /admin/security-events': {
    request: () => ({ path: '/admin/security-events?perPage=5' }),
    expect: adminOnly(200),
  },
  'GET /admin/security-events/export': {
    request: () => ({ path: '/admin/security-events/export?format=jsonl&severity=critical' }),
    expect: adminOnly(200),
  },
  'GET /admin/security-events/{id}': {
    request: (f) => ({ path: `/admin/security-events/${f.securityEventId}` }),
    expect: adminOnly(200),
  },
  // API tokens: anyone signed in keeps personal ones; administrators make platform ones and
  // revoke anyone's. No API token reaches these rows, whatever its scopes.
  'GET /users/me/api-tokens': { request: () => ({ path: '/users/me/api-tokens' }), expect: signedIn(200) },
  // Creating needs a recent sign-in: each caller a fresh account, however long the matrix has run.
  'POST /users/me/api-tokens': {
    request: () => ({
      path: '/users/me/api-tokens',
      freshAccount: true,
      body: newApiTokenBody('licenses:read'),
    }),
    expect: signedIn(201),
  },
  'DELETE /users/me/api-tokens/{tokenId}': {
    request: async (f) => ({ path: `/users/me/api-tokens/${await apiTokenIdOf(f)}` }),
    expect: ownerOnly(200),
  },
  'GET /admin/api-tokens': {
    request: () => ({ path: '/admin/api-tokens?perPage=5' }),
    expect: adminOnly(200),
  },
  'POST /admin/api-tokens': {
    request: () => ({ path: '/admin/api-tokens', freshAccount: true, body: newApiTokenBody('admin:read') }),
    expect: adminOnly(201),
  },
  'DELETE /admin/api-tokens/{tokenId}': {
    request: async (f) => ({ path: `/admin/api-tokens/${await apiTokenIdOf(f)}` }),
    expect: adminOnly(200),
  },
};

interface OpenApiDocument {
  paths: Record<string, Record<string, { tags?: string[]; security?: Record<string, unknown>[] }>>;
}

/** What decides a token's fate at an operation: its tags, and whether it reads a bearer token at all. */
interface OperationAccess {
  tags: string[];
  bearer: boolean;
}

function operationAccess(document: OpenApiDocument): Record<string, OperationAccess> {
  return Object.fromEntries(
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => HTTP_METHODS.has(method))
        .map(([method, operation]) => [
          `${method.toUpperCase()} ${operationPath(path)}`,
          {
            tags: operation.tags ?? [],
            bearer: (operation.security ?? []).some((requirement) => 'bearerAuth' in requirement),
          },
        ]),
    ),
  );
}

/** The token kind each signed-in caller holds: customers personal ones, the administrator a platform one. */
const TOKEN_KIND: Record<Exclude<Caller, 'anonymous'>, ApiTokenKind> = {
  user: 'personal',
  otherUser: 'personal',
  admin: 'platform',
};

/**
 * The scope sets that each lack one needed scope: a write scope swapped for the same tag's
 * read scope (reading does not grant writing), a read scope left out (with an unrelated scope
 * so the token holds something).
 */
function lackingOne(needed: string[], kind: ApiTokenKind): string[][] {
  return needed.map((scope) => {
    const rest = needed.filter((other) => other !== scope);
    if (scope.endsWith(':write')) return [...rest, scope.replace(/:write$/, ':read')];
    const unrelated = grantableScopes(kind).find(
      (other) => !needed.some((n) => n.split(':')[0] === other.split(':')[0]),
    );
    return rest.length > 0 ? rest : [unrelated ?? 'support:read'];
  });
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** `METHOD /path` of every documented operation, relative to the API base path. */
function documentedOperations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => HTTP_METHODS.has(method))
      .map((method) => `${method.toUpperCase()} ${operationPath(path)}`),
  );
}

/** The user's sandbox purchase of Pro: an order paid at the sandbox checkout and verified. */
async function buyProMonthly(s: TestServer, user: SignedIn) {
  const order = await openOrder(s, user.token, 'pro-monthly');
  const checkout = await payInSandbox(s, user.token, order.order_id);
  expectVerified(await verifyPayment(s, user.token, checkout));
  return { paymentId: order.id, orderId: order.order_id, checkout };
}

async function setUp(s: TestServer, releasesDir: string): Promise<Fixtures> {
  const users = {
    user: await signIn(s, 'user', 'matrix-owner'),
    otherUser: await signIn(s, 'user', 'matrix-other'),
    admin: await signIn(s, 'admin', 'matrix-admin'),
  };
  const hardwareId = `matrix-machine-${process.pid}`;
  const activation = await activateBase(s, users.user, hardwareId);
  const installer = join(releasesDir, 'matrix-setup.exe');
  await writeFile(installer, 'installer bytes');
  await publishRelease(s.app.db, s.config.licensing.releasesDir, {
    platform: 'windows',
    version: '1.0.0',
    file: installer,
    now: s.clock.now(),
  });
  const download = await s.api({
    path: `/licenses/${activation.license_id}/download`,
    token: users.user.token,
  });
  const url = download.json<{ releases: { url: string }[] }>().releases[0]?.url ?? '';
  const event = await s.app.db.selectFrom('security_events').select('id').limit(1).executeTakeFirstOrThrow();
  return {
    s,
    users,
    licenseId: activation.license_id,
    licenseKey: activation.license_key,
    hardwareId,
    activationId: activation.activation.activation_id,
    featureId: (await s.app.db.selectFrom('features').select('id').limit(1).executeTakeFirstOrThrow()).id,
    downloadToken: url.slice(url.lastIndexOf('/') + 1),
    ...(await buyProMonthly(s, users.user)),
    proPlanId: (
      await s.app.db
        .selectFrom('plans')
        .select('id')
        .where('code', '=', 'pro-monthly')
        .executeTakeFirstOrThrow()
    ).id,
    securityEventId: event.id,
  };
}

describeOnEveryDatabase(
  'authorization matrix',
  (server) => {
    let fixtures: Fixtures;
    let documented: string[];
    let access: Record<string, OperationAccess>;
    let scratch = '';

    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'portal-matrix-'));
      const response = await server().app.inject(OPENAPI_DOCUMENT_PATH);
      documented = documentedOperations(response.json<OpenApiDocument>());
      access = operationAccess(response.json<OpenApiDocument>());
      fixtures = await setUp(server(), scratch);
    });
    afterAll(() => rm(scratch, { recursive: true, force: true }));

    it('has a row for every documented operation and no row without one', () => {
      expect(
        documented.filter((operation) => !(operation in MATRIX)),
        'operations without a row',
      ).toEqual([]);
      expect(
        Object.keys(MATRIX).filter((operation) => !documented.includes(operation)),
        'rows without a route',
      ).toEqual([]);
    });

    describe.each(Object.entries(MATRIX))('%s', (operation, row) => {
      const [method, path] = operation.split(' ') as [ApiRequest['method'], string];

      it.each(CALLERS)('answers %s as the matrix says', async (caller) => {
        const request = await row.request(fixtures, caller);
        const { freshAccount, ...sent } = request;
        let token: string | undefined;
        if (caller !== 'anonymous') {
          token = freshAccount
            ? (await signIn(fixtures.s, caller === 'admin' ? 'admin' : 'user', `matrix-fresh-${caller}`))
                .token
            : fixtures.users[caller].token;
        }
        const response = await send(fixtures.s, { ...sent, method, token });
        expect(response.statusCode, `${caller} → ${operation}: ${response.body}`).toBe(row.expect[caller]);
        expect(response.headers['content-type'] ?? '', 'every answer but a file is JSON').toMatch(
          response.statusCode === 204 ||
            ((path === '/downloads/{token}' || path.startsWith('/update-feed/')) &&
              response.statusCode === 200)
            ? /^/
            : isScim(operation)
              ? /^application\/scim\+json/
              : path === '/billing/invoices/{id}/pdf' && response.statusCode === 200
                ? /^application\/pdf$/
                : path.includes('/export') && response.statusCode === 200
                  ? /^(text\/csv|application\/x-ndjson);/
                  : /application\/json/,
        );
      });

      it('answers API tokens holding the scopes it needs as the session, and refuses one lacking any', async () => {
        const { tags, bearer } = access[operation] ?? { tags: [], bearer: false };
        if (!bearer) return; // Open without a bearer token: a token grants nothing here.
        const { s } = fixtures;
        // One request (and one account, where the row needs a fresh one) per caller, sent with a
        // token of each scope set: a refused scope stops the call before it changes anything, so
        // the calls refused for lacking a scope go first and the one allowed goes last.
        const callerOf = async (caller: Exclude<Caller, 'anonymous'>) => {
          const { freshAccount, ...sent } = await row.request(fixtures, caller);
          const ownerId = freshAccount
            ? (await signIn(s, caller === 'admin' ? 'admin' : 'user', `matrix-token-${caller}`)).id
            : fixtures.users[caller].id;
          return async (scopes: readonly string[]) => {
            const { token } = await mintToken(s, ownerId, TOKEN_KIND[caller], scopes);
            return s.api({ ...sent, method, token });
          };
        };
        type Answer = Awaited<ReturnType<Awaited<ReturnType<typeof callerOf>>>>;
        const expectInsufficientScope = (response: Answer, label: string) => {
          expect(response.statusCode, `${label}: ${response.body}`).toBe(403);
          expect(response.json<{ code: string }>().code, label).toBe('insufficient_scope');
        };
        const needed = scopesNeeded(tags, method ?? 'GET');
        for (const caller of ['user', 'otherUser', 'admin'] as const) {
          const kind = TOKEN_KIND[caller];
          const grantable: readonly string[] = grantableScopes(kind);
          const callWith = await callerOf(caller);
          if (needed.length === 0 || !needed.every((scope) => grantable.includes(scope))) {
            // No token of this kind can hold what the operation needs: even one holding every scope is refused.
            const response = await callWith(grantable);
            const label = `${kind} token with every scope → ${operation}`;
            if (row.tokenExpect?.[caller] === undefined) expectInsufficientScope(response, label);
            else expect(response.statusCode, `${label}: ${response.body}`).toBe(row.tokenExpect[caller]);
            continue;
          }
          for (const scopes of lackingOne(needed, kind)) {
            expectInsufficientScope(
              await callWith(scopes),
              `${kind} token [${scopes.join(' ')}] → ${operation}`,
            );
          }
          const response = await callWith(needed);
          expect(
            response.statusCode,
            `${kind} token of ${caller} [${needed.join(' ')}] → ${operation}: ${response.body}`,
          ).toBe(row.tokenExpect?.[caller] ?? row.expect[caller]);
        }
      });

      const organisationRoles = row.organisationRoles;
      if (organisationRoles)
        it.each(ORGANISATION_CALLERS)('answers the organisation’s %s as the matrix says', async (role) => {
          const context = await newOrganisationContext(fixtures.s, fixtures.users.user);
          const callers: Record<OrganisationCaller, SignedIn> = {
            owner: fixtures.users.user,
            orgAdmin: context.accounts.orgAdmin,
            member: context.accounts.member,
            outsider: fixtures.users.otherUser,
            platformAdmin: fixtures.users.admin,
          };
          const response = await fixtures.s.api({
            ...(await organisationRoles.request(context)),
            method,
            token: callers[role].token,
          });
          expect(response.statusCode, `${role} → ${operation}: ${response.body}`).toBe(
            organisationRoles.expect[role],
          );
        });

      it(`is ${NO_API_KEY_NEEDED.has(operation) ? 'open' : 'refused with 401'} without the API key`, async () => {
        const request = await row.request(fixtures, 'admin');
        const { freshAccount: _fresh, ...sent } = request;
        const response = await send(fixtures.s, {
          ...sent,
          method,
          token: fixtures.users.admin.token,
          withoutApiKey: true,
        });
        // SCIM asks for no API key: its own token, which a session's is not.
        if (isScim(operation)) expect(response.json<{ code: string }>().code).toBe('scim_token_invalid');
        else if (NO_API_KEY_NEEDED.has(operation)) expect(response.statusCode).not.toBe(401);
        else {
          expect(response.statusCode, response.body).toBe(401);
          expect(response.json<{ code: string }>().code).toBe('invalid_api_key');
        }
      });
    });
    // Domain proofs ask a DNS server: none listens there, so the check answers at once and nothing
    // leaves the machine.
  },
  { env: { DNS_RESOLVER: '127.0.0.1:9' } },
);
