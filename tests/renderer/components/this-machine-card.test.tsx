import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesktopBridge, LicenseCheckResult } from '../../../src/shared/bridge';
import { localStorageKeys } from '../../../src/shared/storage-keys';
import { FakeApi, testUser } from '../support/fake-api';
import { fakeUpdateBridge } from '../support/fake-update-bridge';
import { offlineBridgeMethods } from '../support/fake-offline-bridge';
import { machineTrialBridgeMethods } from '../support/fake-machine-trial-bridge';
import { renderApp, servicesFor } from '../support/render-app';
import { tabServices } from '../support/services';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

// The page is lazy-loaded and the session gate runs first: under a loaded machine that takes more than
// Testing Library's default second.
const card = async () =>
  within(await screen.findByRole('region', { name: 'This machine' }, { timeout: 10_000 }));

/** A desktop bridge kept in memory (what the preload exposes), answering `status`. */
function desktopBridge(status: LicenseCheckResult, overrides: Partial<DesktopBridge> = {}): DesktopBridge {
  let session = true;
  return {
    getHardwareId: async () => 'a'.repeat(64),
    hasSession: async () => session,
    forgetSession: async () => {
      session = false;
    },
    checkLicenseStatus: async () => status,
    getLicenseKey: async () => 'ABCDE-FGHJK-MNPQR-STVWX-YZ234',
    setLicenseKey: async () => undefined,
    getAppInfo: async () => ({
      version: '2.0.0',
      platform: 'linux',
      serverUrl: 'https://portal.example.com',
      tokenStorage: 'os-keychain',
    }),
    ...fakeUpdateBridge().bridge,
    ...offlineBridgeMethods,
    ...machineTrialBridgeMethods,
    ...overrides,
  };
}

async function openAsDesktopUser(bridge: DesktopBridge) {
  const { services } = tabServices(api.baseURL, { bridge });
  const issued = api.issue();
  await services.tokens.save({
    accessToken: issued.access_token,
    refreshToken: issued.refresh_token,
    user: testUser,
  });
  return renderApp(services, '/licenses');
}

describe('"This machine" on the licenses page', () => {
  it('web, no key yet: this browser’s id, "Not configured" and what to do, without asking the API', async () => {
    const services = await servicesFor(api, 'user');
    renderApp(services, '/licenses');
    const view = await card();
    expect(await view.findByText('Not configured')).toBeTruthy();
    expect(view.getByText('Browser id')).toBeTruthy();
    const id = services.local.getItem(localStorageKeys.hardwareId);
    expect(view.getByTestId('hardware-id').textContent).toBe(id);
    expect(view.getByText('None on this machine')).toBeTruthy();
    expect(view.getByRole('link', { name: 'get a plan' }).getAttribute('href')).toBe('/purchase');
    expect(api.calls('GET /licensing/status')).toHaveLength(0);
    expect(view.queryByText('Desktop app')).toBeNull();
  });

  it('web, with a key: the status the API answers for this browser', async () => {
    api.on('GET /licensing/status', () => ({
      json: {
        valid: false,
        status: 'deactivated',
        message: 'This machine was deactivated for this license. Activate it again to use it here.',
        requires_activation: true,
        detail: 'deactivated',
        code: 'machine_deactivated',
      },
      status: 403,
    }));
    const services = await servicesFor(api, 'user');
    services.local.setItem(localStorageKeys.licenseKey, 'ABCDE-FGHJK-MNPQR-STVWX-YZ234');
    renderApp(services, '/licenses');
    const view = await card();
    expect(await view.findByText('Not valid')).toBeTruthy();
    expect(view.getByTestId('license-status-message').textContent).toBe(
      'This machine was deactivated for this license. Activate it again to use it here.',
    );
    expect(view.getByText('Activate this machine on the license to use it here.')).toBeTruthy();
    const [call] = api.calls('GET /licensing/status');
    expect(call?.query.get('hardware_id')).toBe(services.local.getItem(localStorageKeys.hardwareId));
  });

  it('desktop, offline: the hardware id and key from main, and the grace time left', async () => {
    await openAsDesktopUser(
      desktopBridge({
        valid: true,
        status: 'active',
        message: 'Offline — license verified from the signed lease; 3 days left',
        offline: { lease_expires_at: '2030-01-04T00:00:00.000Z', grace_remaining_seconds: 3 * 86_400 + 600 },
      }),
    );
    const view = await card();
    expect(await view.findByText('Valid (offline)')).toBeTruthy();
    expect(view.getByText('Hardware id')).toBeTruthy();
    expect(view.getByTestId('hardware-id').textContent).toBe('a'.repeat(64));
    expect(view.getByText('ABCDE-FGHJK-MNPQR-STVWX-YZ234')).toBeTruthy();
    expect(view.getByText('Working offline')).toBeTruthy();
    expect(view.getByText(/3 days of offline use left/)).toBeTruthy();
    expect(view.getByText('Version 2.0.0 · server https://portal.example.com')).toBeTruthy();
    expect(view.queryByText('Sign-in will not be kept')).toBeNull();
    expect(api.calls('GET /licensing/status')).toHaveLength(0);
  });

  it('desktop on a machine trial: says the days left and that an account keeps it', async () => {
    await openAsDesktopUser(
      desktopBridge(
        {
          valid: true,
          status: 'active',
          message: 'Free trial of Pro (monthly): 9 days left',
          requires_activation: false,
          trial: { ends_at: '2030-01-10T00:00:00.000Z', days_left: 9 },
          machine_trial: true,
        },
        { getLicenseKey: async () => null },
      ),
    );
    const view = await card();
    expect(await view.findByText('Valid')).toBeTruthy();
    expect(view.getByTestId('machine-license').textContent).toBe(
      'Trial: 9 days left — create an account to keep it.',
    );
  });

  it('desktop without a keyring: says that sign-in will not be kept', async () => {
    const bridge = desktopBridge({ valid: true, status: 'active', message: 'License is valid' });
    await openAsDesktopUser({
      ...bridge,
      getAppInfo: async () => ({ ...(await bridge.getAppInfo()), tokenStorage: 'memory' }),
    });
    const view = await card();
    expect(await view.findByText('Sign-in will not be kept')).toBeTruthy();
    expect(view.getByText('Valid')).toBeTruthy();
  });

  it('desktop, main refuses: the failure is shown, not a blank card', async () => {
    await openAsDesktopUser(
      desktopBridge(
        { valid: true, status: 'active', message: 'License is valid' },
        {
          getHardwareId: async () => {
            throw new Error("Error invoking remote method 'desktop:hardware-id:get': machine id unavailable");
          },
        },
      ),
    );
    const view = await card();
    const alert = await view.findByRole('alert');
    expect(alert.textContent).toContain('machine id unavailable');
    expect(view.getByText('Unknown')).toBeTruthy();
  });
});
