import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pathWith } from '../../../src/shared/routes.js';
import { apiPaths } from '../../../src/shared/api-paths.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';
import {
  adminTableCounts,
  type SignedIn,
  signIn,
  signInAsAdmin,
  signInAsUser,
} from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { activate, giveLicense, machine } from '../helpers/license-helpers.js';
import { proofBody, requestBody } from '../helpers/offline-activation-helpers.js';

/** What one admin route needs: the ids of a fresh user, license, activation and event. */
interface Targets {
  userId: string;
  /** A user who owns no organisation (an owner's erasure waits for a transfer). */
  memberlessUserId: string;
  licenseId: string;
  /** A license of the target's that is a running free trial. */
  trialLicenseId: string;
  activationId: string;
  eventId: string;
  planId: string;
  webhookEndpointId: string;
  webhookDeliveryId: string;
  releaseId: string;
  organisationId: string;
  /** An activation request file for the target's license, and a signed-out proof of another. */
  offlineRequest: Record<string, unknown>;
  offlineProof: Record<string, unknown>;
}

interface GuardedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The request an administrator makes, and the status it gets. */
  url: (t: Targets) => string;
  body?: (t: Targets) => unknown;
  success: number;
  /** What the answer is, when not JSON (a download). */
  contentType?: RegExp;
}

const admin = apiPaths.admin;
const at = (path: string, t: Targets) => pathWith(path, { id: t.licenseId, activationId: t.activationId });

/** Every path of the admin API this suite owns, with a request that succeeds for an administrator. */
const routes: GuardedRoute[] = [
  { method: 'GET', path: admin.dashboard, url: () => admin.dashboard, success: 200 },
  { method: 'GET', path: admin.users, url: () => `${admin.users}?role=user&sort=-email`, success: 200 },
  {
    method: 'POST',
    path: admin.users,
    url: () => admin.users,
    body: () => ({ email: uniqueEmail('created'), password: STRONG_PASSWORD }),
    success: 201,
  },
  { method: 'GET', path: admin.user, url: (t) => pathWith(admin.user, { id: t.userId }), success: 200 },
  {
    method: 'PUT',
    path: admin.user,
    url: (t) => pathWith(admin.user, { id: t.userId }),
    body: () => ({ full_name: 'Changed by an admin' }),
    success: 200,
  },
  {
    method: 'GET',
    path: admin.userInvoices,
    url: (t) => pathWith(admin.userInvoices, { id: t.userId }),
    success: 200,
  },
  {
    method: 'POST',
    path: admin.resendConfirmation,
    url: (t) => pathWith(admin.resendConfirmation, { id: t.userId }),
    success: 202,
  },
  {
    method: 'POST',
    path: admin.userDataExport,
    url: (t) => pathWith(admin.userDataExport, { id: t.userId }),
    success: 202,
  },
  {
    method: 'POST',
    path: admin.eraseUser,
    url: (t) => pathWith(admin.eraseUser, { id: t.memberlessUserId }),
    body: () => ({ reason: 'Asked by the customer' }),
    success: 204,
  },
  { method: 'DELETE', path: admin.user, url: (t) => pathWith(admin.user, { id: t.userId }), success: 204 },
  { method: 'GET', path: admin.licenses, url: () => `${admin.licenses}?status=active`, success: 200 },
  {
    method: 'POST',
    path: admin.licenses,
    url: () => admin.licenses,
    body: (t) => ({ user_id: t.userId, plan_id: t.planId }),
    success: 201,
  },
  { method: 'GET', path: admin.license, url: (t) => at(admin.license, t), success: 200 },
  {
    method: 'PUT',
    path: admin.license,
    url: (t) => at(admin.license, t),
    body: () => ({ max_activations: 7 }),
    success: 200,
  },
  {
    method: 'POST',
    path: admin.revokeLicense,
    url: (t) => `${at(admin.revokeLicense, t)}?reason=Chargeback`,
    success: 200,
  },
  {
    method: 'POST',
    path: admin.licenseTrial,
    url: (t) => pathWith(admin.licenseTrial, { id: t.trialLicenseId }),
    body: () => ({ action: 'extend', days: 3 }),
    success: 200,
  },
  {
    method: 'GET',
    path: admin.licenseActivations,
    url: (t) => at(admin.licenseActivations, t),
    success: 200,
  },
  {
    method: 'POST',
    path: admin.deactivateActivation,
    url: (t) => at(admin.deactivateActivation, t),
    success: 200,
  },
  {
    method: 'POST',
    path: admin.resetDeactivations,
    url: (t) => at(admin.resetDeactivations, t),
    body: () => ({ reason: 'Stolen laptop' }),
    success: 200,
  },
  {
    method: 'PATCH',
    path: admin.activation,
    url: (t) => at(admin.activation, t),
    body: () => ({ label: 'Front desk' }),
    success: 200,
  },
  {
    method: 'POST',
    path: admin.usageGrants,
    url: (t) => at(admin.usageGrants, t),
    body: () => ({ feature: 'ai_chat', units: 50, reason: 'Goodwill after an outage' }),
    success: 201,
  },
  {
    method: 'GET',
    path: admin.securityEvents,
    url: () => `${admin.securityEvents}?severity=info`,
    success: 200,
  },
  {
    method: 'GET',
    path: admin.securityEventsExport,
    url: () => `${admin.securityEventsExport}?format=jsonl&severity=info`,
    success: 200,
    contentType: /^application\/x-ndjson/,
  },
  {
    method: 'GET',
    path: admin.securityEvent,
    url: (t) => pathWith(admin.securityEvent, { id: t.eventId }),
    success: 200,
  },
  ...apiTokenRoutes(),
  ...webhookRoutes(),
  ...releaseRoutes(),
  ...offlineActivationRoutes(),
  ...organisationRoutes(),
  { method: 'GET', path: admin.securitySettings, url: () => admin.securitySettings, success: 200 },
  {
    method: 'PUT',
    path: admin.securitySettings,
    url: () => admin.securitySettings,
    body: () => ({ require_admin_two_factor: false }),
    success: 200,
  },
];

