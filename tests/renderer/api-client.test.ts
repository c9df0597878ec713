import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/shared/messages';
import { isHttpError } from '../../src/renderer/src/lib/api-errors';
import { createInProcessLocks } from '../../src/renderer/src/lib/locks';
import { makeStore } from '../../src/renderer/src/app/store';
import { authApi } from '../../src/renderer/src/features/auth/auth-endpoints';
import type { Services } from '../../src/renderer/src/lib/services';
import { healthy, plan } from './support/api-answers';
import { FakeApi, problem } from './support/fake-api';
import { inSeconds, makeJwt } from './support/jwt';
import { MemoryCookieJar } from './support/memory-storage';
import { tabServices } from './support/services';
import { signedInTab as signedInTabOf } from './support/signed-in';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

/** A signed-in tab (tokens the server issued) that records when the client gives the session up. */
async function signedInTab(options: Parameters<typeof tabServices>[1] = {}) {
  const made = await signedInTabOf(api, options);
  const lost: string[] = [];
  made.services.client.setSessionHandlers({
    onSessionLost: () => lost.push('landing'),
    currentPath: () => '/dashboard',
  });
  return { ...made, lost };
}

/** Signs in through the login endpoint with a store over `services`; the tokens land in their store. */
const login = (credentials: { email: string; password: string }, services: Services) =>
  makeStore({ services }).dispatch(authApi.endpoints.login.initiate(credentials)).unwrap();

