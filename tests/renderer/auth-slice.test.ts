import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserProfile } from '../../src/shared/api/users';
import { authMessages } from '../../src/shared/messages';
import { localStorageKeys } from '../../src/shared/storage-keys';
import { makeStore } from '../../src/renderer/src/app/store';
import { authApi } from '../../src/renderer/src/features/auth/auth-endpoints';
import {
  selectAuthError,
  selectAuthStatus,
  selectCurrentUser,
  selectIsAuthenticated,
  selectUserRole,
} from '../../src/renderer/src/features/auth/auth-slice';
import { initializeSession, refreshSession } from '../../src/renderer/src/features/auth/session-thunks';
import { FakeApi, problem, testUser, WITHOUT_MESSAGE } from './support/fake-api';
import { tabServices } from './support/services';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

function setup() {
  const made = tabServices(api.baseURL);
  return { ...made, store: makeStore({ services: made.services }) };
}

async function signedIn(role: UserProfile['role'] = 'user') {
  const made = setup();
  api.role = role;
  api.on('POST /auth/login', () => ({ json: api.signInAnswer({ ...testUser, role }) }));
  await made.store
    .dispatch(authApi.endpoints.login.initiate({ email: testUser.email, password: 'pw' }))
    .unwrap();
  return made;
}

describe('Auth state', () => {
  it('every async operation goes idle → loading → succeeded', async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
    expect(selectAuthStatus(store.getState())).toBe('idle');
    const pending = store.dispatch(authApi.endpoints.login.initiate({ email: 'a', password: 'b' }));
    expect(selectAuthStatus(store.getState())).toBe('loading');
    await pending;
    expect(selectAuthStatus(store.getState())).toBe('succeeded');
  });

  it('login success sets authenticated, user and role (admin from the token)', async () => {
    const { store, services } = await signedIn('admin');
    expect(selectIsAuthenticated(store.getState())).toBe(true);
    expect(selectUserRole(store.getState())).toBe('admin');
    expect(selectCurrentUser(store.getState())?.id).toBe(testUser.id);
    expect(store.getState().user.profile?.id).toBe(testUser.id);
    expect(await services.tokens.getUser()).toMatchObject({ id: testUser.id });
  });

  it('the profile is fetched from /users/me when the login answer has no user', async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => ({
      json: api.issue(),
      offContract: 'a sign-in answer without the user, which the client completes from /users/me',
    }));
    await store.dispatch(authApi.endpoints.login.initiate({ email: 'a', password: 'b' })).unwrap();
    expect(api.calls('GET /users/me')).toHaveLength(1);
    expect(selectCurrentUser(store.getState())?.email).toBe(testUser.email);
  });

  it('login failure → failed, unauthenticated, no user, server message stored', async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => problem(401, 'Incorrect email or password'));
    const result = await store.dispatch(authApi.endpoints.login.initiate({ email: 'a', password: 'b' }));
    expect('error' in result && result.error?.message).toBe('Incorrect email or password');
    expect(store.getState().auth).toMatchObject({
      status: 'failed',
      isAuthenticated: false,
      user: null,
      error: 'Incorrect email or password',
    });
  });

  it("login failure without a server message → 'Login failed. Please check your credentials.'", async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => ({ status: 401, json: {}, offContract: WITHOUT_MESSAGE }));
    await store.dispatch(authApi.endpoints.login.initiate({ email: 'a', password: 'b' }));
    expect(selectAuthError(store.getState())).toBe(authMessages.loginFailed);
  });

  it('the error is cleared when the next operation starts', async () => {
    const { store } = setup();
    api.on('POST /auth/login', () => problem(401, 'Nope'));
    await store.dispatch(authApi.endpoints.login.initiate({ email: 'a', password: 'b' }));
    api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
    const pending = store.dispatch(authApi.endpoints.login.initiate({ email: 'a', password: 'b' }));
    expect(selectAuthError(store.getState())).toBeNull();
    await pending;
  });

  it('registration sets succeeded and does not log the user in', async () => {
    const { store } = setup();
    api.on('POST /auth/register', () => ({ status: 202, json: { message: 'Check your e-mail' } }));
    const result = await store
      .dispatch(authApi.endpoints.register.initiate({ email: 'n@example.com', password: 'long enough pw' }))
      .unwrap();
    expect(result).toBe('Check your e-mail');
    expect(store.getState().auth).toMatchObject({ status: 'succeeded', isAuthenticated: false });
  });

  it("registration failure → failed with the server message, else 'Registration failed'", async () => {
    const { store } = setup();
    api.on('POST /auth/register', () => problem(400, 'Password is too common'));
    await store.dispatch(
      authApi.endpoints.register.initiate({ email: 'n@example.com', password: 'password1' }),
    );
    expect(store.getState().auth).toMatchObject({ status: 'failed', error: 'Password is too common' });
    api.on('POST /auth/register', () => ({ status: 500, body: '', offContract: WITHOUT_MESSAGE }));
    await store.dispatch(
      authApi.endpoints.register.initiate({ email: 'n@example.com', password: 'password1' }),
    );
    expect(selectAuthError(store.getState())).toBe(authMessages.registrationFailed);
  });

  it('logout success → idle, unauthenticated, no user, role or error; refreshToken posted; storage cleared', async () => {
    const { store, services } = await signedIn();
    const refreshToken = await services.tokens.getRefreshToken();
    await store.dispatch(authApi.endpoints.logout.initiate());
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

  it('logout failure ends the session just the same', async () => {
    const { store } = await signedIn();
    api.on('POST /auth/logout', () => problem(500, 'boom'));
    await store.dispatch(authApi.endpoints.logout.initiate());
    expect(store.getState().auth).toMatchObject({
      status: 'idle',
      isAuthenticated: false,
      user: null,
      userRole: null,
      error: null,
    });
  });

  it('logout reads the refresh token from local storage desktop_ai_assistant_refresh_token too', async () => {
    const { store, tab } = setup();
    tab.local.setItem(localStorageKeys.refreshToken, 'legacy-local-refresh-token');
    await store.dispatch(authApi.endpoints.logout.initiate());
    expect(JSON.parse(api.calls('POST /auth/logout')[0]?.body ?? '{}')).toEqual({
      refreshToken: 'legacy-local-refresh-token',
    });
    expect(tab.local.getItem(localStorageKeys.refreshToken)).toBeNull();
  });

  it('token refresh success keeps the user authenticated and updates user and role', async () => {
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

  it("refresh failure clears stored tokens, unauthenticates, clears the role ('Session expired. Please login again.')", async () => {
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

  it('start-up restores a stored valid session without calling the server', async () => {
    const first = await signedIn();
    const store = makeStore({ services: first.services });
    const before = api.requests.length;
    const result = await store.dispatch(initializeSession()).unwrap();
    expect(result.outcome).toBe('restored');
    expect(selectIsAuthenticated(store.getState())).toBe(true);
    expect(api.requests.length).toBe(before);
  });

  it('start-up with an invalid access token refreshes when a refresh token exists', async () => {
    const { services } = await signedIn();
    services.session.removeItem('secure_access_token');
    const store = makeStore({ services });
    expect((await store.dispatch(initializeSession()).unwrap()).outcome).toBe('restored');
    expect(api.calls('POST /auth/refresh')).toHaveLength(1);
  });

  it('start-up with nothing stored is anonymous', async () => {
    const { store } = setup();
    expect((await store.dispatch(initializeSession()).unwrap()).outcome).toBe('anonymous');
    expect(store.getState().auth).toMatchObject({ isAuthenticated: false, status: 'idle' });
  });
});