/** The webhook endpoints' admin API (apiPaths.adminWebhooks). */
function webhookRoutes(): GuardedRoute[] {
  const hooks = apiPaths.adminWebhooks;
  const endpoint = (path: string) => (t: Targets) => pathWith(path, { endpointId: t.webhookEndpointId });
  const delivery = (path: string) => (t: Targets) => pathWith(path, { deliveryId: t.webhookDeliveryId });
  return [
    { method: 'GET', path: hooks.eventTypes, url: () => hooks.eventTypes, success: 200 },
    { method: 'GET', path: hooks.endpoints, url: () => `${hooks.endpoints}?sort=-created_at`, success: 200 },
    {
      method: 'POST',
      path: hooks.endpoints,
      url: () => hooks.endpoints,
      body: () => ({ url: 'https://127.0.0.1:9/guard', event_types: ['license.created'] }),
      success: 201,
    },
    { method: 'GET', path: hooks.endpoint, url: endpoint(hooks.endpoint), success: 200 },
    {
      method: 'PATCH',
      path: hooks.endpoint,
      url: endpoint(hooks.endpoint),
      body: () => ({ description: 'Changed by an admin' }),
      success: 200,
    },
    { method: 'POST', path: hooks.rotateSecret, url: endpoint(hooks.rotateSecret), success: 200 },
    { method: 'POST', path: hooks.test, url: endpoint(hooks.test), success: 202 },
    { method: 'GET', path: hooks.deliveries, url: endpoint(hooks.deliveries), success: 200 },
    { method: 'GET', path: hooks.delivery, url: delivery(hooks.delivery), success: 200 },
    { method: 'POST', path: hooks.redeliver, url: delivery(hooks.redeliver), success: 202 },
    { method: 'DELETE', path: hooks.endpoint, url: endpoint(hooks.endpoint), success: 204 },
  ];
}

/** The desktop releases' admin API (apiPaths.adminReleases). */
function releaseRoutes(): GuardedRoute[] {
  const releases = apiPaths.adminReleases;
  return [
    { method: 'GET', path: releases.list, url: () => `${releases.list}?platform=linux`, success: 200 },
    {
      method: 'PATCH',
      path: releases.detail,
      url: (t) => pathWith(releases.detail, { releaseId: t.releaseId }),
      body: () => ({ rollout_percent: 100, release_notes: 'Changed by an admin' }),
      success: 200,
    },
  ];
}

