import type { InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authMessages } from '../../src/shared/messages';
import { makeFullStore } from './support/store';
import { adminApi } from '../../src/renderer/src/features/admin/admin-endpoints';
import { authApi } from '../../src/renderer/src/features/auth/auth-endpoints';
import { refreshSession } from '../../src/renderer/src/features/auth/session-thunks';
import { licenseApi } from '../../src/renderer/src/features/licenses';
import { plansApi } from '../../src/renderer/src/features/plans';
import { userApi } from '../../src/renderer/src/features/users/users-endpoints';
import { createServices } from '../../src/renderer/src/lib/services';
import { featureStats, healthy, paged, plan } from './support/api-answers';
import { type Answer, FakeApi, problem, testUser } from './support/fake-api';
import { inSeconds, makeJwt } from './support/jwt';
import { tabServices } from './support/services';
import { makeLicense, signedInTab } from './support/signed-in';

const license = licenseApi.endpoints;
const plans = plansApi.endpoints;

/*
 * The requests the portal sends and how it reads their answers: the API client's defaults, the
 * public calls, the 403 rule on every auth page, and the calls no other test file makes.
 * Everything runs against the real HTTP fake API of tests/renderer/support/fake-api.ts.
 */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

/** A tab holding tokens the fake server issued, stored the way the portal stores them. */
const bodyOf = (route: string) => JSON.parse(api.calls(route)[0]?.body || '{}') as unknown;

describe('client defaults', () => {
  it('calls go below /api/v1 with a 30000 ms timeout and included credentials', async () => {
    // The portal's own services (no test base URL): the request each call would send, as axios sees it.
    const { client } = createServices({ session: sessionStorage, local: localStorage, bridge: undefined });
    const http = await client.instance();
    expect(http.defaults).toMatchObject({ baseURL: '/api/v1', timeout: 30_000, withCredentials: true });
    let sent: InternalAxiosRequestConfig | undefined;
    http.interceptors.request.use((config) => {
      sent = config;
      throw new Error('captured');
    });
    await expect(client.http.get('/users/me')).rejects.toThrow('captured');
    expect(sent).toMatchObject({
      baseURL: '/api/v1',
      url: '/users/me',
      timeout: 30_000,
      withCredentials: true,
    });
    expect(sent?.headers['X-API-Key']).toBeTruthy();
  });

  it('a request body is sent as JSON and JSON is asked for', async () => {
    const { store } = await signedInTab(api);
    api.on('PUT /users/me', () => ({ json: testUser }));
    await store.dispatch(userApi.endpoints.updateMyProfile.initiate({ full_name: 'Ada' })).unwrap();
    expect(api.calls('PUT /users/me')[0]?.contentType).toContain('application/json');
    expect(bodyOf('PUT /users/me')).toEqual({ full_name: 'Ada' });
  });
});

describe('public endpoints', () => {
  const publicCalls: [string, string, () => Answer][] = [
    ['POST', '/auth/register', () => ({ status: 202, json: { message: 'Check your e-mail' } })],
    ['POST', '/auth/login', () => ({ json: api.signInAnswer() })],
    ['POST', '/auth/login/json', () => ({ json: api.signInAnswer() })],
    ['POST', '/auth/forgot-password', () => ({ status: 202, json: { message: 'Check your e-mail' } })],
    ['POST', '/auth/reset-password', () => ({ json: { message: 'Password changed' } })],
    ['POST', '/auth/verify-registration', () => ({ json: { message: 'E-mail confirmed' } })],
    ['GET', '/health', () => ({ json: healthy })],
  ];
  it.each(publicCalls)(
    '%s %s is called without a bearer token, even when signed in',
    async (method, path, answer) => {
      const { services } = await signedInTab(api);
      api.on(`${method} ${path}`, answer);
      await services.client.http.request({ method, url: path, data: method === 'POST' ? {} : undefined });
      const call = api.calls(`${method} ${path}`)[0];
      expect(call).toBeDefined();
      expect(call?.authorization).toBeUndefined();
      // A protected call of the same tab does carry the token (the tab is really signed in).
      await services.client.http.get('/users/me');
      expect(api.calls('GET /users/me')[0]?.authorization).toMatch(/^Bearer /);
    },
  );
});

describe('403 on the auth pages', () => {
  it.each(['/register', '/forgot-password', '/reset-password', '/landing'])(
    "403: 'Invalid token' while on %s does not end the session",
    async (page) => {
      const { services } = await signedInTab(api);
      const lost: string[] = [];
      services.client.setSessionHandlers({
        onSessionLost: () => lost.push('landing'),
        currentPath: () => page,
      });
      api.on('GET /licenses', () => problem(403, 'Invalid token'));
      await expect(services.client.http.get('/licenses')).rejects.toBeTruthy();
      expect(lost).toEqual([]);
      expect(await services.tokens.getRefreshToken()).not.toBeNull();
    },
  );
});

