import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bridgeContract,
  bridgeChannels,
  DESKTOP_REFRESH_TOKEN_PLACEHOLDER,
  type DesktopBridge,
  type LicenseCheckResult,
} from '../../src/shared/bridge';
import { localStorageKeys } from '../../src/shared/storage-keys';
import { makeFullStore } from './support/store';
import { licenseApi } from '../../src/renderer/src/features/licenses';
import { FakeApi } from './support/fake-api';
import { fakeUpdateBridge } from './support/fake-update-bridge';
import { offlineBridgeMethods } from './support/fake-offline-bridge';
import { machineTrialBridgeMethods } from './support/fake-machine-trial-bridge';
import { tabServices } from './support/services';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

/** A bridge with the contract's behaviour, kept in memory (what the preload exposes as window.desktop). */
function memoryBridge(status: LicenseCheckResult) {
  const state = {
    /** Whether main holds a refresh token (it keeps the token itself; the renderer never sees it). */
    session: false,
    licenseKey: null as string | null,
    statusChecks: 0,
  };
  const bridge: DesktopBridge = {
    getHardwareId: async () => 'machine-hash-0001',
    hasSession: async () => state.session,
    forgetSession: async () => {
      state.session = false;
    },
    checkLicenseStatus: async () => {
      state.statusChecks += 1;
      return status;
    },
    getLicenseKey: async () => state.licenseKey,
    setLicenseKey: async (key) => {
      state.licenseKey = key;
    },
    getAppInfo: async () => ({
      version: '1.0.0',
      platform: 'linux',
      serverUrl: 'https://portal.example.com',
      tokenStorage: 'memory' as const,
    }),
    ...fakeUpdateBridge().bridge,
    ...offlineBridgeMethods,
    ...machineTrialBridgeMethods,
  };
  return { bridge, state };
}

describe('Platform adapter', () => {
  it('web: the hardware id is random and kept in local storage hardware_id', async () => {
    const { services, tab } = tabServices(api.baseURL);
    const id = await services.platform.getHardwareId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(tab.local.getItem(localStorageKeys.hardwareId)).toBe(id);
    expect(await services.platform.getHardwareId()).toBe(id);
  });

  it('desktop: hardware id, session and license status go through window.desktop; no refresh token is kept in the page', async () => {
    const offline = {
      valid: true,
      status: 'active' as const,
      message: 'Valid (offline)',
      offline: { lease_expires_at: '2030-01-01T00:00:00Z', grace_remaining_seconds: 3600 },
    };
    const { bridge, state } = memoryBridge(offline);
    const { services, tab } = tabServices(api.baseURL, { bridge });
    expect(services.platform.kind).toBe('desktop');
    expect(await services.platform.getHardwareId()).toBe('machine-hash-0001');
    expect(await services.tokens.getRefreshToken()).toBeNull();
    // Main takes the token out of the answers it forwards; even one that slipped through is not kept.
    const issued = api.issue();
    await services.tokens.save({
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      user: null,
    });
    const names = (storage: Storage) =>
      Array.from({ length: storage.length }, (_, index) => storage.key(index));
    const stored = [...names(tab.local), ...names(tab.session), ...tab.cookies.names()];
    expect(stored.filter((name) => /refresh/i.test(name ?? ''))).toEqual([]);
    // With a session in main, the refresh and logout calls carry the placeholder main swaps out.
    state.session = true;
    expect(await services.tokens.getRefreshToken()).toBe(DESKTOP_REFRESH_TOKEN_PLACEHOLDER);

    const store = makeFullStore({ services });
    await store.dispatch(licenseApi.endpoints.checkLicenseStatus.initiate());
    expect(store.getState().license.licenseStatus).toEqual(offline);
    // Main checks with the API key alone: the renderer's access token is not handed over.
    expect(state.statusChecks).toBe(1);
    expect(api.calls('GET /licensing/status')).toHaveLength(0);
  });

  it('desktop: the license key lives in main, app info comes from main, nothing lands in local storage', async () => {
    const { bridge, state } = memoryBridge({
      valid: false,
      status: 'not_configured',
      message: 'No license configured',
    });
    const { services, tab } = tabServices(api.baseURL, { bridge });
    await services.platform.setLicenseKey('ABCDE-FGHJK-MNPQR-STVWX-YZ234');
    expect(state.licenseKey).toBe('ABCDE-FGHJK-MNPQR-STVWX-YZ234');
    expect(await services.platform.getLicenseKey()).toBe('ABCDE-FGHJK-MNPQR-STVWX-YZ234');
    expect(tab.local.getItem(localStorageKeys.licenseKey)).toBeNull();
    expect(tab.local.getItem(localStorageKeys.hardwareId)).toBeNull();
    expect(await services.platform.getAppInfo()).toMatchObject({ tokenStorage: 'memory' });
    state.session = true;
    await services.tokens.clear();
    expect(state.session).toBe(false);
  });

  it('web: no app info and no desktop status check (the thunk asks the API)', async () => {
    const { services } = tabServices(api.baseURL);
    expect(services.platform.kind).toBe('web');
    expect(await services.platform.getAppInfo()).toBeNull();
    expect(services.platform.checkLicenseStatus).toBeNull();
  });

  it('bridge contract: every channel has the desktop: prefix and validates its arguments and result', () => {
    for (const channel of Object.values(bridgeChannels)) expect(channel.startsWith('desktop:')).toBe(true);
    const status = bridgeContract[bridgeChannels.checkLicenseStatus];
    expect(
      status.result.safeParse({
        valid: false,
        status: 'not_configured',
        message: 'No license configured',
        requires_activation: true,
      }).success,
    ).toBe(true);
    expect(status.result.safeParse({ valid: 'yes', status: 'active', message: '' }).success).toBe(false);
    expect(bridgeContract[bridgeChannels.hasSession].args.safeParse([]).success).toBe(true);
    expect(bridgeContract[bridgeChannels.hasSession].result.safeParse('a-refresh-token').success).toBe(false);
    expect(bridgeContract[bridgeChannels.setLicenseKey].args.safeParse([null]).success).toBe(true);
    // The status check takes no arguments: main checks with the API key, not the user's token.
    expect(bridgeContract[bridgeChannels.checkLicenseStatus].args.safeParse([]).success).toBe(true);
    expect(
      bridgeContract[bridgeChannels.checkLicenseStatus].args.safeParse([{ accessToken: 'x' }]).success,
    ).toBe(false);
  });
});