/** Activation by file for any license: a request file in, a license file out; a proof frees the seat. */
function offlineActivationRoutes(): GuardedRoute[] {
  const offline = apiPaths.offlineActivation;
  return [
    {
      method: 'POST',
      path: offline.adminActivate,
      url: () => offline.adminActivate,
      body: (t) => t.offlineRequest,
      success: 201,
    },
    {
      method: 'POST',
      path: offline.adminDeactivate,
      url: () => offline.adminDeactivate,
      body: (t) => t.offlineProof,
      success: 200,
    },
  ];
}

/** The API tokens' admin paths: every account's tokens, platform tokens, revoking anyone's. */
function apiTokenRoutes(): GuardedRoute[] {
  return [
    {
      method: 'GET',
      path: admin.apiTokens,
      url: () => `${admin.apiTokens}?status=all&kind=personal`,
      success: 200,
    },
    {
      method: 'POST',
      path: admin.apiTokens,
      url: () => admin.apiTokens,
      body: () => ({ name: 'Guard', scopes: ['admin:read'], expires_in_days: 30 }),
      success: 201,
    },
    {
      method: 'DELETE',
      path: admin.apiToken,
      url: (t) => pathWith(admin.apiToken, { tokenId: guardTokenId(t.userId) }),
      success: 200,
    },
  ];
}

/** The organisations' admin paths: the list and one organisation's detail. */
function organisationRoutes(): GuardedRoute[] {
  const paths = apiPaths.adminOrganisations;
  return [
    {
      method: 'GET',
      path: paths.list,
      url: () => `${paths.list}?search=guard&sort=-created_at`,
      success: 200,
    },
    {
      method: 'GET',
      path: paths.detail,
      url: (t) => pathWith(paths.detail, { organisationId: t.organisationId }),
      success: 200,
    },
  ];
}

const guardTokenId = (userId: string) => `guard-token-${userId}`;

/** A personal token of the target's, written directly (its secret is never used). */
async function insertGuardToken(s: TestServer, userId: string): Promise<void> {
  const now = new Date();
  await s.app.db
    .insertInto('api_tokens')
    .values({
      id: guardTokenId(userId),
      user_id: userId,
      kind: 'personal',
      name: 'Guard target',
      token_hash: `guard-${userId}`,
      prefix: 'aap_guar',
      last_four: 'd000',
      scopes: '["licenses:read"]',
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      last_used_at: null,
      last_used_ip: null,
      revoked_at: null,
      revoked_by: null,
    })
    .execute();
}

