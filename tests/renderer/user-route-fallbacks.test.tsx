import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderErrorMessages } from '../../src/shared/messages';
import { FakeApi } from './support/fake-api';
import { allowRenderFallback } from './support/render-failures';
import { renderApp, servicesFor } from './support/render-app';

/*
 * Each user route is wrapped so that a render failure shows the fallback screen. Every
 * user screen fails to render here; the portal around them is the real one.
 */
const { fail } = vi.hoisted(() => ({
  fail: () => ({
    default: () => {
      throw new Error('render failure');
    },
  }),
}));
vi.mock('../../src/renderer/src/features/licenses/pages/dashboard-page', fail);
vi.mock('../../src/renderer/src/features/licenses/pages/licenses-page', fail);
vi.mock('../../src/renderer/src/features/licenses/pages/license-detail-page', fail);
vi.mock('../../src/renderer/src/features/users/pages/profile-page', fail);
vi.mock('../../src/renderer/src/features/payments/pages/purchase-page', fail);
vi.mock('../../src/renderer/src/features/users/pages/support-page', fail);

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  allowRenderFallback();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

describe('user routes wrapped in the fallback', () => {
  it.each(['/dashboard', '/licenses', '/licenses/L1', '/profile', '/purchase', '/support'])(
    'a render failure on %s shows the fallback screen inside the signed-in layout',
    async (path) => {
      const { router } = renderApp(await servicesFor(api, 'user'), path);
      expect(await screen.findByText(renderErrorMessages.title, {}, { timeout: 5000 })).toBeTruthy();
      expect(screen.getByText(renderErrorMessages.text)).toBeTruthy();
      expect(screen.getByRole('button', { name: renderErrorMessages.refreshButton })).toBeTruthy();
      // The failure is the screen's alone: the layout with the account menu still renders around it.
      expect(screen.getByRole('button', { name: /^Account menu for / })).toBeTruthy();
      expect(router.state.location.pathname).toBe(path);
    },
  );
});
