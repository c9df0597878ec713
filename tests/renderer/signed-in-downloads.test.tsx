import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi } from './support/fake-api';
import { renderApp, servicesFor } from './support/render-app';

// The signed-in shell's download is held until the test lets it go; the screens' are recorded.
const shell = vi.hoisted(() => {
  let release = () => undefined as void;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  return { arrived, release: () => release(), screensAskedFor: [] as string[] };
});

vi.mock('../../src/renderer/src/app/layout/app-shell-layout', async (importOriginal) => {
  await shell.arrived;
  return importOriginal();
});
vi.mock('../../src/renderer/src/features/licenses/pages/dashboard-page', async (importOriginal) => {
  shell.screensAskedFor.push('dashboard');
  return importOriginal();
});
vi.mock('../../src/renderer/src/features/admin/pages/users-page', async (importOriginal) => {
  shell.screensAskedFor.push('admin users');
  return importOriginal();
});

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

describe('entering the signed-in area', () => {
  // One test: once the shell has arrived, no later render waits for it.
  it("asks for the screen at the address while the shell is still on its way, a customer's or an administrator's", async () => {
    renderApp(await servicesFor(api, 'user'), '/dashboard');
    await waitFor(() => expect(shell.screensAskedFor).toContain('dashboard'));
    expect(screen.queryByRole('banner')).toBeNull();
    cleanup();

    renderApp(await servicesFor(api, 'admin'), '/admin/users');
    await waitFor(() => expect(shell.screensAskedFor).toContain('admin users'));
    expect(screen.queryByRole('banner')).toBeNull();

    shell.release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeTruthy();
  });
});
