import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminMessages } from '../../src/shared/screen-messages';
import * as admin from '../../src/renderer/src/features/admin/admin-slice';
import { adminApi } from '../../src/renderer/src/features/admin/admin-endpoints';

/** Each admin call as the screens make it: the endpoint's action, its argument optional for lists. */
const call = Object.fromEntries(
  Object.entries(adminApi.endpoints).map(([name, endpoint]) => [
    name,
    (arg?: unknown) => (endpoint as { initiate: (arg: unknown) => unknown }).initiate(arg),
  ]),
) as unknown as {
  [Name in keyof typeof adminApi.endpoints]: (
    arg?: Parameters<(typeof adminApi.endpoints)[Name]['initiate']>[0],
  ) => ReturnType<(typeof adminApi.endpoints)[Name]['initiate']>;
};
import { activation, adminLicense, adminUser, adminUserDetail, feature, paged } from './support/api-answers';
import { FakeApi, problem, WITHOUT_MESSAGE } from './support/fake-api';
import { signedInTab } from './support/signed-in';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

const signedIn = () => signedInTab(api);

describe('Admin state', () => {
  const user = (id: string, name = id) => adminUserDetail(id, { full_name: name });

  async function withUsers() {
    const made = await signedIn();
    api.on('GET /admin/users', () => ({
      json: paged([adminUser('u1', { full_name: 'u1' }), adminUser('u2', { full_name: 'u2' })], {
        total: 12,
        perPage: 10,
      }),
    }));
    await made.store.dispatch(call.listUsers());
    return made;
  }

  it('every admin collection defaults to page 1 and 10 per page', async () => {
    const { store } = await signedIn();
    for (const key of ['users', 'licenses', 'payments', 'securityEvents', 'features'] as const)
      expect(store.getState().admin[key]).toEqual({ data: [], total: 0, page: 1, perPage: 10 });
    api.on('GET /admin/users', () => ({ json: { data: [], total: 0, page: 1, perPage: 10 } }));
    await store.dispatch(call.listUsers());
    expect(api.calls('GET /admin/users')[0]?.query.get('perPage')).toBe('10');
  });

  it('admin: create prepends the item and increments total', async () => {
    const { store } = await withUsers();
    api.on('POST /admin/users', () => ({ status: 201, json: user('u3') }));
    await store.dispatch(call.createUser({ email: 'u3@example.com' }));
    expect(store.getState().admin.users.data.map((item) => item.id)).toEqual(['u3', 'u1', 'u2']);
    expect(store.getState().admin.users.total).toBe(13);
  });

  it('admin: update replaces by id in the list and in the selected item', async () => {
    const { store } = await withUsers();
    api.on('GET /admin/users/u2', () => ({ json: user('u2') }));
    await store.dispatch(call.getUser('u2'));
    api.on('PUT /admin/users/u2', () => ({ json: user('u2', 'Renamed') }));
    await store.dispatch(call.updateUser({ id: 'u2', changes: { full_name: 'Renamed' } }));
    expect(store.getState().admin.users.data[1]?.full_name).toBe('Renamed');
    expect(store.getState().admin.selectedUser?.full_name).toBe('Renamed');
  });

  it('admin: delete removes the item, decrements total and clears the selection', async () => {
    const { store } = await withUsers();
    api.on('GET /admin/users/u1', () => ({ json: user('u1') }));
    await store.dispatch(call.getUser('u1'));
    api.on('DELETE /admin/users/u1', () => ({ status: 204, body: '' }));
    await store.dispatch(call.deleteUser('u1'));
    expect(store.getState().admin.users.data.map((item) => item.id)).toEqual(['u2']);
    expect(store.getState().admin.users.total).toBe(11);
    expect(store.getState().admin.selectedUser).toBeNull();
  });

  it('admin: revoke replaces the license (by license_id); activations attach to the selected license', async () => {
    const { store } = await signedIn();
    api.on('GET /admin/licenses', () => ({
      json: paged([adminLicense('L1'), adminLicense('L2')], { perPage: 10 }),
    }));
    await store.dispatch(call.listLicenses());
    api.on('GET /admin/licenses/L1', () => ({ json: adminLicense('L1') }));
    await store.dispatch(call.getLicense('L1'));
    // The administrators' view of a machine adds its fingerprint's components and their history.
    const machine = (id: string, licenseId: string) => ({
      ...activation(id, { license_id: licenseId }),
      components: {},
      component_changes: [],
    });
    api.on('GET /admin/licenses/L1/activations', () => ({ json: [machine('A1', 'L1')] }));
    await store.dispatch(call.getLicenseActivations('L1'));
    api.on('GET /admin/licenses/L2/activations', () => ({ json: [machine('A2', 'L2')] }));
    await store.dispatch(call.getLicenseActivations('L2'));
    expect(store.getState().admin.selectedLicense?.activations).toEqual([machine('A1', 'L1')]);
    api.on('POST /admin/licenses/L1/revoke', () => ({ json: adminLicense('L1', { status: 'revoked' }) }));
    await store.dispatch(call.revokeLicense({ id: 'L1', reason: 'chargeback fraud' }));
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
    it(`admin: a feature list as ${shape} is read, total from total or the length`, async () => {
      const { store } = await signedIn();
      api.on('GET /admin/features', () => ({ json: body, offContract }));
      await store.dispatch(call.listFeatures());
      expect(store.getState().admin.features.total).toBe(total);
      expect(store.getState().admin.features.data[0]?.feature_id).toBe('F1');
    });
  }

  it('admin: features update by feature_id and delete clears the selection', async () => {
    const { store } = await signedIn();
    api.on('GET /admin/features', () => ({ json: paged([feature('F1', { name: 'a' })]) }));
    await store.dispatch(call.listFeatures());
    api.on('GET /admin/features/F1', () => ({ json: feature('F1', { name: 'a' }) }));
    await store.dispatch(call.getFeature('F1'));
    api.on('PUT /admin/features/F1', () => ({ json: feature('F1', { name: 'b' }) }));
    await store.dispatch(call.updateFeature({ id: 'F1', changes: { name: 'b' } }));
    expect(store.getState().admin.features.data[0]?.name).toBe('b');
    expect(store.getState().admin.selectedFeature?.name).toBe('b');
    api.on('DELETE /admin/features/F1', () => ({ status: 204, body: '' }));
    await store.dispatch(call.deleteFeature('F1'));
    expect(store.getState().admin.features).toMatchObject({ data: [], total: 0 });
    expect(store.getState().admin.selectedFeature).toBeNull();
  });

  it('admin: page setters change the page of each collection', async () => {
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

  it('admin: server message, else the error message, else the default', async () => {
    const { store } = await signedIn();
    api.on('GET /admin/users', () => problem(400, 'Bad sort field'));
    await store.dispatch(call.listUsers());
    expect(store.getState().admin).toMatchObject({ status: 'failed', error: 'Bad sort field' });
    api.on('GET /admin/users', () => ({ status: 500, json: {}, offContract: WITHOUT_MESSAGE }));
    await store.dispatch(call.listUsers({ page: 2 }));
    // Without a server message the error's own message comes next (axios names the status).
    expect(store.getState().admin.error).toBe('Request failed with status code 500');
  });

  const defaults = [
    ['users', () => call.listUsers({ search: 'z' }), 'GET /admin/users', adminMessages.fetchUsersFailed],
    ['user', () => call.getUser('u'), 'GET /admin/users/u', adminMessages.fetchUserFailed],
    ['create user', () => call.createUser({}), 'POST /admin/users', adminMessages.createUserFailed],
    [
      'update user',
      () => call.updateUser({ id: 'u', changes: {} }),
      'PUT /admin/users/u',
      adminMessages.updateUserFailed,
    ],
    ['delete user', () => call.deleteUser('u'), 'DELETE /admin/users/u', adminMessages.deleteUserFailed],
    [
      'licenses',
      () => call.listLicenses({ search: 'z' }),
      'GET /admin/licenses',
      adminMessages.fetchLicensesFailed,
    ],
    ['license', () => call.getLicense('l'), 'GET /admin/licenses/l', adminMessages.fetchLicenseFailed],
    [
      'create license',
      () => call.createLicense({}),
      'POST /admin/licenses',
      adminMessages.createLicenseFailed,
    ],
    [
      'update license',
      () => call.updateLicense({ id: 'l', changes: {} }),
      'PUT /admin/licenses/l',
      adminMessages.updateLicenseFailed,
    ],
    [
      'revoke',
      () => call.revokeLicense({ id: 'l', reason: 'r' }),
      'POST /admin/licenses/l/revoke',
      adminMessages.revokeLicenseFailed,
    ],
    [
      'activations',
      () => call.getLicenseActivations('l'),
      'GET /admin/licenses/l/activations',
      adminMessages.fetchLicenseActivationsFailed,
    ],
    [
      'payments',
      () => call.listPayments({ search: 'z' }),
      'GET /payments/admin/payments',
      adminMessages.fetchPaymentsFailed,
    ],
    [
      'payment',
      () => call.getPayment('p'),
      'GET /payments/admin/payments/p',
      adminMessages.fetchPaymentFailed,
    ],
    [
      'security events',
      () => call.listSecurityEvents({ search: 'z' }),
      'GET /admin/security-events',
      adminMessages.fetchSecurityEventsFailed,
    ],
    ['system stats', () => call.getDashboard(), 'GET /admin/dashboard', adminMessages.fetchSystemStatsFailed],
    [
      'features',
      () => call.listFeatures({ search: 'z' }),
      'GET /admin/features',
      adminMessages.fetchFeaturesFailed,
    ],
    ['feature', () => call.getFeature('f'), 'GET /admin/features/f', adminMessages.fetchFeatureFailed],
    [
      'create feature',
      () => call.createFeature({ key: 'k', name: 'n', kind: 'boolean' }),
      'POST /admin/features',
      adminMessages.createFeatureFailed,
    ],
    [
      'update feature',
      () => call.updateFeature({ id: 'f', changes: {} }),
      'PUT /admin/features/f',
      adminMessages.updateFeatureFailed,
    ],
    [
      'delete feature',
      () => call.deleteFeature('f'),
      'DELETE /admin/features/f',
      adminMessages.deleteFeatureFailed,
    ],
  ] as const;
  for (const [name, thunk, route, fallback] of defaults) {
    it(`admin: ${name} stores the server message, else '${fallback}' when the failure says nothing`, async () => {
      const { store, services } = await signedIn();
      api.on(route, () => problem(409, 'Server reason'));
      await store.dispatch(thunk() as never);
      expect(store.getState().admin).toMatchObject({ status: 'failed', error: 'Server reason' });
      // A failure with no message at all (neither the server's nor the error's own).
      (await services.client.instance()).interceptors.request.use(() => Promise.reject(new Error('')));
      await store.dispatch(thunk() as never);
      expect(store.getState().admin.error).toBe(fallback);
    });
  }
});
