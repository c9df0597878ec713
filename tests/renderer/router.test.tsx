import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeApi } from './support/fake-api';
import { renderApp, servicesFor, type Visitor } from './support/render-app';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [] }));
});
afterEach(() => api.close());

async function landsOn(visitor: Visitor, from: string, expected: string) {
  const { router } = renderApp(await servicesFor(api, visitor), from);
  await waitFor(() => expect(router.state.location.pathname).toBe(expected), { timeout: 5000 });
  // Stays there: no redirect loop follows. Waited for is what a guard redirects upon: the screen
  // itself rendered past the session gate (its h1), by then every guard above it has decided.
  await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 });
  expect(router.state.location.pathname).toBe(expected);
}

const cases: [string, Visitor, string, string][] = [
  ['/ goes to /landing when logged out', 'anonymous', '/', '/landing'],
  ['/ goes to /dashboard for a logged-in user', 'user', '/', '/dashboard'],
  ['/ goes to /admin for an admin', 'admin', '/', '/admin'],
  ['an unknown path goes to /landing when logged out', 'anonymous', '/no/such/page', '/landing'],
  ['an unknown path goes to /dashboard for a user', 'user', '/no/such/page', '/dashboard'],
  ['an unknown path goes to /admin for an admin', 'admin', '/no/such/page', '/admin'],
  ['/login sends an authenticated user to /dashboard', 'user', '/login', '/dashboard'],
  ['/login sends an authenticated admin to /admin', 'admin', '/login', '/admin'],
  ['/register sends an authenticated user to /dashboard', 'user', '/register', '/dashboard'],
  ['/register sends an authenticated admin to /admin', 'admin', '/register', '/admin'],
  ['/forgot-password sends an authenticated user to /dashboard', 'user', '/forgot-password', '/dashboard'],
  ['/forgot-password sends an authenticated admin to /admin', 'admin', '/forgot-password', '/admin'],
  ['a visitor may open /login', 'anonymous', '/login', '/login'],
  ['a visitor may open /register', 'anonymous', '/register', '/register'],
  ['a visitor may open /forgot-password', 'anonymous', '/forgot-password', '/forgot-password'],
  [
    'a visitor may open /reset-password (e-mailed link)',
    'anonymous',
    '/reset-password?token=abc',
    '/reset-password',
  ],
  [
    'a visitor may open /verify-registration (e-mailed link)',
    'anonymous',
    '/verify-registration?token=abc',
    '/verify-registration',
  ],
  ['an unauthenticated visitor on a user route goes to /login', 'anonymous', '/dashboard', '/login'],
  ['an unauthenticated visitor on license details goes to /login', 'anonymous', '/licenses/L1', '/login'],
  ['an unauthenticated visitor on an admin route goes to /login', 'anonymous', '/admin/users', '/login'],
  ['a non-admin on an admin route goes to /dashboard', 'user', '/admin/security', '/dashboard'],
  ['an admin on a user-only route goes to /admin', 'admin', '/licenses', '/admin'],
  ['an admin on /profile goes to /admin', 'admin', '/profile', '/admin'],
  ['a user reaches license details', 'user', '/licenses/L1', '/licenses/L1'],
  ['an admin reaches /admin/packages', 'admin', '/admin/packages', '/admin/packages'],
  ['an admin reaches /admin/coupons', 'admin', '/admin/coupons', '/admin/coupons'],
];

describe('Routes and guards', () => {
  for (const [name, visitor, from, expected] of cases) it(name, () => landsOn(visitor, from, expected));

  for (const path of ['/dashboard', '/licenses', '/profile', '/purchase', '/support'])
    it(`a user reaches ${path}`, () => landsOn('user', path, path));
  for (const path of [
    '/admin',
    '/admin/users',
    '/admin/licenses',
    '/admin/payments',
    '/admin/features',
    '/admin/security',
  ])
    it(`an admin reaches ${path}`, () => landsOn('admin', path, path));

  it("'Initializing secure session...' shows while the session initialises", async () => {
    renderApp(await servicesFor(api, 'user'), '/dashboard');
    expect(screen.getByText('Initializing secure session...')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Initializing secure session...')).toBeNull());
  });

  it('an invalid session (expired token, no refresh token) is sent to /landing', async () => {
    const services = await servicesFor(api, 'anonymous');
    await services.secure.setAccessToken(
      `${btoa('{}')}.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60 }))}.s`,
    );
    const { router } = renderApp(services, '/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/landing'));
  });

  it('a session lost during a call (refresh refused) sends the user to /landing', async () => {
    const services = await servicesFor(api, 'user');
    const { router } = renderApp(services, '/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    api.on('GET /licenses', () => ({ status: 401, json: { detail: 'x', message: 'x', code: 'x' } }));
    api.on('POST /auth/refresh', () => ({ status: 401, json: { detail: 'x', message: 'x', code: 'x' } }));
    await services.client.http.get('/licenses').catch(() => undefined);
    await waitFor(() => expect(router.state.location.pathname).toBe('/landing'));
  });
});