describe('API client against a real HTTP server', () => {
  it('creates its one axios instance on first use; concurrent first calls share it and its interceptors', async () => {
    const { services } = await signedInTab();
    const [first, second] = await Promise.all([services.client.instance(), services.client.instance()]);
    expect(first).toBe(second);
    expect(await services.client.instance()).toBe(first);
    // One request and one response interceptor, attached once however many calls raced to create it.
    expect(first.interceptors.request.handlers?.filter(Boolean)).toHaveLength(1);
    expect(first.interceptors.response.handlers?.filter(Boolean)).toHaveLength(1);
    expect(first.defaults).toMatchObject({ baseURL: api.baseURL, timeout: 30_000, withCredentials: true });
    expect(first.defaults.headers['X-API-Key']).toBe('dap-web-public');
  });

  it('concurrent first calls through http all go out once each, with the bearer token', async () => {
    const { services, issued } = await signedInTab();
    const answers = await Promise.all(Array.from({ length: 4 }, () => services.client.http.get('/users/me')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(api.calls('GET /users/me').map((call) => call.authorization)).toEqual(
      Array.from({ length: 4 }, () => `Bearer ${issued.access_token}`),
    );
  });

  it('getPublic reads a public answer without axios: base path, API key, no bearer token', async () => {
    const { services } = await signedInTab();
    api.on('GET /plans/public', () => ({ json: [plan('pro')] }));
    expect(await services.client.getPublic('/plans/public', 'Failed to fetch plans')).toEqual([plan('pro')]);
    const [call] = api.calls('GET /plans/public');
    expect(call?.apiKey).toBe('dap-web-public');
    expect(call?.authorization).toBeUndefined();
  });

  it('getPublic rejects with the server’s message, else the fallback when nothing usable came back', async () => {
    const { services } = await signedInTab();
    api.on('GET /plans/public', () => problem(503, 'Plans are being updated'));
    await expect(services.client.getPublic('/plans/public', 'Failed to fetch plans')).rejects.toMatchObject({
      message: 'Plans are being updated',
      status: 503,
    });
    api.on('GET /plans/public', () => ({
      status: 502,
      body: '<html>bad gateway</html>',
      offContract: 'the error page of a proxy in front of the server',
    }));
    await expect(services.client.getPublic('/plans/public', 'Failed to fetch plans')).rejects.toMatchObject({
      message: 'Failed to fetch plans',
      status: 502,
    });
  });

  it('isHttpError recognises axios errors without importing axios', async () => {
    const { services } = await signedInTab();
    api.on('GET /licenses/missing', () => problem(404, 'Missing'));
    const error: unknown = await services.client.http
      .get('/licenses/missing')
      .catch((caught: unknown) => caught);
    const { isAxiosError } = await import('axios');
    expect(isAxiosError(error)).toBe(true);
    expect(isHttpError(error)).toBe(true);
    for (const other of [new Error('x'), null, undefined, 'x', { isAxiosError: 'yes' }])
      expect(isHttpError(other)).toBe(isAxiosError(other));
  });

  it('every call carries the X-API-Key header and goes below /api/v1', async () => {
    const { services } = await signedInTab();
    await services.client.http.get('/users/me');
    expect(api.calls('GET /users/me')[0]?.apiKey).toBe('dap-web-public');
  });

  it('a valid stored token is sent as a bearer token', async () => {
    const { services, issued } = await signedInTab();
    const response = await services.client.http.get('/users/me');
    expect(response.status).toBe(200);
    expect(api.calls('GET /users/me')[0]?.authorization).toBe(`Bearer ${issued.access_token}`);
  });

  it('public endpoints are called without a bearer token', async () => {
    const { services } = await signedInTab();
    api.on('POST /auth/forgot-password', () => ({ status: 202, json: { message: 'sent' } }));
    api.on('GET /health', () => ({ json: healthy }));
    await services.client.http.post('/auth/forgot-password', { email: 'a@example.com' });
    await services.client.http.get('/health');
    expect(api.calls('POST /auth/forgot-password')[0]?.authorization).toBeUndefined();
    expect(api.calls('GET /health')[0]?.authorization).toBeUndefined();
  });

  it('with no valid token, a refresh is tried first and the call carries the new token', async () => {
    const made = tabServices(api.baseURL);
    const issued = api.issue();
    const expired = makeJwt({ exp: inSeconds(-10) });
    await made.services.tokens.save({ accessToken: expired, refreshToken: issued.refresh_token, user: null });
    await made.services.client.http.get('/users/me');
    expect(api.calls('POST /auth/refresh')).toHaveLength(1);
    const sent = api.calls('GET /users/me')[0]?.authorization;
    expect(sent).toMatch(/^Bearer /);
    expect(sent).not.toBe(`Bearer ${expired}`);
    expect(await made.services.tokens.getAccessToken()).toBe(sent?.slice('Bearer '.length));
  });

  it('an anonymous visitor (no tokens) calls without a bearer token and without a refresh', async () => {
    const { services } = tabServices(api.baseURL);
    api.on('GET /plans/public', () => ({ json: [] }));
    await services.client.http.get('/plans/public');
    expect(api.calls('GET /plans/public')[0]?.authorization).toBeUndefined();
    expect(api.calls('POST /auth/refresh')).toHaveLength(0);
  });

  it('401: refreshes once with the stored refresh token, stores the new tokens and retries', async () => {
    const { services, issued } = await signedInTab();
    api.revoke(issued.access_token);
    const response = await services.client.http.get('/users/me');
    expect(response.status).toBe(200);
    expect(api.refreshTokensSpent).toEqual([issued.refresh_token]);
    expect(api.calls('GET /users/me')).toHaveLength(2);
    expect(await services.tokens.getRefreshToken()).not.toBe(issued.refresh_token);
  });

  it('401: N concurrent 401s share ONE refresh and all retry with the new token', async () => {
    const { services, issued } = await signedInTab();
    api.revoke(issued.access_token);
    const answers = await Promise.all(Array.from({ length: 6 }, () => services.client.http.get('/users/me')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(api.calls('POST /auth/refresh')).toHaveLength(1);
    expect(api.reuseDetected).toBe(false);
  });

  it('401: two tabs sharing the refresh cookie and a Web Lock never spend the same refresh token', async () => {
    const cookies = new MemoryCookieJar();
    const locks = createInProcessLocks(); // stands in for navigator.locks, which every tab shares
    const first = await signedInTab({ cookies, locks });
    // The second tab has its own session storage (no access token) but reads the same cookie.
    const second = tabServices(api.baseURL, { cookies, locks });
    second.services.client.setSessionHandlers({ onSessionLost: () => first.lost.push('second tab lost') });
    api.revoke(first.issued.access_token);

    const [a, b] = await Promise.all([
      first.services.client.http.get('/users/me'),
      second.services.client.http.get('/users/me'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(api.reuseDetected).toBe(false);
    expect(new Set(api.refreshTokensSpent).size).toBe(api.refreshTokensSpent.length);
    expect(api.refreshTokensSpent[0]).toBe(first.issued.refresh_token);
    expect(first.lost).toEqual([]);
  });

  it('401: without the shared lock the second tab would spend the rotated token (the lock matters)', async () => {
    const cookies = new MemoryCookieJar();
    const first = await signedInTab({ cookies, locks: createInProcessLocks() });
    const second = tabServices(api.baseURL, { cookies, locks: createInProcessLocks() });
    api.revoke(first.issued.access_token);
    await Promise.allSettled([
      first.services.client.http.get('/users/me'),
      second.services.client.http.get('/users/me'),
    ]);
    expect(api.reuseDetected).toBe(true);
  });

  it('401: a failed refresh clears the stored tokens and goes to /landing', async () => {
    const { services, issued, lost } = await signedInTab();
    api.revoke(issued.access_token);
    api.on('POST /auth/refresh', () => problem(401, 'Invalid refresh token'));
    await expect(services.client.http.get('/users/me')).rejects.toMatchObject({ response: { status: 401 } });
    expect(lost).toEqual(['landing']);
    expect(await services.tokens.getAccessToken()).toBeNull();
    expect(await services.tokens.getRefreshToken()).toBeNull();
  });

  it('401: with no refresh token the client clears the session and goes to /landing', async () => {
    const made = tabServices(api.baseURL);
    const lost: string[] = [];
    made.services.client.setSessionHandlers({ onSessionLost: () => lost.push('landing') });
    const token = makeJwt({ exp: inSeconds(600) }); // valid-looking, unknown to the server
    await made.services.secure.setAccessToken(token);
    await expect(made.services.client.http.get('/users/me')).rejects.toBeTruthy();
    expect(api.calls('POST /auth/refresh')).toHaveLength(0);
    expect(lost).toEqual(['landing']);
  });

  it('401: a wrong password at login is not a session problem (no refresh, no redirect)', async () => {
    const { services, lost } = await signedInTab();
    api.on('POST /auth/login', () => problem(401, 'Incorrect email or password'));
    await expect(login({ email: 'a@example.com', password: 'nope' }, services)).rejects.toMatchObject({
      message: 'Incorrect email or password',
      status: 401,
    });
    expect(api.calls('POST /auth/refresh')).toHaveLength(0);
    expect(lost).toEqual([]);
  });

  for (const message of ['Invalid token', 'Invalid or expired token', 'Not authenticated']) {
    it(`403: '${message}' away from the auth pages clears the session and goes to /landing`, async () => {
      const { services, lost } = await signedInTab();
      api.on('GET /licenses', () => problem(403, message));
      await expect(services.client.http.get('/licenses')).rejects.toBeTruthy();
      expect(lost).toEqual(['landing']);
      expect(await services.tokens.getRefreshToken()).toBeNull();
    });
  }

  it('403: the same message on the login page does not end the session', async () => {
    const { services, lost } = await signedInTab();
    services.client.setSessionHandlers({
      onSessionLost: () => lost.push('landing'),
      currentPath: () => '/login',
    });
    api.on('GET /licenses', () => problem(403, 'Invalid token'));
    await expect(services.client.http.get('/licenses')).rejects.toBeTruthy();
    expect(lost).toEqual([]);
    expect(await services.tokens.getRefreshToken()).not.toBeNull();
  });

  it("403: other refusals are logged as 'Access forbidden' with the server message, or the default", async () => {
    const { services, tab, lost } = await signedInTab();
    api.on('GET /admin/users', () => problem(403, 'Administrators only'));
    api.on('GET /payments/admin/payments', () => ({
      status: 403,
      json: {},
      offContract: 'a refusal without a message, which the client must still explain',
    }));
    await expect(services.client.http.get('/admin/users')).rejects.toBeTruthy();
    await expect(services.client.http.get('/payments/admin/payments')).rejects.toBeTruthy();
    expect(tab.logs).toEqual([
      { level: 'warn', message: authMessages.accessForbidden, detail: 'Administrators only' },
      { level: 'warn', message: authMessages.accessForbidden, detail: authMessages.noPermission },
    ]);
    expect(lost).toEqual([]);
  });

  it("5xx: logged with the server message or 'An unexpected server error occurred'", async () => {
    const { services, tab } = await signedInTab();
    api.on('GET /licenses', () => problem(503, 'Database unavailable'));
    api.on('GET /licenses/current-plan', () => ({
      status: 500,
      body: 'oops',
      offContract: 'a crash page that is not JSON, as a proxy may send',
    }));
    await expect(services.client.http.get('/licenses')).rejects.toBeTruthy();
    await expect(services.client.http.get('/licenses/current-plan')).rejects.toBeTruthy();
    expect(tab.logs).toEqual([
      { level: 'error', message: 'Database unavailable', detail: undefined },
      { level: 'error', message: authMessages.unexpectedServerError, detail: undefined },
    ]);
  });
});

describe('Login answers', () => {
  it('login posts the e-mail as username, form-encoded, without a bearer token', async () => {
    const { services } = tabServices(api.baseURL);
    api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
    await login({ email: 'ada@example.com', password: 'secret pass' }, services);
    const tokens = { accessToken: await services.tokens.getAccessToken() };
    const call = api.calls('POST /auth/login')[0];
    expect(call?.contentType).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(call?.body))).toEqual({
      username: 'ada@example.com',
      password: 'secret pass',
    });
    expect(call?.authorization).toBeUndefined();
    expect(tokens.accessToken).toMatch(/\./);
  });

  it("an HTML answer fails with 'Server configuration error: …received HTML…'", async () => {
    const { services } = tabServices(api.baseURL);
    api.on('POST /auth/login', () => ({
      body: '<!doctype html><html></html>',
      type: 'text/html',
      offContract: 'the web portal’s page, as a misrouted API base answers',
    }));
    await expect(login({ email: 'a@b.c', password: 'x' }, services)).rejects.toThrow(
      authMessages.htmlResponse,
    );
  });

  it('an HTML error page (a proxy 502) fails with the same HTML message', async () => {
    const { services } = tabServices(api.baseURL);
    api.on('POST /auth/login', () => ({
      status: 502,
      body: '<html>Bad gateway</html>',
      type: 'text/html',
      offContract: 'the error page of a proxy in front of the server',
    }));
    await expect(login({ email: 'a@b.c', password: 'x' }, services)).rejects.toThrow(
      authMessages.htmlResponse,
    );
  });

  it("a non-JSON answer fails with 'Server returned non-JSON response…'", async () => {
    const { services } = tabServices(api.baseURL);
    api.on('POST /auth/login', () => ({
      body: 'access_token=abc',
      type: 'text/plain',
      offContract: 'a server that does not speak JSON',
    }));
    await expect(login({ email: 'a@b.c', password: 'x' }, services)).rejects.toThrow(
      authMessages.nonJsonResponse,
    );
  });

  it("a JSON answer without a token fails with 'Authentication failed: No token received'", async () => {
    const { services } = tabServices(api.baseURL);
    api.on('POST /auth/login', () => ({
      json: { token_type: 'bearer' },
      offContract: 'a sign-in answer without tokens, which the client must refuse',
    }));
    await expect(login({ email: 'a@b.c', password: 'x' }, services)).rejects.toThrow(
      authMessages.noTokenReceived,
    );
  });
});

describe('Refresh answers', () => {
  const token = () => makeJwt({ exp: inSeconds(900) });
  const shapes: [string, (access: string) => unknown][] = [
    [
      'an array (first item used)',
      (access) => [{ access_token: access, refresh_token: 'rotated-refresh-token-0001' }],
    ],
    [
      'a data field',
      (access) => ({ data: { accessToken: access, refreshToken: 'rotated-refresh-token-0001' } }),
    ],
    [
      'token / refresh_token names',
      (access) => ({ token: access, refresh_token: 'rotated-refresh-token-0001' }),
    ],
  ];
  for (const [name, shape] of shapes) {
    it(`a refresh answer as ${name} is read`, async () => {
      const { services } = await signedInTab();
      const access = token();
      api.on('POST /auth/refresh', () => ({
        json: shape(access),
        offContract: 'a refresh answer of another shape, which the client still reads',
      }));
      const result = await services.client.refreshTokens();
      expect(result.accessToken).toBe(access);
      expect(await services.tokens.getAccessToken()).toBe(access);
      expect(await services.tokens.getRefreshToken()).toBe('rotated-refresh-token-0001');
    });
  }

  it('the user comes from user or userData', async () => {
    const { services } = await signedInTab();
    api.on('POST /auth/refresh', () => ({
      json: { accessToken: token(), userData: { id: 'u-9' } },
      offContract: 'a refresh answer of another shape, which the client still reads',
    }));
    expect((await services.client.refreshTokens()).user).toEqual({ id: 'u-9' });
  });

  it("a refresh answer without an access token fails with 'No access token in refresh response' and clears auth", async () => {
    const { services } = await signedInTab();
    api.on('POST /auth/refresh', () => ({
      json: { refresh_token: 'x' },
      offContract: 'a refresh answer without an access token, which the client must refuse',
    }));
    await expect(services.client.refreshTokens()).rejects.toThrow(authMessages.noAccessTokenInRefresh);
    expect(await services.tokens.getAccessToken()).toBeNull();
    expect(await services.tokens.getRefreshToken()).toBeNull();
  });

  it("refreshing without a refresh token fails with 'No refresh token available'", async () => {
    const { services } = tabServices(api.baseURL);
    await expect(services.client.refreshTokens()).rejects.toThrow(authMessages.noRefreshToken);
    expect(api.calls('POST /auth/refresh')).toHaveLength(0);
  });
});
