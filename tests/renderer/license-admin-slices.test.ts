import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminMessages, licenseMessages } from '../../src/shared/messages';
import { localStorageKeys } from '../../src/shared/storage-keys';
import { makeFullStore } from './support/store';
import * as admin from '../../src/renderer/src/features/admin/admin-slice';
import * as licence from '../../src/renderer/src/features/license/license-slice';
import {
  activation,
  activationResult,
  adminLicence,
  adminUser,
  adminUserDetail,
  feature,
  featureUsage,
  paged,
  validLicenceStatus,
} from './support/api-answers';
import { FakeApi, problem } from './support/fake-api';
import { tabServices } from './support/services';
import { makeLicence, signedInTab } from './support/signed-in';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

const signedIn = () => signedInTab(api);

/** The client falls back to its own message when an error comes without one (a proxy's, say). */
const WITHOUT_MESSAGE = 'an error without a message';

describe('Licence state (SPEC §4 licence)', () => {
  it('SPEC §4 licence: activation replaces the current licence, merges by license_id and stores the key locally', async () => {
    const { store, tab } = await signedIn();
    api.on('GET /licenses', () => ({ json: [makeLicence('L1'), makeLicence('L2')] }));
    await store.dispatch(licence.fetchLicenses());
    api.on('POST /licenses/activate', () => ({ json: activationResult('L2', { activations_used: 1 }) }));
    await store.dispatch(licence.activateLicense({ license_key: 'KEY-L2' })).unwrap();
    const state = store.getState().license;
    expect(state.licenses.map((item) => [item.license_id, item.activations_used])).toEqual([
      ['L1', 0],
      ['L2', 1],
    ]);
    expect(state.currentLicense?.license_id).toBe('L2');
    expect(tab.local.getItem(localStorageKeys.licenseKey)).toBe('KEY-L2');
    expect(JSON.parse(api.calls('POST /licenses/activate')[0]?.body ?? '{}').hardware_id).toBe(
      tab.local.getItem(localStorageKeys.hardwareId),
    );
  });

  it('SPEC §4 licence: a new licence from base activation is appended to the list', async () => {
    const { store } = await signedIn();
    api.on('GET /licenses', () => ({ json: [makeLicence('L1')] }));
    await store.dispatch(licence.fetchLicenses());
    api.on('POST /licenses/activate-base', () => ({ json: activationResult('L9') }));
    await store.dispatch(licence.activateBaseLicense()).unwrap();
    expect(store.getState().license.licenses.map((item) => item.license_id)).toEqual(['L1', 'L9']);
  });

  it("SPEC §8: base activation prefers the server's detail, and checks the answer", async () => {
    const { store } = await signedIn();
    api.on('POST /licenses/activate-base', () => ({
      status: 409,
      json: { detail: 'Already have a base licence', message: 'Conflict', code: 'x' },
    }));
    expect((await store.dispatch(licence.activateBaseLicense())).payload).toBe('Already have a base licence');
    api.on('POST /licenses/activate-base', () => ({ status: 500, json: {}, offContract: WITHOUT_MESSAGE }));
    expect((await store.dispatch(licence.activateBaseLicense())).payload).toBe(
      licenseMessages.baseActivationFailed,
    );
    api.on('POST /licenses/activate-base', () => ({
      json: { unexpected: true },
      offContract: 'an answer of another shape, which the client must refuse',
    }));
    expect((await store.dispatch(licence.activateBaseLicense())).payload).toBe(
      licenseMessages.invalidResponseFormat,
    );
    api.on('POST /licenses/activate-base', () => ({
      status: 200,
      body: '',
      offContract: 'an empty answer, which the client must refuse',
    }));
    expect((await store.dispatch(licence.activateBaseLicense())).payload).toBe(licenseMessages.noResponse);
  });

  it("SPEC §8: base activation with no answer from the server fails with 'No response received from server'", async () => {
    const { store } = await signedIn();
    api.on('POST /licenses/activate-base', (_request, response) => void response.socket?.destroy());
    expect((await store.dispatch(licence.activateBaseLicense())).payload).toBe(licenseMessages.noResponse);
  });

  it('SPEC §4 licence: deactivation and fetching one licence update the current licence and replace it in the list if present', async () => {
    const { store } = await signedIn();
    api.on('GET /licenses', () => ({ json: [makeLicence('L1')] }));
    await store.dispatch(licence.fetchLicenses());
    api.on('POST /licenses/L1/deactivate', () => ({
      json: makeLicence('L1', { activations_used: 0, status: 'active' }),
    }));
    await store.dispatch(licence.deactivateLicense({ licenseId: 'L1' }));
    api.on('GET /licenses/L7', () => ({ json: makeLicence('L7') }));
    await store.dispatch(licence.fetchLicense('L7'));
    const state = store.getState().license;
    expect(state.currentLicense?.license_id).toBe('L7');
    expect(state.licenses.map((item) => item.license_id)).toEqual(['L1']);
  });

  it("SPEC §4 licence: a status check with no stored key reports not_configured locally ('No license configured')", async () => {
    const { store } = await signedIn();
    await store.dispatch(licence.checkLicenseStatus());
    expect(store.getState().license.licenseStatus).toEqual({
      valid: false,
      status: 'not_configured',
      message: 'No license configured',
      requires_activation: true,
    });
    expect(api.calls('GET /licensing/status')).toHaveLength(0);
  });

  it('SPEC §7: the status check sends license_key and hardware_id and marks the current licence', async () => {
    const { store, tab } = await signedIn();
    tab.local.setItem(localStorageKeys.licenseKey, 'KEY-L1');
    api.on('GET /licenses/L1', () => ({ json: makeLicence('L1') }));
    await store.dispatch(licence.fetchLicense('L1'));
    api.on('GET /licensing/status', () => ({
      json: validLicenceStatus('L1', { message: 'Licence is valid' }),
    }));
    await store.dispatch(licence.checkLicenseStatus());
    const query = api.calls('GET /licensing/status')[0]?.query;
    expect(query?.get('license_key')).toBe('KEY-L1');
    expect(query?.get('hardware_id')).toBe(tab.local.getItem(localStorageKeys.hardwareId));
    expect(store.getState().license.currentLicense).toMatchObject({
      isValid: true,
      statusMessage: 'Licence is valid',
    });
  });

  it("SPEC §4 licence: a failed status check → invalid, status 'error', server message or 'Failed to check license status'", async () => {
    const { store, tab } = await signedIn();
    tab.local.setItem(localStorageKeys.licenseKey, 'KEY-L1');
    api.on('GET /licensing/status', () => problem(503, 'Licensing unavailable'));
    await store.dispatch(licence.checkLicenseStatus());
    expect(store.getState().license.licenseStatus).toEqual({
      valid: false,
      status: 'error',
      message: 'Licensing unavailable',
    });
    api.on('GET /licensing/status', () => ({ status: 500, json: {}, offContract: WITHOUT_MESSAGE }));
    await store.dispatch(licence.checkLicenseStatus());
    expect(store.getState().license.licenseStatus?.message).toBe(licenseMessages.statusCheckFailed);
  });

  it('SPEC §4 licence: a plan change updates the current licence’s plan_id and subscription_id', async () => {
    const { store } = await signedIn();
    api.on('GET /licenses/L1', () => ({ json: makeLicence('L1') }));
    await store.dispatch(licence.fetchLicense('L1'));
    api.on('PUT /licenses/L1/plan', () => ({
      json: makeLicence('L1', { plan_id: 'plan-pro', subscription_id: 'sub-1' }),
    }));
    await store.dispatch(licence.changePlan({ licenseId: 'L1', planId: 'plan-pro' }));
    expect(store.getState().license.currentLicense).toMatchObject({
      plan_id: 'plan-pro',
      subscription_id: 'sub-1',
    });
  });

  it('SPEC §3: usage metrics come from usage_info; feature status is keyed by feature_id', async () => {
    const { store } = await signedIn();
    const chat = featureUsage('F1', { used: 3 });
    api.on('GET /licenses/L1/usage', () => ({
      json: { license_id: 'L1', usage_info: { features: [chat] }, history: [] },
    }));
    await store.dispatch(licence.fetchLicenseUsage({ licenseId: 'L1' }));
    api.on('POST /licenses/L1/usage', () => ({
      json: { license_id: 'L1', recorded: 1, feature: { ...chat, used: 4 } },
    }));
    await store.dispatch(licence.trackFeatureUsage({ licenseId: 'L1', featureId: 'F1' }));
    expect(JSON.parse(api.calls('POST /licenses/L1/usage')[0]?.body ?? '{}')).toEqual({
      featureId: 'F1',
      usageAmount: 1,
      usageData: {},
    });
    expect(store.getState().license.featureStatus.F1).toMatchObject({ used: 4 });
    expect(store.getState().license.usageMetrics?.features[0]).toMatchObject({ used: 4 });
  });

  it('SPEC §9: licence reads are cached for 60 s; a write invalidates them', async () => {
    const { store } = await signedIn();
    api.on('GET /licenses', () => ({ json: [makeLicence('L1')] }));
    await store.dispatch(licence.fetchLicenses());
    await store.dispatch(licence.fetchLicenses());
    expect(api.calls('GET /licenses')).toHaveLength(1);
    api.on('POST /licenses/activate-base', () => ({ json: activationResult('L2') }));
    await store.dispatch(licence.activateBaseLicense());
    await store.dispatch(licence.fetchLicenses());
    expect(api.calls('GET /licenses')).toHaveLength(2);
  });

  const fallbacks = [
    ['fetch licences', () => licence.fetchLicenses(), 'GET /licenses', licenseMessages.fetchLicensesFailed],
    ['fetch licence', () => licence.fetchLicense('X'), 'GET /licenses/X', licenseMessages.fetchLicenseFailed],
    [
      'activate',
      () => licence.activateLicense({ license_key: 'K' }),
      'POST /licenses/activate',
      licenseMessages.activationFailed,
    ],
    [
      'validate',
      () => licence.validateLicense({ license_key: 'K' }),
      'POST /licenses/validate',
      licenseMessages.validationFailed,
    ],
    [
      'deactivate',
      () => licence.deactivateLicense({ licenseId: 'X' }),
      'POST /licenses/X/deactivate',
      licenseMessages.deactivationFailed,
    ],
    [
      'usage',
      () => licence.fetchLicenseUsage({ licenseId: 'X' }),
      'GET /licenses/X/usage',
      licenseMessages.fetchUsageFailed,
    ],
    [
      'update usage',
      () => licence.updateLicenseUsage({ licenseId: 'X', featureId: 'F' }),
      'POST /licenses/X/usage',
      licenseMessages.updateUsageFailed,
    ],
    [
      'track usage',
      () => licence.trackFeatureUsage({ licenseId: 'X', featureId: 'F' }),
      'POST /licenses/X/usage',
      licenseMessages.trackUsageFailed,
    ],
    [
      'feature check',
      () => licence.checkFeatureAvailability({ licenseId: 'X', featureId: 'F' }),
      'GET /licenses/X/features/F',
      licenseMessages.featureCheckFailed,
    ],
    [
      'features',
      () => licence.fetchLicenseFeatures('X'),
      'GET /licenses/X/features',
      licenseMessages.fetchFeaturesFailed,
    ],
    [
      'plan activation',
      () => licence.activatePlan({ planId: 'P' }),
      'POST /licenses/activate-plan',
      licenseMessages.activatePlanFailed,
    ],
    [
      'current plan',
      () => licence.fetchCurrentPlan(),
      'GET /licenses/current-plan',
      licenseMessages.fetchCurrentPlanFailed,
    ],
  ] as const;
  for (const [name, thunk, route, fallback] of fallbacks) {
    it(`SPEC §8 licence: ${name} failure stores the server message, else '${fallback}'`, async () => {
      const { store } = await signedIn();
      api.on(route, () => ({ status: 500, json: {}, offContract: WITHOUT_MESSAGE }));
      await store.dispatch(thunk() as never);
      expect(store.getState().license).toMatchObject({ status: 'failed', error: fallback });
      api.on(route, () => problem(422, 'Specific reason'));
      await store.dispatch(thunk() as never);
      expect(store.getState().license.error).toBe('Specific reason');
    });
  }
});

