import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '../../src/renderer/src/app/store';
import { FakeApi } from './support/fake-api';
import { renderApp, servicesFor } from './support/render-app';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [] }));
});
afterEach(() => api.close());

describe('lazily injected license and admin slices', () => {
  it('a new store holds auth and user only (license and admin are not loaded yet)', async () => {
    const services = await servicesFor(api, 'anonymous');
    const store = makeStore({ services });
    expect(Object.keys(store.getState()).sort()).toEqual(['auth', 'user']);
  });

  it('a user route injects license (with its initial state) before its screen renders', async () => {
    const services = await servicesFor(api, 'user');
    const { store } = renderApp(services, '/dashboard');
    await waitFor(() => expect(store.getState().license).toBeDefined(), { timeout: 10_000 });
    expect(store.getState().license).toMatchObject({ licenses: [], currentLicense: null, status: 'idle' });
  });

  it('an admin route injects license and admin; a license action then counts as activity', async () => {
    const services = await servicesFor(api, 'admin');
    const { store } = renderApp(services, '/admin');
    await waitFor(() => expect(store.getState().admin).toBeDefined(), { timeout: 10_000 });
    expect(store.getState().license).toBeDefined();
    expect(store.getState().admin?.users).toEqual({
      data: [],
      total: 0,
      page: 1,
      perPage: expect.any(Number),
    });
    const before = store.getState().auth.lastActivity;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { setCurrentLicense } = await import('../../src/renderer/src/features/licenses');
    store.dispatch(setCurrentLicense(null));
    expect(store.getState().auth.lastActivity).toBeGreaterThan(before);
  });
});
