import type { AppInfo, DesktopBridge, LicenseCheckResult, UsageLeft } from '../../../shared/bridge';
import { DESKTOP_REFRESH_TOKEN_PLACEHOLDER } from '../../../shared/bridge-channels';
import { localStorageKeys } from '../../../shared/storage-keys';
import type { SecureStorage } from './secure-storage';

/**
 * What differs between the web portal and the desktop shell (see docs/architecture.md): where
 * the hardware id, the refresh token and the license key come from, and who checks the license
 * status.
 */
export interface Platform {
  kind: 'web' | 'desktop';
  getHardwareId(): Promise<string>;
  /**
   * What the refresh and logout calls carry; null when there is no session to refresh. On the web
   * the refresh token itself; on the desktop a placeholder, since main keeps the token and puts it
   * into those calls as it forwards them (page scripts never see it).
   */
  getRefreshToken(): Promise<string | null>;
  /** Keeps the refresh token of a sign-in or refresh answer (the desktop's answers carry none). */
  setRefreshToken(token: string): Promise<void>;
  clearRefreshToken(): Promise<void>;
  getLicenseKey(): Promise<string | null>;
  setLicenseKey(key: string | null): Promise<void>;
  /** The desktop checks in its main process (with an offline lease); null on the web: ask the API. */
  checkLicenseStatus: (() => Promise<LicenseCheckResult>) | null;
  /** The desktop's version, server and token storage; null on the web. */
  getAppInfo(): Promise<AppInfo | null>;
  /** The desktop app's own updates (main's electron-updater); null on the web, which has none. */
  updates: DesktopUpdates | null;
  /** Activation by file for a desktop without network (main writes and reads the files); null on the web. */
  offline: DesktopOfflineActivation | null;
  /**
   * What this machine may still use of each metered feature (main's usage queue and the lease's
   * offline allowance); null on the web, and in desktop builds made before usage was metered.
   */
  usage: DesktopUsage | null;
  /**
   * A floating license's seat on this desktop (main checks it out and keeps it): its state, and
   * "Borrow for offline use…". Null on the web and in desktop builds made before floating licenses.
   */
  floating?: NonNullable<DesktopBridge['floating']> | null;
}

/** What the portal reads of the desktop's metered use: what is left, and what waits to upload. */
export interface DesktopUsage {
  left(): Promise<UsageLeft>;
}

/** What the portal may do for a desktop without network: write a request, import, sign out by file. */
export type DesktopOfflineActivation = Pick<
  DesktopBridge,
  'writeOfflineActivationRequest' | 'importOfflineLicenseFile' | 'signOutOfflineLicense'
>;

/** What the portal may do with the desktop app's updates: follow them, check, restart, pick a channel. */
export type DesktopUpdates = Pick<
  DesktopBridge,
  | 'getUpdateState'
  | 'onUpdateStateChange'
  | 'checkForUpdates'
  | 'installUpdate'
  | 'getUpdateChannel'
  | 'setUpdateChannel'
>;

export interface PlatformOptions {
  bridge?: DesktopBridge | undefined;
  secure: SecureStorage;
  local?: Storage;
}

export function createPlatform({
  bridge,
  secure,
  local = globalThis.localStorage,
}: PlatformOptions): Platform {
  if (bridge) {
    return {
      kind: 'desktop',
      getHardwareId: () => bridge.getHardwareId(),
      getRefreshToken: async () => ((await bridge.hasSession()) ? DESKTOP_REFRESH_TOKEN_PLACEHOLDER : null),
      // Main took the token out of the answer before the renderer saw it: nothing to keep here.
      setRefreshToken: async () => undefined,
      clearRefreshToken: () => bridge.forgetSession(),
      getLicenseKey: () => bridge.getLicenseKey(),
      setLicenseKey: (key) => bridge.setLicenseKey(key),
      checkLicenseStatus: () => bridge.checkLicenseStatus(),
      getAppInfo: () => bridge.getAppInfo(),
      updates: {
        getUpdateState: () => bridge.getUpdateState(),
        onUpdateStateChange: (listener) => bridge.onUpdateStateChange(listener),
        checkForUpdates: () => bridge.checkForUpdates(),
        installUpdate: () => bridge.installUpdate(),
        getUpdateChannel: () => bridge.getUpdateChannel(),
        setUpdateChannel: (channel) => bridge.setUpdateChannel(channel),
      },
      offline: {
        writeOfflineActivationRequest: (key) => bridge.writeOfflineActivationRequest(key),
        importOfflineLicenseFile: (contents) => bridge.importOfflineLicenseFile(contents),
        signOutOfflineLicense: () => bridge.signOutOfflineLicense(),
      },
      usage: desktopUsage(bridge),
      floating: bridge.floating ?? null,
    };
  }
  return {
    kind: 'web',
    async getHardwareId() {
      // A browser has no machine id: a random one, kept so this browser counts as one seat.
      let id = local.getItem(localStorageKeys.hardwareId);
      if (!id) {
        id = crypto.randomUUID();
        local.setItem(localStorageKeys.hardwareId, id);
      }
      return id;
    },
    getRefreshToken: () => secure.getRefreshToken(),
    setRefreshToken: (token) => secure.setRefreshToken(token),
    async clearRefreshToken() {
      secure.clearRefreshToken();
    },
    async getLicenseKey() {
      return local.getItem(localStorageKeys.licenseKey);
    },
    async setLicenseKey(key) {
      if (key) local.setItem(localStorageKeys.licenseKey, key);
      else local.removeItem(localStorageKeys.licenseKey);
    },
    checkLicenseStatus: null,
    getAppInfo: async () => null,
    updates: null,
    offline: null,
    usage: null,
    floating: null,
  };
}

function desktopUsage(bridge: DesktopBridge): DesktopUsage | null {
  const usage = bridge.usage;
  return usage ? { left: () => usage.left() } : null;
}
