import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import { adminLicense, feature, paged } from './support/api-answers';
import { FakeApi } from './support/fake-api';
import { loggedInTab } from './support/signed-in';

/* Admin list updates find their item by license_id or feature_id. */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

describe('admin updates matched by license_id and feature_id', () => {
  it('admin: creating a license or a feature prepends it and increments total', async () => {
    const { store } = await loggedInTab(api);
    api.on('GET /admin/licenses', () => ({ json: paged([adminLicense('L1')], { total: 5, perPage: 10 }) }));
    await store.dispatch(call.listLicenses());
    api.on('POST /admin/licenses', () => ({ status: 201, json: adminLicense('L2') }));
    await store.dispatch(call.createLicense({ user_id: 'user-1' }));
    expect(store.getState().admin.licenses.data.map((item) => item.license_id)).toEqual(['L2', 'L1']);
    expect(store.getState().admin.licenses.total).toBe(6);

    api.on('GET /admin/features', () => ({ json: paged([feature('F1')]) }));
    await store.dispatch(call.listFeatures());
    api.on('POST /admin/features', () => ({ status: 201, json: feature('F2') }));
    await store.dispatch(call.createFeature({ key: 'k', name: 'n', kind: 'boolean' }));
    expect(store.getState().admin.features.data.map((item) => item.feature_id)).toEqual(['F2', 'F1']);
    expect(store.getState().admin.features.total).toBe(2);
  });

  it('admin: updating a license replaces it by license_id in the list and in the selection', async () => {
    const { store } = await loggedInTab(api);
    api.on('GET /admin/licenses', () => ({
      json: paged([adminLicense('L1'), adminLicense('L2')], { perPage: 10 }),
    }));
    await store.dispatch(call.listLicenses());
    api.on('GET /admin/licenses/L2', () => ({ json: adminLicense('L2') }));
    await store.dispatch(call.getLicense('L2'));
    api.on('PUT /admin/licenses/L2', () => ({ json: adminLicense('L2', { max_activations: 5 }) }));
    await store.dispatch(call.updateLicense({ id: 'L2', changes: { max_activations: 5 } }));
    const state = store.getState().admin;
    expect(state.licenses.data.map((item) => [item.license_id, item.max_activations])).toEqual([
      ['L1', 1],
      ['L2', 5],
    ]);
    expect(state.selectedLicense?.max_activations).toBe(5);
  });
});
