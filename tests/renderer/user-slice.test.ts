import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userMessages } from '../../src/shared/screen-messages';
import { selectCurrentUser } from '../../src/renderer/src/features/auth/auth-slice';
import { userApi } from '../../src/renderer/src/features/users/users-endpoints';
import { FakeApi, problem, testUser, WITHOUT_MESSAGE } from './support/fake-api';
import { loggedInTab } from './support/signed-in';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

const signedIn = () => loggedInTab(api);

describe('User state', () => {
  it('a profile update also updates the auth user and the stored user data', async () => {
    const { store, services } = await signedIn();
    api.on('PUT /users/me', () => ({ json: { ...testUser, full_name: 'Countess Lovelace' } }));
    await store
      .dispatch(userApi.endpoints.updateMyProfile.initiate({ full_name: 'Countess Lovelace' }))
      .unwrap();
    expect(store.getState().user.profile?.full_name).toBe('Countess Lovelace');
    expect(selectCurrentUser(store.getState())?.full_name).toBe('Countess Lovelace');
    expect(await services.tokens.getUser()).toMatchObject({ full_name: 'Countess Lovelace' });
  });

  it('preferences are replaced by the answer', async () => {
    const { store } = await signedIn();
    const preferences = { ...testUser.preferences, theme: 'dark' };
    api.on('PUT /users/me/preferences', () => ({ json: preferences }));
    await store.dispatch(userApi.endpoints.updateMyPreferences.initiate({ theme: 'dark' }));
    expect(store.getState().user).toMatchObject({ status: 'succeeded', preferences });
  });

  const failures = [
    [
      'fetch profile',
      // Past the cache: each call reads again, as the profile page does on every visit.
      () => userApi.endpoints.fetchMyProfile.initiate(undefined, { forceRefetch: true }),
      'GET /users/me',
      userMessages.fetchProfileFailed,
    ],
    [
      'update profile',
      () => userApi.endpoints.updateMyProfile.initiate({ full_name: 'x' }),
      'PUT /users/me',
      userMessages.updateProfileFailed,
    ],
    [
      'update preferences',
      () => userApi.endpoints.updateMyPreferences.initiate({ theme: 'dark' }),
      'PUT /users/me/preferences',
      userMessages.updatePreferencesFailed,
    ],
  ] as const;
  for (const [name, thunk, route, fallback] of failures) {
    it(`${name} failure stores the server message, else '${fallback}'`, async () => {
      const { store } = await signedIn();
      api.on(route, () => problem(400, 'Server says no'));
      await store.dispatch(thunk() as never);
      expect(store.getState().user).toMatchObject({ status: 'failed', error: 'Server says no' });
      api.on(route, () => ({ status: 400, json: {}, offContract: WITHOUT_MESSAGE }));
      await store.dispatch(thunk() as never);
      expect(store.getState().user.error).toBe(fallback);
    });
  }
});
