import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeFullStore } from './support/store';
import * as admin from '../../src/renderer/src/features/admin/admin-slice';
import { loginUser, logoutUser, refreshSession } from '../../src/renderer/src/features/auth/auth-slice';
import * as licence from '../../src/renderer/src/features/license/license-slice';
import { deriveStorageKey, newSessionId } from '../../src/renderer/src/lib/crypto-box';
import { runStorageMigrations } from '../../src/renderer/src/lib/storage-migrations';
import { activationResult, adminLicence, feature, paged } from './support/api-answers';
import { FakeApi, problem, testUser } from './support/fake-api';
import { tabServices } from './support/services';

/*
 * SPEC §3, §4 and §9 rules that had no test of their own: the state fields, the literal storage
 * names, the key derivation and the admin list updates matched by license_id / feature_id.
 */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

async function signedIn() {
  const made = tabServices(api.baseURL);
  const store = makeFullStore({ services: made.services });
  api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
  await store.dispatch(loginUser({ email: testUser.email, password: 'pw' })).unwrap();
  return { ...made, store };
}

const sorted = (record: object) => Object.keys(record).sort();

describe('SPEC §3 state fields', () => {
  it('SPEC §3: auth state is isAuthenticated, user, status, error, lastActivity (a timestamp) and userRole', () => {
    const { services } = tabServices(api.baseURL);
    const auth = makeFullStore({ services }).getState().auth;
    expect(sorted(auth)).toEqual(
      ['error', 'isAuthenticated', 'lastActivity', 'status', 'user', 'userRole'].sort(),
    );
    expect(auth).toMatchObject({ isAuthenticated: false, user: null, status: 'idle', error: null });
    expect(typeof auth.lastActivity).toBe('number');
  });

  it('SPEC §3: user state is profile, preferences (an object), status and error', () => {
    const { services } = tabServices(api.baseURL);
    const user = makeFullStore({ services }).getState().user;
    expect(sorted(user)).toEqual(['error', 'preferences', 'profile', 'status']);
    expect(user.preferences).toEqual({});
  });

  it('SPEC §3: licence state has every field of the SPEC list', () => {
    const { services } = tabServices(api.baseURL);
    const state = makeFullStore({ services }).getState().license;
    expect(sorted(state)).toEqual(
      [
        'licenses',
        'currentLicense',
        'activationStatus',
        'usageMetrics',
        'featureStatus',
        'allFeatures',
        'availablePlans',
        'featureDefinitions',
        'licenseActivations',
        'licenseStatus',
        'status',
        'error',
      ].sort(),
    );
    expect(state.featureStatus).toEqual({});
    expect(state.licenses).toEqual([]);
  });

  it('SPEC §3: admin state has the five paged collections and the selections, stats, status and error', () => {
    const { services } = tabServices(api.baseURL);
    const state = makeFullStore({ services }).getState().admin;
    expect(sorted(state)).toEqual(
      [
        'users',
        'licenses',
        'payments',
        'securityEvents',
        'features',
        'systemStats',
        'selectedUser',
        'selectedLicense',
        'selectedPayment',
        'selectedFeature',
        'status',
        'error',
      ].sort(),
    );
    for (const key of ['users', 'licenses', 'payments', 'securityEvents', 'features'] as const)
      expect(sorted(state[key])).toEqual(['data', 'page', 'perPage', 'total']);
  });
});

describe('SPEC §3 stored session data under its literal names', () => {
  it('SPEC §3: secure_access_token and secure_user_data in session storage, secure_refresh_token as a cookie', async () => {
    const { tab } = await signedIn();
    expect(tab.session.getItem('secure_access_token')).toBeTruthy();
    expect(tab.session.getItem('secure_user_data')).toBeTruthy();
    expect(tab.cookies.get('secure_refresh_token')).toBeTruthy();
    // Encrypted: neither the token's parts nor the e-mail address are readable.
    expect(tab.session.getItem('secure_user_data')).not.toContain(testUser.email);
  });

  it('SPEC §3: the licence key goes to desktop_ai_assistant_license_key and the machine id to hardware_id', async () => {
    const { store, tab } = await signedIn();
    api.on('POST /licenses/activate', () => ({
      json: activationResult('L1'),
    }));
    await store.dispatch(licence.activateLicense({ license_key: 'KEY-L1' })).unwrap();
    expect(tab.local.getItem('desktop_ai_assistant_license_key')).toBe('KEY-L1');
    const hardwareId = tab.local.getItem('hardware_id');
    expect(hardwareId).toBeTruthy();
    expect(JSON.parse(api.calls('POST /licenses/activate')[0]?.body ?? '{}')).toMatchObject({
      hardware_id: hardwareId,
    });
  });

  it('SPEC §3: logout reads desktop_ai_assistant_refresh_token from local storage', async () => {
    const { services, tab } = tabServices(api.baseURL);
    tab.local.setItem('desktop_ai_assistant_refresh_token', 'local-refresh-token');
    await makeFullStore({ services }).dispatch(logoutUser());
    expect(JSON.parse(api.calls('POST /auth/logout')[0]?.body ?? '{}')).toEqual({
      refreshToken: 'local-refresh-token',
    });
  });

  it('SPEC §3: the prefixed local names of the access token and user data are legacy entries wiped by the migration', async () => {
    const { services, tab } = tabServices(api.baseURL);
    tab.local.setItem('desktop_ai_assistant_access_token', 'plain.access.token');
    tab.local.setItem('desktop_ai_assistant_user_data', '{"id":"u1"}');
    expect(await runStorageMigrations(services)).toEqual({ requiresLogin: true });
    expect(tab.local.getItem('desktop_ai_assistant_access_token')).toBeNull();
    expect(tab.local.getItem('desktop_ai_assistant_user_data')).toBeNull();
  });
});

