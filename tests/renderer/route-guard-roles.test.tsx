import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequireAuth } from '../../src/renderer/src/app/route-guards';
import { makeStore } from '../../src/renderer/src/app/store';
import { FakeApi, testUser } from './support/fake-api';
import { tabServices } from './support/services';

/*
 * The optional allowed-roles list of the login guard (not used by any route yet).
 */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
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

describe('allowed-roles list', () => {
  it.each([
    ['an admin', 'admitted', 'admin', ['admin']],
    ['an admin (by the admin check) among other roles', 'admitted', 'admin', ['admin', 'support']],
    ['a role named in the list', 'admitted', 'support', ['support']],
    ['a user whose role is listed', 'admitted', 'user', ['user', 'admin']],
    ['an admin when only other roles are listed', '/admin', 'admin', ['support']],
    ['a user whose role is not listed', '/dashboard', 'user', ['admin']],
    ['a signed-out visitor', '/login', null, ['user']],
  ] as const)('allowed roles: %s → %s', async (_who, redirect, role, allowed) => {
    renderGuard(role, allowed);
    if (redirect === 'admitted') expect(screen.getByText('guarded content')).toBeTruthy();
    else {
      await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(redirect));
      expect(screen.queryByText('guarded content')).toBeNull();
    }
  });
});