describeOnEveryDatabase('admin API guard', (server) => {
  let administrator: SignedIn;
  let user: SignedIn;

  beforeAll(async () => {
    administrator = await signInAsAdmin(server());
    user = await signInAsUser(server());
  });

  /** A user with a Pro license active on one machine, and a security event about them. */
  async function targets(): Promise<Targets> {
    const s = server();
    const owner = await signIn(s, 'user', 'target');
    const license = await giveLicense(s, owner, 'pro-monthly');
    const hardwareId = machine();
    expect((await activate(s, owner.token, license.license_key, hardwareId)).statusCode).toBe(201);
    const activation = await s.app.db
      .selectFrom('activations')
      .select('id')
      .where('license_id', '=', license.id)
      .executeTakeFirstOrThrow();
    // A free trial of another plan, ending in a week (as the trial start writes it: its expiry too).
    const trialLicense = await giveLicense(s, owner, 'pro-yearly');
    const trialEndsAt = new Date(s.clock.now().getTime() + 7 * 24 * 3600_000).toISOString();
    await s.app.db
      .updateTable('licenses')
      .set({ trial_ends_at: trialEndsAt, expires_at: trialEndsAt })
      .where('id', '=', trialLicense.id)
      .execute();
    const event = await s.app.db
      .selectFrom('security_events')
      .select('id')
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    // The address unconfirmed, so that a confirmation link can be sent again.
    await s.app.db.updateTable('users').set({ email_verified_at: null }).where('id', '=', owner.id).execute();
    await insertGuardToken(s, owner.id);
    // A webhook endpoint (a closed local port) with one failed delivery, written directly.
    const hook = await s.api({
      method: 'POST',
      path: apiPaths.adminWebhooks.endpoints,
      token: administrator.token,
      body: { url: 'https://127.0.0.1:9/guard', event_types: ['license.created'] },
    });
    const webhookEndpointId = hook.json<{ id: string }>().id;
    const webhookEventId = `msg_guard${owner.id.replaceAll('-', '')}`;
    const webhookDeliveryId = `guard-${owner.id}`;
    const now = new Date().toISOString();
    await s.app.db
      .insertInto('webhook_events')
      .values({ id: webhookEventId, type: 'license.created', payload: '{}', created_at: now })
      .execute();
    await s.app.db
      .insertInto('webhook_deliveries')
      .values({
        id: webhookDeliveryId,
        endpoint_id: webhookEndpointId,
        event_id: webhookEventId,
        redelivery_of: null,
        status: 'failed',
        attempts: 8,
        next_attempt_at: now,
        claimed_until: null,
        last_status_code: null,
        last_error: 'connect ECONNREFUSED',
        created_at: now,
        completed_at: now,
      })
      .execute();
    // An organisation the target owns, written directly.
    const organisationId = randomUUID();
    await s.app.db
      .insertInto('organisations')
      .values({
        id: organisationId,
        name: 'Guard organisation',
        billing_details: null,
        created_by: owner.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await s.app.db
      .insertInto('organisation_members')
      .values({
        organisation_id: organisationId,
        user_id: owner.id,
        role: 'owner',
        seat_assigned_at: null,
        joined_at: now,
      })
      .execute();
    // A desktop release, written directly (no file: the admin API only reads and changes the row).
    const releaseId = randomUUID();
    await s.app.db
      .insertInto('releases')
      .values({
        id: releaseId,
        platform: 'linux',
        version: `0.0.1-guard.${releaseId.slice(0, 8)}`,
        file_name: 'guard.AppImage',
        size_bytes: 1,
        sha256: '00',
        published_at: now,
        channel: 'stable',
        sha512: null,
        rollout_percent: 10,
        paused_at: null,
        yanked_at: null,
        release_notes: '',
        checks: 0,
        downloads: 0,
      })
      .execute();
    return {
      offlineRequest: await requestBody(s, license.license_key),
      offlineProof: await proofBody(s, administrator.token, license.license_key),
      organisationId,
      webhookEndpointId,
      webhookDeliveryId,
      releaseId,
      userId: owner.id,
      memberlessUserId: (await signIn(s, 'user', 'erasable')).id,
      licenseId: license.id,
      trialLicenseId: trialLicense.id,
      activationId: activation.id,
      eventId: event.id,
      planId: license.plan_id,
    };
  }

  it('covers every admin path of src/shared/routes.ts but the features, licensing settings and payments', () => {
    const others: string[] = [admin.features, admin.feature, admin.featureStats, admin.licensingSettings];
    const owned = [
      ...Object.values(admin).filter((path) => !others.includes(path)),
      ...Object.values(apiPaths.adminWebhooks),
      ...Object.values(apiPaths.adminReleases),
      apiPaths.offlineActivation.adminActivate,
      apiPaths.offlineActivation.adminDeactivate,
      ...Object.values(apiPaths.adminOrganisations),
    ];
    expect(new Set(routes.map((route) => route.path))).toEqual(new Set(owned));
  });

  describe.each(routes)('$method $path', (route) => {
    it('anonymous → 401 and a user → 403, before the input is even read, and nothing is written', async () => {
      const s = server();
      const t = await targets();
      const before = await adminTableCounts(s);
      // Deliberately invalid input: the guard answers before validation would.
      const badUrl = `${route.url(t)}${route.url(t).includes('?') ? '&' : '?'}perPage=0`;
      for (const caller of [
        { token: undefined, status: 401, code: 'not_authenticated' },
        { token: user.token, status: 403, code: 'admin_required' },
      ]) {
        const response = await s.api({
          method: route.method,
          path: badUrl,
          ...(caller.token ? { token: caller.token } : {}),
          ...(route.body ? { body: { unexpected: true } } : {}),
        });
        expectApiError(response, caller.status, caller.code);
      }
      expect(await adminTableCounts(s)).toEqual(before);
    });

    it(`an administrator → ${route.success}`, async () => {
      const s = server();
      const t = await targets();
      const response = await s.api({
        method: route.method,
        path: route.url(t),
        token: administrator.token,
        ...(route.body ? { body: route.body(t) } : {}),
      });
      expect(response.statusCode, response.body).toBe(route.success);
      if (route.success !== 204)
        expect(response.headers['content-type']).toMatch(route.contentType ?? /^application\/json/);
    });
  });
});
