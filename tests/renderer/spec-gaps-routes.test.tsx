import { readFileSync } from 'node:fs';
import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequireAuth } from '../../src/renderer/src/app/route-guards';
import { makeStore } from '../../src/renderer/src/app/store';
import { FakeApi, testUser } from './support/fake-api';
import { renderApp, servicesFor } from './support/render-app';
import { tabServices } from './support/services';

/*
 * SPEC §2 and §5 rules that had no test of their own: the optional allowed-roles list of the login
 * guard (not used by any route yet) and the fixed full-screen dot grid behind every layout.
 */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [] }));
});
afterEach(() => api.close());

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

/** RequireAuth with an allowed-roles list around /guarded, for a visitor of `role` (null: signed out). */
function renderGuard(role: string | null, allowedRoles: readonly string[]) {
  const { services } = tabServices(api.baseURL);
  const store = makeStore({
    services,
    preloadedState: {
      auth: {
        isAuthenticated: role !== null,
        user: role === null ? null : { ...testUser, role: role === 'admin' ? 'admin' : 'user' },
        status: 'succeeded',
        error: null,
        lastActivity: Date.now(),
        userRole: role,
      },
    },
  });
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/guarded']}>
        <Routes>
          <Route element={<RequireAuth allowedRoles={allowedRoles} />}>
            <Route path="/guarded" element={<p>guarded content</p>} />
          </Route>
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('SPEC §5 allowed-roles list', () => {
  it.each([
    ['an admin', 'admitted', 'admin', ['admin']],
    ['an admin (by the admin check) among other roles', 'admitted', 'admin', ['admin', 'support']],
    ['a role named in the list', 'admitted', 'support', ['support']],
    ['a user whose role is listed', 'admitted', 'user', ['user', 'admin']],
    ['an admin when only other roles are listed', '/admin', 'admin', ['support']],
    ['a user whose role is not listed', '/dashboard', 'user', ['admin']],
    ['a signed-out visitor', '/login', null, ['user']],
  ] as const)('SPEC §5: allowed roles: %s → %s', async (_who, redirect, role, allowed) => {
    renderGuard(role, allowed);
    if (redirect === 'admitted') expect(screen.getByText('guarded content')).toBeTruthy();
    else {
      await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(redirect));
      expect(screen.queryByText('guarded content')).toBeNull();
    }
  });
});

describe('SPEC §2 dot grid background', () => {
  it('SPEC §2: a decorative canvas is fixed over the whole viewport, behind the page and ignoring the pointer', () => {
    const css = readFileSync('src/renderer/src/components/dot-grid/dot-grid.module.css', 'utf8');
    const rule = /\.canvas\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
    const declarations = Object.fromEntries(
      rule
        .split(';')
        .map((part) => part.split(':').map((text) => text.trim()))
        .filter((pair) => pair.length === 2),
    );
    expect(declarations).toMatchObject({
      position: 'fixed',
      inset: '0',
      width: '100vw',
      height: '100vh',
      'pointer-events': 'none',
    });
  });

  it.each([
    ['the public layout', 'anonymous', '/landing'],
    ['the signed-in layout', 'user', '/dashboard'],
  ] as const)(
    'SPEC §2: %s renders the dot grid canvas, hidden from assistive technology',
    async (_layout, visitor, path) => {
      const { container, router } = renderApp(await servicesFor(api, visitor), path);
      await waitFor(() => expect(container.querySelector('canvas')).not.toBeNull(), { timeout: 5000 });
      expect(router.state.location.pathname).toBe(path);
      expect(container.querySelector('canvas')?.getAttribute('aria-hidden')).toBe('true');
    },
  );
});
