import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFullStore } from './support/store';
import { authApi } from '../../src/renderer/src/features/auth/auth-endpoints';
import { refreshSession } from '../../src/renderer/src/features/auth/session-thunks';
import { licenseApi } from '../../src/renderer/src/features/licenses';
import { runStorageMigrations } from '../../src/renderer/src/lib/storage-migrations';
import { activationResult } from './support/api-answers';
import { FakeApi, problem, testUser } from './support/fake-api';
import { tabServices } from './support/services';
import { loggedInTab } from './support/signed-in';

/* The names the session data is stored under, and their removal when a refresh fails. */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

describe('stored session data under its literal names', () => {
  it('secure_access_token and secure_user_data in session storage, secure_refresh_token as a cookie', async () => {
    const { tab } = await loggedInTab(api);
    expect(tab.session.getItem('secure_access_token')).toBeTruthy();
    expect(tab.session.getItem('secure_user_data')).toBeTruthy();
    expect(tab.cookies.get('secure_refresh_token')).toBeTruthy();
    // Encrypted: neither the token's parts nor the e-mail address are readable.
    expect(tab.session.getItem('secure_user_data')).not.toContain(testUser.email);
  });

  it('the license key goes to desktop_ai_assistant_license_key and the machine id to hardware_id', async () => {
    const { store, tab } = await loggedInTab(api);
    api.on('POST /licenses/activate', () => ({
      json: activationResult('L1'),
    }));
    await store.dispatch(licenseApi.endpoints.activateLicense.initiate({ license_key: 'KEY-L1' })).unwrap();
    expect(tab.local.getItem('desktop_ai_assistant_license_key')).toBe('KEY-L1');
    const hardwareId = tab.local.getItem('hardware_id');
    expect(hardwareId).toBeTruthy();
    expect(JSON.parse(api.calls('POST /licenses/activate')[0]?.body ?? '{}')).toMatchObject({
      hardware_id: hardwareId,
    });
  });

  it('logout reads desktop_ai_assistant_refresh_token from local storage', async () => {
    const { services, tab } = tabServices(api.baseURL);
    tab.local.setItem('desktop_ai_assistant_refresh_token', 'local-refresh-token');
    await makeFullStore({ services }).dispatch(authApi.endpoints.logout.initiate());
    expect(JSON.parse(api.calls('POST /auth/logout')[0]?.body ?? '{}')).toEqual({
      refreshToken: 'local-refresh-token',
    });
  });

  it('the prefixed local names of the access token and user data are legacy entries wiped by the migration', async () => {
    const { services, tab } = tabServices(api.baseURL);
    tab.local.setItem('desktop_ai_assistant_access_token', 'plain.access.token');
    tab.local.setItem('desktop_ai_assistant_user_data', '{"id":"u1"}');
    expect(await runStorageMigrations(services)).toEqual({ requiresLogin: true });
    expect(tab.local.getItem('desktop_ai_assistant_access_token')).toBeNull();
    expect(tab.local.getItem('desktop_ai_assistant_user_data')).toBeNull();
  });
});

describe('refresh failure clears the keys too', () => {
  it('a failed refresh removes every secure_ entry, the storage keys included', async () => {
    const { store, tab } = await loggedInTab(api);
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
