import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserProfile } from '../../src/shared/api/users';
import { authMessages, userMessages } from '../../src/shared/messages';
import { localStorageKeys } from '../../src/shared/storage-keys';
import { makeStore } from '../../src/renderer/src/app/store';
import {
  initializeSession,
  loginUser,
  logoutUser,
  refreshSession,
  registerUser,
  selectAuthError,
  selectAuthStatus,
  selectCurrentUser,
  selectIsAuthenticated,
  selectUserRole,
} from '../../src/renderer/src/features/auth/auth-slice';
import {
  fetchUserProfile,
  updateUserPreferences,
  updateUserProfile,
} from '../../src/renderer/src/features/user/user-slice';
import { FakeApi, problem, testUser } from './support/fake-api';
import { tabServices } from './support/services';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

/** The client falls back to its own message when an error comes without one (a proxy's, say). */
const WITHOUT_MESSAGE = 'an error without a message';

function setup() {
  const made = tabServices(api.baseURL);
  return { ...made, store: makeStore({ services: made.services }) };
}

async function signedIn(role: UserProfile['role'] = 'user') {
  const made = setup();
  api.role = role;
  api.on('POST /auth/login', () => ({ json: api.signInAnswer({ ...testUser, role }) }));
  await made.store.dispatch(loginUser({ email: testUser.email, password: 'pw' })).unwrap();
  return made;
}

describe('Auth state (SPEC §4 auth)', () => {
  it('SPEC §4: every async operation goes idle → loading → succeeded', async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
    expect(selectAuthStatus(store.getState())).toBe('idle');
    const pending = store.dispatch(loginUser({ email: 'a', password: 'b' }));
    expect(selectAuthStatus(store.getState())).toBe('loading');
    await pending;
    expect(selectAuthStatus(store.getState())).toBe('succeeded');
  });

  it('SPEC §4: login success sets authenticated, user and role (admin from the token)', async () => {
    const { store, services } = await signedIn('admin');
    expect(selectIsAuthenticated(store.getState())).toBe(true);
    expect(selectUserRole(store.getState())).toBe('admin');
    expect(selectCurrentUser(store.getState())?.id).toBe(testUser.id);
    expect(store.getState().user.profile?.id).toBe(testUser.id);
    expect(await services.tokens.getUser()).toMatchObject({ id: testUser.id });
  });

  it('SPEC §7: the profile is fetched from /users/me when the login answer has no user', async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => ({
      json: api.issue(),
      offContract: 'a sign-in answer without the user, which the client completes from /users/me',
    }));
    await store.dispatch(loginUser({ email: 'a', password: 'b' })).unwrap();
    expect(api.calls('GET /users/me')).toHaveLength(1);
    expect(selectCurrentUser(store.getState())?.email).toBe(testUser.email);
  });

  it('SPEC §4/§8: login failure → failed, unauthenticated, no user, server message stored', async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => problem(401, 'Incorrect email or password'));
    const result = await store.dispatch(loginUser({ email: 'a', password: 'b' }));
    expect(result.payload).toBe('Incorrect email or password');
    expect(store.getState().auth).toMatchObject({
      status: 'failed',
      isAuthenticated: false,
      user: null,
      error: 'Incorrect email or password',
    });
  });

  it("SPEC §8: login failure without a server message → 'Login failed. Please check your credentials.'", async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => ({ status: 401, json: {}, offContract: WITHOUT_MESSAGE }));
    await store.dispatch(loginUser({ email: 'a', password: 'b' }));
    expect(selectAuthError(store.getState())).toBe(authMessages.loginFailed);
  });

  it('SPEC §4: the error is cleared when the next operation starts', async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => problem(401, 'Nope'));
    await store.dispatch(loginUser({ email: 'a', password: 'b' }));
    api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
    const pending = store.dispatch(loginUser({ email: 'a', password: 'b' }));
    expect(selectAuthError(store.getState())).toBeNull();
    await pending;
  });

  it('SPEC §4: registration sets succeeded and does not log the user in', async () => {
    const { store } = setup();
    api.on('POST /auth/register', () => ({ status: 202, json: { message: 'Check your e-mail' } }));
    const result = await store
      .dispatch(registerUser({ email: 'n@example.com', password: 'long enough pw' }))
      .unwrap();
    expect(result).toBe('Check your e-mail');
    expect(store.getState().auth).toMatchObject({ status: 'succeeded', isAuthenticated: false });
  });

  it("SPEC §8: registration failure → failed with the server message, else 'Registration failed'", async () => {
    const { store } = setup();
    api.on('POST /auth/register', () => problem(400, 'Password is too common'));
    await store.dispatch(registerUser({ email: 'n@example.com', password: 'password1' }));
    expect(store.getState().auth).toMatchObject({ status: 'failed', error: 'Password is too common' });
    api.on('POST /auth/register', () => ({ status: 500, body: '', offContract: WITHOUT_MESSAGE }));
    await store.dispatch(registerUser({ email: 'n@example.com', password: 'password1' }));
    expect(selectAuthError(store.getState())).toBe(authMessages.registrationFailed);
  });

  it('SPEC §4: logout success → idle, unauthenticated, no user, role or error; refreshToken posted; storage cleared', async () => {
    const { store, services } = await signedIn();
    const refreshToken = await services.tokens.getRefreshToken();
    await store.dispatch(logoutUser());
    expect(JSON.parse(api.calls('POST /auth/logout')[0]?.body ?? '{}')).toEqual({ refreshToken });
    expect(store.getState().auth).toMatchObject({
      status: 'idle',
      isAuthenticated: false,
      user: null,
      userRole: null,
      error: null,
    });
    expect(await services.tokens.getAccessToken()).toBeNull();
    expect(await services.tokens.getRefreshToken()).toBeNull();
  });

  it('SPEC §4: logout failure ends the session just the same', async () => {
    const { store } = await signedIn();
    api.on('POST /auth/logout', () => problem(500, 'boom'));
    await store.dispatch(logoutUser());
    expect(store.getState().auth).toMatchObject({
      status: 'idle',
      isAuthenticated: false,
      user: null,
      userRole: null,
      error: null,
    });
  });

  it('SPEC §3: logout reads the refresh token from local storage desktop_ai_assistant_refresh_token too', async () => {
    const { store, tab } = setup();
    tab.local.setItem(localStorageKeys.refreshToken, 'legacy-local-refresh-token');
    await store.dispatch(logoutUser());
    expect(JSON.parse(api.calls('POST /auth/logout')[0]?.body ?? '{}')).toEqual({
      refreshToken: 'legacy-local-refresh-token',
    });
    expect(tab.local.getItem(localStorageKeys.refreshToken)).toBeNull();
  });

  it('SPEC §4: token refresh success keeps the user authenticated and updates user and role', async () => {
    const { store } = await signedIn();
    api.role = 'admin';
    api.on('POST /auth/refresh', () => ({ json: api.signInAnswer({ ...testUser, full_name: 'Ada L.' }) }));
    await store.dispatch(refreshSession());
    expect(store.getState().auth).toMatchObject({
      isAuthenticated: true,
      userRole: 'admin',
      user: { full_name: 'Ada L.' },
    });
  });

  it("SPEC §4: refresh failure clears stored tokens, unauthenticates, clears the role ('Session expired. Please login again.')", async () => {
    const { store, services } = await signedIn();
    api.on('POST /auth/refresh', () => ({ status: 401, json: {}, offContract: WITHOUT_MESSAGE }));
    await store.dispatch(refreshSession());
    expect(store.getState().auth).toMatchObject({
      isAuthenticated: false,
      userRole: null,
      error: authMessages.sessionExpired,
    });
    expect(await services.tokens.getRefreshToken()).toBeNull();
    expect(await services.tokens.getAccessToken()).toBeNull();
  });

  it('SPEC §4: start-up restores a stored valid session without calling the server', async () => {
    const first = await signedIn();
    const store = makeStore({ services: first.services });
    const before = api.requests.length;
    const result = await store.dispatch(initializeSession()).unwrap();
    expect(result.outcome).toBe('restored');
    expect(selectIsAuthenticated(store.getState())).toBe(true);
    expect(api.requests.length).toBe(before);
  });

  it('SPEC §4: start-up with an invalid access token refreshes when a refresh token exists', async () => {
    const { services } = await signedIn();
    services.session.removeItem('secure_access_token');
    const store = makeStore({ services });
    expect((await store.dispatch(initializeSession()).unwrap()).outcome).toBe('restored');
    expect(api.calls('POST /auth/refresh')).toHaveLength(1);
  });

  it('SPEC §4: start-up with nothing stored is anonymous', async () => {
    const { store } = setup();
    expect((await store.dispatch(initializeSession()).unwrap()).outcome).toBe('anonymous');
    expect(store.getState().auth).toMatchObject({ isAuthenticated: false, status: 'idle' });
  });
});