describe('payloads', () => {
  it.each([
    ['access_token / refresh_token', (access: string) => ({ access_token: access, refresh_token: 'r-1' })],
    ['token / refreshToken', (access: string) => ({ token: access, refreshToken: 'r-1' })],
    ['accessToken / refresh_token', (access: string) => ({ accessToken: access, refresh_token: 'r-1' })],
  ])('a login answer naming the tokens %s is read', async (_names, shape) => {
    const { services } = tabServices(api.baseURL);
    const access = makeJwt({ exp: inSeconds(900) });
    api.on('POST /auth/login', () => ({
      json: shape(access),
      offContract: 'a sign-in answer of another shape, which the client still reads',
    }));
    // Without a user in the answer, sign-in reads the profile with the new (test-made) token.
    api.on('GET /users/me', () => ({ json: testUser }));
    await makeFullStore({ services })
      .dispatch(authApi.endpoints.login.initiate({ email: 'ada@example.com', password: 'pw' }))
      .unwrap();
    const tokens = {
      accessToken: await services.tokens.getAccessToken(),
      refreshToken: await services.tokens.getRefreshToken(),
    };
    expect(tokens).toMatchObject({ accessToken: access, refreshToken: 'r-1' });
  });

  it('plan activation sends planId and userInfo (an empty object unless given)', async () => {
    const { store } = await signedInTab(api);
    api.on('POST /licenses/activate-plan', () => ({ json: makeLicense('L1') }));
    await store.dispatch(license.activatePlan.initiate({ planId: 'plan-pro' })).unwrap();
    await store
      .dispatch(license.activatePlan.initiate({ planId: 'plan-pro', userInfo: { company: 'ACME' } }))
      .unwrap();
    const bodies = api.calls('POST /licenses/activate-plan').map((call) => JSON.parse(call.body) as unknown);
    expect(bodies).toEqual([
      { planId: 'plan-pro', userInfo: {} },
      { planId: 'plan-pro', userInfo: { company: 'ACME' } },
    ]);
  });
});

