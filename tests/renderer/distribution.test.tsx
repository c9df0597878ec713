import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesktopBridge } from '../../src/shared/bridge';
import { FakeApi, testUser } from './support/fake-api';
import { fakeUpdateBridge } from './support/fake-update-bridge';
import { offlineBridgeMethods } from './support/fake-offline-bridge';
import { machineTrialBridgeMethods } from './support/fake-machine-trial-bridge';
import { renderApp, servicesFor } from './support/render-app';
import { tabServices } from './support/services';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

const NOTES = 'Faster start.\nFixes the tray icon.';

/** A desktop bridge kept in memory, whose update half the test drives as main would. */
function desktopBridge() {
  const updates = fakeUpdateBridge();
  const bridge: DesktopBridge = {
    getHardwareId: async () => 'a'.repeat(64),
    hasSession: async () => true,
    forgetSession: async () => undefined,
    checkLicenseStatus: async () => ({ valid: false, status: 'not_configured', message: 'Not configured' }),
    getLicenseKey: async () => null,
    setLicenseKey: async () => undefined,
    getAppInfo: async () => ({
      version: '1.0.0',
      platform: 'linux',
      serverUrl: 'https://portal.example.com',
      tokenStorage: 'os-keychain',
    }),
    ...updates.bridge,
    ...offlineBridgeMethods,
    ...machineTrialBridgeMethods,
  };
  return { ...updates, bridge };
}

async function openAsDesktopUser(bridge: DesktopBridge, path = '/profile') {
  const { services } = tabServices(api.baseURL, { bridge });
  const issued = api.issue();
  await services.tokens.save({
    accessToken: issued.access_token,
    refreshToken: issued.refresh_token,
    user: testUser,
  });
  return renderApp(services, path);
}

const section = async () =>
  within(await screen.findByRole('region', { name: 'App updates' }, { timeout: 10_000 }));

describe('desktop app updates in the portal (fake bridge)', () => {
  it('on the web nothing shows: no section on the Profile page, no sign in the header', async () => {
    renderApp(await servicesFor(api, 'user'), '/profile');
    expect(
      await screen.findByRole('heading', { name: 'Profile', level: 1 }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'App updates' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Downloading version|restart to update/i })).toBeNull();
  });

  it('the download’s progress in the header and the section, the notes before the restart, and Restart to update only when asked', async () => {
    const desktop = desktopBridge();
    await openAsDesktopUser(desktop.bridge);
    const view = await section();
    expect(view.getByRole('status').textContent).toBe('Not checked yet.');
    // Nothing to say yet: the header stays quiet.
    expect(screen.queryByRole('link', { name: /Downloading version/ })).toBeNull();

    act(() => desktop.push({ status: 'downloading', version: '1.1.0', release_notes: NOTES, percent: 40 }));
    const indicator = await screen.findByRole('link', { name: 'Downloading version 1.1.0: 40 %' });
    expect(indicator.getAttribute('href')).toBe('/profile#app-updates');
    expect(view.getByRole('status').textContent).toBe('Downloading version 1.1.0: 40 %.');
    expect(
      view.getByRole('progressbar', { name: 'Download of version 1.1.0' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(view.getByTestId('release-notes').textContent).toBe(NOTES);
    expect(view.queryByRole('button', { name: 'Restart to update' })).toBeNull();
    expect((view.getByRole('button', { name: 'Check now' }) as HTMLButtonElement).disabled).toBe(true);

    act(() => desktop.push({ status: 'downloaded', version: '1.1.0', release_notes: NOTES }));
    expect(
      await screen.findByRole('link', {
        name: 'Version 1.1.0 is ready: see what is new and restart to update',
      }),
    ).toBeTruthy();
    expect(view.getByText('What’s new in 1.1.0')).toBeTruthy();
    expect(view.getByTestId('release-notes').textContent).toBe(NOTES);
    expect(desktop.calls.installs).toBe(0);

    // By keyboard: the restart button is reached and pressed like any other.
    const restart = view.getByRole('button', { name: 'Restart to update' });
    restart.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(desktop.calls.installs).toBe(1));
  });

  it('Check now asks main, and an error is said in the section only', async () => {
    const desktop = desktopBridge();
    await openAsDesktopUser(desktop.bridge);
    const view = await section();
    await userEvent.click(view.getByRole('button', { name: 'Check now' }));
    await waitFor(() => expect(desktop.calls.checks).toBe(1));

    const message =
      'Could not check for updates: the update server did not answer in time. It will be tried again later.';
    act(() => desktop.push({ status: 'error', message }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe(message));
    expect(screen.queryByRole('link', { name: /Downloading version|ready/ })).toBeNull();
  });

  it('the channel: stable until chosen, beta sent to main when picked', async () => {
    const desktop = desktopBridge();
    await openAsDesktopUser(desktop.bridge);
    const view = await section();
    const stable = view.getByRole('radio', { name: 'Stable' }) as HTMLInputElement;
    await waitFor(() => expect(stable.checked).toBe(true));
    await userEvent.click(view.getByText('Beta'));
    await waitFor(() => expect(desktop.calls.channels).toEqual(['beta']));
    await waitFor(() =>
      expect((view.getByRole('radio', { name: 'Beta' }) as HTMLInputElement).checked).toBe(true),
    );
  });

  it('a machine without a license says why updates are not checked, quietly', async () => {
    const desktop = desktopBridge();
    desktop.push({
      status: 'idle',
      checked_at: null,
      note: 'Updates are checked once a license is activated on this machine.',
    });
    await openAsDesktopUser(desktop.bridge);
    const view = await section();
    expect(view.getByRole('status').textContent).toBe(
      'Updates are checked once a license is activated on this machine.',
    );
    expect(screen.queryByRole('link', { name: /Downloading version|ready/ })).toBeNull();
  });
});