describe('User state (SPEC §4)', () => {
  it('SPEC §4: a profile update also updates the auth user and the stored user data', async () => {
    const { store, services } = await signedIn();
    api.on('PUT /users/me', () => ({ json: { ...testUser, full_name: 'Countess Lovelace' } }));
    await store.dispatch(updateUserProfile({ full_name: 'Countess Lovelace' })).unwrap();
    expect(store.getState().user.profile?.full_name).toBe('Countess Lovelace');
    expect(selectCurrentUser(store.getState())?.full_name).toBe('Countess Lovelace');
    expect(await services.tokens.getUser()).toMatchObject({ full_name: 'Countess Lovelace' });
  });

  it('SPEC §4: preferences are replaced by the answer', async () => {
    const { store } = await signedIn();
    const preferences = { ...testUser.preferences, theme: 'dark' };
    api.on('PUT /users/me/preferences', () => ({ json: preferences }));
    await store.dispatch(updateUserPreferences({ theme: 'dark' }));
    expect(store.getState().user).toMatchObject({ status: 'succeeded', preferences });
  });

  const failures = [
    ['fetch profile', () => fetchUserProfile(), 'GET /users/me', userMessages.fetchProfileFailed],
    [
      'update profile',
      () => updateUserProfile({ full_name: 'x' }),
      'PUT /users/me',
      userMessages.updateProfileFailed,
    ],
    [
      'update preferences',
      () => updateUserPreferences({ theme: 'dark' }),
      'PUT /users/me/preferences',
      userMessages.updatePreferencesFailed,
    ],
  ] as const;
  for (const [name, thunk, route, fallback] of failures) {
    it(`SPEC §8: ${name} failure stores the server message, else '${fallback}'`, async () => {
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