describe('calls without another test', () => {
  it('the profile is fetched from GET /users/me after a refresh whose answer has no user', async () => {
    const store = makeFullStore({ services: tabServices(api.baseURL).services });
    api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
    await store
      .dispatch(authApi.endpoints.login.initiate({ email: testUser.email, password: 'pw' }))
      .unwrap();
    expect(api.calls('GET /users/me')).toHaveLength(0);
    api.on('POST /auth/refresh', () => ({
      json: api.issue(),
      offContract: 'a refresh answer without the user, which the client completes from /users/me',
    }));
    await store.dispatch(refreshSession()).unwrap();
    expect(api.calls('GET /users/me')).toHaveLength(1);
    expect(store.getState().auth.user?.email).toBe(testUser.email);
  });

  it('POST /auth/validate-token carries the bearer token and reports whether it is accepted', async () => {
    const { store, issued } = await signedInTab(api);
    const validateToken = () => store.dispatch(authApi.endpoints.validateToken.initiate()).unwrap();
    api.on('POST /auth/validate-token', () => ({
      json: { valid: true, user_id: 'user-1', role: 'user', exp: inSeconds(900) },
    }));
    expect(await validateToken()).toBe(true);
    expect(api.calls('POST /auth/validate-token')[0]?.authorization).toBe(`Bearer ${issued.access_token}`);
    api.on('POST /auth/validate-token', () => problem(400, 'Malformed token'));
    expect(await validateToken()).toBe(false);
  });

  it('POST /auth/change-password sends the password form with the bearer token', async () => {
    const { store } = await signedInTab(api);
    api.on('POST /auth/change-password', () => ({ json: { message: 'Password changed' } }));
    const message = await store
      .dispatch(
        authApi.endpoints.changePassword.initiate({
          currentPassword: 'old secret words',
          newPassword: 'new secret words',
        }),
      )
      .unwrap();
    expect(message).toBe('Password changed');
    expect(bodyOf('POST /auth/change-password')).toEqual({
      current_password: 'old secret words',
      new_password: 'new secret words',
    });
    expect(api.calls('POST /auth/change-password')[0]?.authorization).toMatch(/^Bearer /);
  });

  it('GET /licenses/{id}/download answers the releases of the license', async () => {
    const { store } = await signedInTab(api);
    const answer = { license_id: 'L1', releases: [] };
    api.on('GET /licenses/L1/download', () => ({ json: answer }));
    const releases = license.getReleases.initiate({ licenseId: 'L1', status: 'active' });
    expect(await store.dispatch(releases).unwrap()).toEqual(answer.releases);
    expect(api.calls('GET /licenses/L1/download')).toHaveLength(1);
  });

  it('GET /admin/features/stats is read for the admin features page', async () => {
    const { store } = await signedInTab(api);
    const stats = featureStats;
    api.on('GET /admin/features/stats', () => ({ json: stats }));
    expect(await store.dispatch(adminApi.endpoints.getFeatureStats.initiate()).unwrap()).toEqual(stats);
    expect(api.calls('GET /admin/features/stats')).toHaveLength(1);
  });

  const stats = { total: 1, active: 1, draft: 0, public: 1, archived: 0, by_plan: [] };
  const deleted = { id: 'p1', outcome: 'deleted', message: 'Plan deleted' };
  type TabStore = Awaited<ReturnType<typeof signedInTab>>['store'];
  const planCalls: [string, string, (store: TabStore) => Promise<unknown>, unknown, number?][] = [
    [
      'GET /plans/public',
      'GET /plans/public',
      (s) => s.dispatch(plans.getPublicPlans.initiate()).unwrap(),
      [plan('p1')],
    ],
    [
      'GET /plans/public/{id}',
      'GET /plans/public/p1',
      (s) => s.dispatch(plans.getPublicPlan.initiate('p1')).unwrap(),
      plan('p1'),
    ],
    [
      'GET /plans',
      'GET /plans',
      (s) => s.dispatch(plans.listPlans.initiate({ page: 2 })).unwrap(),
      paged([plan('p1')], { page: 2 }),
    ],
    [
      'GET /plans/{id}',
      'GET /plans/p1',
      (s) => s.dispatch(plans.getPlan.initiate('p1')).unwrap(),
      plan('p1'),
    ],
    [
      'POST /plans',
      'POST /plans',
      (s) => s.dispatch(plans.createPlan.initiate({ code: 'pro' } as never)).unwrap(),
      plan('pro'),
      201,
    ],
    [
      'PUT /plans/{id}',
      'PUT /plans/p1',
      (s) => s.dispatch(plans.updatePlan.initiate({ id: 'p1', body: { name: 'Pro' } as never })).unwrap(),
      plan('p1'),
    ],
    [
      'DELETE /plans/{id}',
      'DELETE /plans/p1',
      (s) => s.dispatch(plans.deletePlan.initiate('p1')).unwrap(),
      deleted,
    ],
    [
      'POST /plans/{id}/publish',
      'POST /plans/p1/publish',
      (s) => s.dispatch(plans.publishPlan.initiate('p1')).unwrap(),
      plan('p1'),
    ],
    [
      'GET /plans/stats',
      'GET /plans/stats',
      (s) => s.dispatch(plans.getPlanStats.initiate()).unwrap(),
      stats,
    ],
  ];
  it.each(planCalls)(
    'plans: %s is called and its answer returned',
    async (_name, route, run, answer, status) => {
      const { store } = await signedInTab(api);
      api.on(route, () => ({ status, json: answer }));
      expect(await run(store)).toEqual(answer);
      expect(api.calls(route)).toHaveLength(1);
    },
  );

  it('admin: a list answer is read as data, total, page and perPage', async () => {
    const { store } = await signedInTab(api);
    const event = {
      id: 'e1',
      type: 'login_failed',
      severity: 'warning',
      user_id: null,
      user_email: 'ada@example.com',
      actor_id: null,
      actor_email: null,
      ip: '203.0.113.7',
      user_agent: null,
      details: null,
      created_at: '2025-01-01T00:00:00.000Z',
    };
    const page = paged([event], { total: 31, page: 3, perPage: 15 });
    api.on('GET /admin/security-events', () => ({ json: page }));
    await store.dispatch(adminApi.endpoints.listSecurityEvents.initiate({ page: 3, perPage: 15 }));
    expect(store.getState().admin.securityEvents).toEqual(page);
    const query = api.calls('GET /admin/security-events')[0]?.query;
    expect([query?.get('page'), query?.get('perPage')]).toEqual(['3', '15']);
  });
});

describe('logout fallback', () => {
  it("a failed logout is reported with the server message, else 'Logout failed'", async () => {
    const { store } = await signedInTab(api);
    api.on('POST /auth/logout', () => ({ status: 500, json: {}, offContract: 'an error without a message' }));
    const logout = (tab: typeof store) => tab.dispatch(authApi.endpoints.logout.initiate());
    const failureOf = (result: Awaited<ReturnType<typeof logout>>) =>
      'error' in result && result.error?.message;
    expect(failureOf(await logout(store))).toBe(authMessages.logoutFailed);
    expect(authMessages.logoutFailed).toBe('Logout failed');
    const again = await signedInTab(api);
    api.on('POST /auth/logout', () => problem(503, 'Try later'));
    expect(failureOf(await logout(again.store))).toBe('Try later');
  });
});

describe('cached data lifetime', () => {
  it('a read no screen uses any more is kept for 60 s, then read afresh', async () => {
    const { store } = await signedInTab(api);
    api.on('GET /licenses', () => ({ json: [makeLicense('L1')] }));
    /** One screen showing the list and going away again. */
    const showList = async () => {
      const read = store.dispatch(license.listMyLicenses.initiate());
      await read;
      read.unsubscribe();
    };
    // The cache forgets an unused answer on a timer; only the timers are fake, the HTTP is real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await showList();
      await vi.advanceTimersByTimeAsync(59_000);
      await showList();
      expect(api.calls('GET /licenses')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(60_000);
      await showList();
      expect(api.calls('GET /licenses')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