describe('Admin state (SPEC §4 admin)', () => {
  const user = (id: string, name = id) => adminUserDetail(id, { full_name: name });

  async function withUsers() {
    const made = await signedIn();
    api.on('GET /admin/users', () => ({
      json: paged([adminUser('u1', { full_name: 'u1' }), adminUser('u2', { full_name: 'u2' })], {
        total: 12,
        perPage: 10,
      }),
    }));
    await made.store.dispatch(admin.fetchUsers());
    return made;
  }

  it('SPEC §9: every admin collection defaults to page 1 and 10 per page', async () => {
    const { store } = await signedIn();
    for (const key of ['users', 'licenses', 'payments', 'securityEvents', 'features'] as const)
      expect(store.getState().admin[key]).toEqual({ data: [], total: 0, page: 1, perPage: 10 });
    api.on('GET /admin/users', () => ({ json: { data: [], total: 0, page: 1, perPage: 10 } }));
    await store.dispatch(admin.fetchUsers());
    expect(api.calls('GET /admin/users')[0]?.query.get('perPage')).toBe('10');
  });

  it('SPEC §4 admin: create prepends the item and increments total', async () => {
    const { store } = await withUsers();
    api.on('POST /admin/users', () => ({ status: 201, json: user('u3') }));
    await store.dispatch(admin.createUser({ email: 'u3@example.com' }));
    expect(store.getState().admin.users.data.map((item) => item.id)).toEqual(['u3', 'u1', 'u2']);
    expect(store.getState().admin.users.total).toBe(13);
  });

  it('SPEC §4 admin: update replaces by id in the list and in the selected item', async () => {
    const { store } = await withUsers();
    api.on('GET /admin/users/u2', () => ({ json: user('u2') }));
    await store.dispatch(admin.fetchUser('u2'));
    api.on('PUT /admin/users/u2', () => ({ json: user('u2', 'Renamed') }));
    await store.dispatch(admin.updateUser({ id: 'u2', changes: { full_name: 'Renamed' } }));
    expect(store.getState().admin.users.data[1]?.full_name).toBe('Renamed');
    expect(store.getState().admin.selectedUser?.full_name).toBe('Renamed');
  });

  it('SPEC §4 admin: delete removes the item, decrements total and clears the selection', async () => {
    const { store } = await withUsers();
    api.on('GET /admin/users/u1', () => ({ json: user('u1') }));
    await store.dispatch(admin.fetchUser('u1'));
    api.on('DELETE /admin/users/u1', () => ({ status: 204, body: '' }));
    await store.dispatch(admin.deleteUser('u1'));
    expect(store.getState().admin.users.data.map((item) => item.id)).toEqual(['u2']);
    expect(store.getState().admin.users.total).toBe(11);
    expect(store.getState().admin.selectedUser).toBeNull();
  });

  it('SPEC §4 admin: revoke replaces the licence (by license_id); activations attach to the selected licence', async () => {
    const { store } = await signedIn();
    api.on('GET /admin/licenses', () => ({
      json: paged([adminLicence('L1'), adminLicence('L2')], { perPage: 10 }),
    }));
    await store.dispatch(admin.fetchAdminLicenses());
    api.on('GET /admin/licenses/L1', () => ({ json: adminLicence('L1') }));
    await store.dispatch(admin.fetchAdminLicense('L1'));
    api.on('GET /admin/licenses/L1/activations', () => ({ json: [activation('A1', { license_id: 'L1' })] }));
    await store.dispatch(admin.fetchLicenseActivations('L1'));
    api.on('GET /admin/licenses/L2/activations', () => ({ json: [activation('A2', { license_id: 'L2' })] }));
    await store.dispatch(admin.fetchLicenseActivations('L2'));
    expect(store.getState().admin.selectedLicense?.activations).toEqual([
      activation('A1', { license_id: 'L1' }),
    ]);
    api.on('POST /admin/licenses/L1/revoke', () => ({ json: adminLicence('L1', { status: 'revoked' }) }));
    await store.dispatch(admin.revokeLicense({ id: 'L1', reason: 'chargeback fraud' }));
    expect(api.calls('POST /admin/licenses/L1/revoke')[0]?.query.get('reason')).toBe('chargeback fraud');
    expect(store.getState().admin.licenses.data[0]?.status).toBe('revoked');
    expect(store.getState().admin.selectedLicense?.status).toBe('revoked');
  });

  // The server answers {data, total, page, perPage}; the client still reads the older shapes.
  const olderShape = 'a feature list of an older shape, which the client still reads';
  for (const [shape, body, total, offContract] of [
    ['{features}', { features: [feature('F1'), feature('F2')] }, 2, olderShape],
    ['{data, total}', paged([feature('F1')], { total: 7 }), 7, undefined],
    ['a bare array', [feature('F1'), feature('F2'), feature('F3')], 3, olderShape],
  ] as const) {
    it(`SPEC §4 admin: a feature list as ${shape} is read, total from total or the length`, async () => {
      const { store } = await signedIn();
      api.on('GET /admin/features', () => ({ json: body, offContract }));
      await store.dispatch(admin.fetchFeatures());
      expect(store.getState().admin.features.total).toBe(total);
      expect(store.getState().admin.features.data[0]?.feature_id).toBe('F1');
    });
  }

  it('SPEC §4 admin: features update by feature_id and delete clears the selection', async () => {
    const { store } = await signedIn();
    api.on('GET /admin/features', () => ({ json: paged([feature('F1', { name: 'a' })]) }));
    await store.dispatch(admin.fetchFeatures());
    api.on('GET /admin/features/F1', () => ({ json: feature('F1', { name: 'a' }) }));
    await store.dispatch(admin.fetchFeature('F1'));
    api.on('PUT /admin/features/F1', () => ({ json: feature('F1', { name: 'b' }) }));
    await store.dispatch(admin.updateFeature({ id: 'F1', changes: { name: 'b' } }));
    expect(store.getState().admin.features.data[0]?.name).toBe('b');
    expect(store.getState().admin.selectedFeature?.name).toBe('b');
    api.on('DELETE /admin/features/F1', () => ({ status: 204, body: '' }));
    await store.dispatch(admin.deleteFeature('F1'));
    expect(store.getState().admin.features).toMatchObject({ data: [], total: 0 });
    expect(store.getState().admin.selectedFeature).toBeNull();
  });

  it('SPEC §4 admin: page setters change the page of each collection', async () => {
    const { store } = await signedIn();
    store.dispatch(admin.setUsersPage(2));
    store.dispatch(admin.setLicensesPage(3));
    store.dispatch(admin.setPaymentsPage(4));
    store.dispatch(admin.setSecurityEventsPage(5));
    store.dispatch(admin.setFeaturesPage(6));
    const state = store.getState().admin;
    expect([
      state.users.page,
      state.licenses.page,
      state.payments.page,
      state.securityEvents.page,
      state.features.page,
    ]).toEqual([2, 3, 4, 5, 6]);
  });

  it('SPEC §8 admin: server message, else the error message, else the default', async () => {
    const { store } = await signedIn();
    api.on('GET /admin/users', () => problem(400, 'Bad sort field'));
    await store.dispatch(admin.fetchUsers());
    expect(store.getState().admin).toMatchObject({ status: 'failed', error: 'Bad sort field' });
    api.on('GET /admin/users', () => ({ status: 500, json: {}, offContract: WITHOUT_MESSAGE }));
    await store.dispatch(admin.fetchUsers({ page: 2 }));
    // Without a server message the error's own message comes next (axios names the status).
    expect(store.getState().admin.error).toBe('Request failed with status code 500');
  });

  const defaults = [
    ['users', () => admin.fetchUsers({ search: 'z' }), 'GET /admin/users', adminMessages.fetchUsersFailed],
    ['user', () => admin.fetchUser('u'), 'GET /admin/users/u', adminMessages.fetchUserFailed],
    ['create user', () => admin.createUser({}), 'POST /admin/users', adminMessages.createUserFailed],
    [
      'update user',
      () => admin.updateUser({ id: 'u', changes: {} }),
      'PUT /admin/users/u',
      adminMessages.updateUserFailed,
    ],
    ['delete user', () => admin.deleteUser('u'), 'DELETE /admin/users/u', adminMessages.deleteUserFailed],
    [
      'licences',
      () => admin.fetchAdminLicenses({ search: 'z' }),
      'GET /admin/licenses',
      adminMessages.fetchLicensesFailed,
    ],
    [
      'licence',
      () => admin.fetchAdminLicense('l'),
      'GET /admin/licenses/l',
      adminMessages.fetchLicenseFailed,
    ],
    [
      'create licence',
      () => admin.createLicense({}),
      'POST /admin/licenses',
      adminMessages.createLicenseFailed,
    ],
    [
      'update licence',
      () => admin.updateLicense({ id: 'l', changes: {} }),
      'PUT /admin/licenses/l',
      adminMessages.updateLicenseFailed,
    ],
    [
      'revoke',
      () => admin.revokeLicense({ id: 'l', reason: 'r' }),
      'POST /admin/licenses/l/revoke',
      adminMessages.revokeLicenseFailed,
    ],
    [
      'activations',
      () => admin.fetchLicenseActivations('l'),
      'GET /admin/licenses/l/activations',
      adminMessages.fetchLicenseActivationsFailed,
    ],
    [
      'payments',
      () => admin.fetchPayments({ search: 'z' }),
      'GET /payments/admin/payments',
      adminMessages.fetchPaymentsFailed,
    ],
    [
      'payment',
      () => admin.fetchPayment('p'),
      'GET /payments/admin/payments/p',
      adminMessages.fetchPaymentFailed,
    ],
    [
      'security events',
      () => admin.fetchSecurityEvents({ search: 'z' }),
      'GET /admin/security-events',
      adminMessages.fetchSecurityEventsFailed,
    ],
    [
      'system stats',
      () => admin.fetchSystemStats(),
      'GET /admin/dashboard',
      adminMessages.fetchSystemStatsFailed,
    ],
    [
      'features',
      () => admin.fetchFeatures({ search: 'z' }),
      'GET /admin/features',
      adminMessages.fetchFeaturesFailed,
    ],
    ['feature', () => admin.fetchFeature('f'), 'GET /admin/features/f', adminMessages.fetchFeatureFailed],
    [
      'create feature',
      () => admin.createFeature({ key: 'k', name: 'n', kind: 'boolean' }),
      'POST /admin/features',
      adminMessages.createFeatureFailed,
    ],
    [
      'update feature',
      () => admin.updateFeature({ id: 'f', changes: {} }),
      'PUT /admin/features/f',
      adminMessages.updateFeatureFailed,
    ],
    [
      'delete feature',
      () => admin.deleteFeature('f'),
      'DELETE /admin/features/f',
      adminMessages.deleteFeatureFailed,
    ],
  ] as const;
  for (const [name, thunk, route, fallback] of defaults) {
    it(`SPEC §8 admin: ${name} stores the server message, else '${fallback}' when the failure says nothing`, async () => {
      const { store, services } = await signedIn();
      api.on(route, () => problem(409, 'Server reason'));
      await store.dispatch(thunk() as never);
      expect(store.getState().admin).toMatchObject({ status: 'failed', error: 'Server reason' });
      // A failure with no message at all (neither the server's nor the error's own).
      (await services.client.instance()).interceptors.request.use(() => Promise.reject(new Error('')));
      services.cache.invalidate();
      await store.dispatch(thunk() as never);
      expect(store.getState().admin.error).toBe(fallback);
    });
  }
});

describe('Licence refusals (SPEC §4)', () => {
  it('a 4xx refusal with valid false is an answer: the status check reports it instead of failing', async () => {
    const made = tabServices(api.baseURL);
    made.tab.local.setItem(localStorageKeys.licenseKey, 'KEY-L1');
    const store = makeFullStore({ services: made.services });
    api.on('GET /licensing/status', () => ({
      status: 403,
      json: {
        detail: 'Not activated here',
        message: 'Not activated here',
        code: 'not_activated',
        valid: false,
        status: 'not_activated',
        requires_activation: true,
      },
    }));
    await store.dispatch(licence.checkLicenseStatus());
    expect(store.getState().license.licenseStatus).toEqual({
      valid: false,
      status: 'not_activated',
      message: 'Not activated here',
      requires_activation: true,
    });
  });
});