describe('SPEC §4 refresh failure clears the keys too', () => {
  it('SPEC §4: a failed refresh removes every secure_ entry, the storage keys included', async () => {
    const { store, tab } = await signedIn();
    expect(tab.session.getItem('secure_session_id')).toBeTruthy();
    api.on('POST /auth/refresh', () => problem(401, 'Invalid refresh token'));
    await store.dispatch(refreshSession());
    const left = [
      ...Array.from({ length: tab.session.length }, (_, index) => tab.session.key(index)),
      ...tab.cookies.names(),
    ].filter((name) => name?.startsWith('secure_'));
    expect(left).toEqual([]);
    expect(store.getState().auth).toMatchObject({ isAuthenticated: false, userRole: null });
  });
});

describe('SPEC §4 admin updates matched by license_id and feature_id', () => {
  it('SPEC §4 admin: creating a licence or a feature prepends it and increments total', async () => {
    const { store } = await signedIn();
    api.on('GET /admin/licenses', () => ({ json: paged([adminLicence('L1')], { total: 5, perPage: 10 }) }));
    await store.dispatch(admin.fetchAdminLicenses());
    api.on('POST /admin/licenses', () => ({ status: 201, json: adminLicence('L2') }));
    await store.dispatch(admin.createLicense({ user_id: 'user-1' }));
    expect(store.getState().admin.licenses.data.map((item) => item.license_id)).toEqual(['L2', 'L1']);
    expect(store.getState().admin.licenses.total).toBe(6);

    api.on('GET /admin/features', () => ({ json: paged([feature('F1')]) }));
    await store.dispatch(admin.fetchFeatures());
    api.on('POST /admin/features', () => ({ status: 201, json: feature('F2') }));
    await store.dispatch(admin.createFeature({ key: 'k', name: 'n', kind: 'boolean' }));
    expect(store.getState().admin.features.data.map((item) => item.feature_id)).toEqual(['F2', 'F1']);
    expect(store.getState().admin.features.total).toBe(2);
  });

  it('SPEC §4 admin: updating a licence replaces it by license_id in the list and in the selection', async () => {
    const { store } = await signedIn();
    api.on('GET /admin/licenses', () => ({
      json: paged([adminLicence('L1'), adminLicence('L2')], { perPage: 10 }),
    }));
    await store.dispatch(admin.fetchAdminLicenses());
    api.on('GET /admin/licenses/L2', () => ({ json: adminLicence('L2') }));
    await store.dispatch(admin.fetchAdminLicense('L2'));
    api.on('PUT /admin/licenses/L2', () => ({ json: adminLicence('L2', { max_activations: 5 }) }));
    await store.dispatch(admin.updateLicense({ id: 'L2', changes: { max_activations: 5 } }));
    const state = store.getState().admin;
    expect(state.licenses.data.map((item) => [item.license_id, item.max_activations])).toEqual([
      ['L1', 1],
      ['L2', 5],
    ]);
    expect(state.selectedLicense?.max_activations).toBe(5);
  });
});

describe('SPEC §9 key derivation', () => {
  it('SPEC §9: the storage key comes from two PBKDF2 rounds of 2000 and 1000 iterations, 256 bits long', async () => {
    const subtle = globalThis.crypto.subtle;
    const deriveBits = vi.spyOn(subtle, 'deriveBits');
    const deriveKey = vi.spyOn(subtle, 'deriveKey');
    try {
      const key = await deriveStorageKey(newSessionId());
      expect(deriveBits).toHaveBeenCalledTimes(1);
      expect(deriveBits.mock.calls[0]?.[0]).toMatchObject({ name: 'PBKDF2', iterations: 2000 });
      expect(deriveBits.mock.calls[0]?.[2]).toBe(256);
      expect(deriveKey).toHaveBeenCalledTimes(1);
      expect(deriveKey.mock.calls[0]?.[0]).toMatchObject({ name: 'PBKDF2', iterations: 1000 });
      expect(deriveKey.mock.calls[0]?.[2]).toEqual({ name: 'AES-GCM', length: 256 });
      expect((key.algorithm as AesKeyAlgorithm).length).toBe(256);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('SPEC §9: a session id is 128 random bits', () => {
    const ids = new Set(Array.from({ length: 20 }, () => newSessionId()));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });
});
