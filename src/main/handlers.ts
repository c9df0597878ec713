import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { LeaseSigningKeys } from '../shared/api/licenses.js';
import {
  type AppInfo,
  type BridgeChannel,
  type BridgeContract,
  type BridgeResult,
  bridgeChannels,
} from '../shared/bridge.js';
import { createFloatingApi } from './floating-api.js';
import { createFloatingSeat, type FloatingSeat, type Schedule } from './floating-seat.js';
import {
  type ComponentSources,
  createFingerprintProvider,
  createHardwareIdProvider,
  type MachineIdSource,
  osComponentSources,
} from './hardware-id.js';
import { createLicenseStateFile } from './license-state.js';
import { createLicenseChecker } from './licensing.js';
import { createLicensingApi, type FetchLike } from './licensing-api.js';
import { createMachineTrials } from './machine-trial.js';
import { createMachineTrialApi } from './machine-trial-api.js';
import { createOfflineActivation, withLicenseFile } from './offline-activation.js';
import type { SecretStore } from './secret-store.js';
import type { SignIns } from './sign-ins.js';
import type { DesktopSso } from './sso-sign-in.js';
import type { UpdateService } from './updater-service.js';
import { createUsageApi } from './usage-api.js';
import { createUsageMeter } from './usage-meter.js';
import { createUsageQueue } from './usage-queue.js';

/** The handler of every bridge channel, taking the arguments after their zod schema parsed them. */
export type BridgeHandlers = {
  [Channel in BridgeChannel]: (
    ...args: z.output<BridgeContract[Channel]['args']>
  ) => Promise<BridgeResult<Channel>>;
};

export interface HandlerDeps {
  /** The refresh-token store (keychain, encrypted file or memory: see keychain.ts), shared with app://. */
  secrets: SecretStore;
  /** The OS machine id; hashed with the app's salt before anything sees it. */
  machineId?: MachineIdSource;
  /** The raw parts of the machine's fingerprint (the OS's unless given); hashed before anything sees them. */
  componentSources?: ComponentSources;
  /** Origin of the API server; also the keychain account of the refresh token. */
  serverUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  requestTimeoutMs: number;
  /** JSON file of the license key and the last lease (in the app's user data). */
  licenseStatePath: string;
  /** Activation by file's JSON file; beside the license state unless given. */
  offlineActivationPath?: string;
  /**
   * The only keys leases are verified with: built into the app (MAIN_VITE_LEASE_PUBLIC_KEYS) or, in
   * development and tests, given at run time. Undefined: online checks only, no offline use.
   */
  leasePublicKeys: LeaseSigningKeys | undefined;
  now?: () => Date;
  app: Pick<AppInfo, 'version' | 'platform'>;
  /** The app's own updates (electron-updater, fed by the portal: updater-service.ts). */
  updates: UpdateService;
  /**
   * Sign-ins in the app (seen by the app:// forwarding): on each, a machine trial kept here is
   * taken over as the account's trial, without another step.
   */
  signIns?: Pick<SignIns, 'onSignIn'> & Partial<Pick<SignIns, 'latestAccessToken'>>;
  /** The queue of usage not yet answered by the server; beside the license state unless given. */
  usageQueuePath?: string;
  /** What this machine is called where the server lists it (the host name unless given). */
  deviceName?: () => string;
  /** A floating license's borrowed seat; beside the license state unless given. */
  floatingSeatPath?: string;
  /** How the floating seat's heartbeats are timed (a timer; tests step them by hand). */
  schedule?: Schedule;
  /** Single sign-on through the system browser (sso-sign-in.ts); without it, none is offered. */
  sso?: Pick<DesktopSso, 'start'>;
  /** Told of the floating seat, which main checks out at start and gives back on quit. */
  onFloatingSeat?: (seat: FloatingSeat) => void;
  log?: (message: string) => void;
}

/**
 * Everything the bridge does, as plain functions over injected parts: main wires
 * Electron's IPC to them, tests call them in Node with the real keychain and a real server.
 */
export function createHandlers(deps: HandlerDeps): BridgeHandlers {
  const hardwareId = createHardwareIdProvider(deps.machineId);
  const components = createFingerprintProvider(deps.componentSources ?? osComponentSources(deps.machineId));
  const state = createLicenseStateFile(deps.licenseStatePath, deps.serverUrl);
  const now = deps.now ?? (() => new Date());
  const offline = createOfflineActivation({
    path: deps.offlineActivationPath ?? join(dirname(deps.licenseStatePath), 'offline-activation.json'),
    hardwareId,
    trustedKeys: deps.leasePublicKeys,
    now,
    app: deps.app,
    deviceName: hostname,
  });
  const online = createLicenseChecker({
    api: createLicensingApi({
      serverUrl: deps.serverUrl,
      apiKey: deps.apiKey,
      fetch: deps.fetch,
      timeoutMs: deps.requestTimeoutMs,
      appVersion: deps.app.version,
    }),
    state,
    hardwareId,
    components,
    trustedKeys: deps.leasePublicKeys,
    now,
    log: deps.log,
  });
  // A machine activated by file answers from its license file; any other, as before.
  const licensing = withLicenseFile(online, offline);
  const machineTrials = createMachineTrials({
    api: createMachineTrialApi({
      serverUrl: deps.serverUrl,
      apiKey: deps.apiKey,
      fetch: deps.fetch,
      timeoutMs: deps.requestTimeoutMs,
    }),
    state,
    hardwareId,
    trustedKeys: deps.leasePublicKeys,
    now,
    device: { name: hostname, platform: deps.app.platform, appVersion: deps.app.version },
    log: deps.log,
  });
  deps.signIns?.onSignIn((accessToken) => machineTrials.claim(accessToken));
  const floating = createFloatingSeat({
    api: createFloatingApi({
      serverUrl: deps.serverUrl,
      apiKey: deps.apiKey,
      fetch: deps.fetch,
      timeoutMs: deps.requestTimeoutMs,
    }),
    state,
    path: deps.floatingSeatPath ?? join(dirname(deps.licenseStatePath), 'floating-seat.json'),
    hardwareId,
    deviceName: deps.deviceName ?? hostname,
    trustedKeys: deps.leasePublicKeys,
    now,
    ...(deps.schedule ? { schedule: deps.schedule } : {}),
    log: deps.log,
  });
  deps.onFloatingSeat?.(floating);
  const account = deps.serverUrl;
  /** Whether the renderer kept another key since the last check (the floating seat follows it). */
  let keyChanged = false;
  const checkLicense = async () => {
    // A key kept while the app runs (a member's machine key, say) is held from now on.
    if (keyChanged) {
      keyChanged = false;
      await floating.follow().catch((error: unknown) => deps.log?.(`Floating seat: ${String(error)}`));
    }
    // Without a license, the machine's trial before any account, if it has one.
    const result = await licensing.check();
    if (result.status === 'not_configured') return (await machineTrials.check()) ?? result;
    // A floating license runs on a seat, not an activation: a held seat (or, offline, a borrowed
    // one whose lease verified) is what makes it valid here.
    if (result.status === 'not_activated' || result.status === 'deactivated' || result.status === 'error') {
      const seat = await floating.state();
      if (seat.status === 'held')
        return { valid: true, status: 'active' as const, message: seat.message, expires_at: seat.held_until };
      if (seat.status === 'full') return { ...result, message: seat.message };
    }
    return result;
  };
  const usage = createUsageMeter({
    queue: createUsageQueue(
      deps.usageQueuePath ?? join(dirname(deps.licenseStatePath), 'usage-queue.json'),
      deps.serverUrl,
    ),
    api: createUsageApi({
      serverUrl: deps.serverUrl,
      apiKey: deps.apiKey,
      fetch: deps.fetch,
      timeoutMs: deps.requestTimeoutMs,
    }),
    state,
    hardwareId,
    trustedKeys: deps.leasePublicKeys,
    accessToken: () => deps.signIns?.latestAccessToken?.() ?? null,
    check: checkLicense,
    now,
    log: deps.log,
  });

  return {
    [bridgeChannels.getHardwareId]: async () => hardwareId(),
    // Only whether a refresh token is kept: the token itself stays in main (refresh-token-keeper.ts).
    [bridgeChannels.hasSession]: async () => (await deps.secrets.get(account)) !== null,
    [bridgeChannels.forgetSession]: () => deps.secrets.delete(account),
    async [bridgeChannels.checkLicenseStatus]() {
      // What was used offline goes up first, so the next lease reserves from what is really left.
      await usage.flush().catch(() => undefined);
      return checkLicense();
    },
    [bridgeChannels.getLicenseKey]: async () => (await state.read()).license_key,
    async [bridgeChannels.setLicenseKey](key) {
      // A lease belongs to the key it was issued for: another key (or none) starts without one.
      await state.update((current) => {
        if (current.license_key === key) return current;
        keyChanged = true;
        return { ...current, license_key: key, lease: null };
      });
    },
    [bridgeChannels.getAppInfo]: async () => ({
      ...deps.app,
      serverUrl: deps.serverUrl,
      tokenStorage: deps.secrets.kind,
      // Hashed: the renderer sends them with an activation, as the checks here do.
      ...(components() ? { components: components() } : {}),
    }),
    [bridgeChannels.getUpdateState]: async () => deps.updates.state(),
    [bridgeChannels.checkForUpdates]: () => deps.updates.checkNow(),
    [bridgeChannels.installUpdate]: async () => deps.updates.install(),
    [bridgeChannels.getUpdateChannel]: () => deps.updates.channel(),
    [bridgeChannels.setUpdateChannel]: (channel) => deps.updates.setChannel(channel),
    async [bridgeChannels.writeOfflineActivationRequest](licenseKey) {
      const file = await offline.writeRequest(licenseKey);
      return { file_name: file.fileName, contents: file.contents };
    },
    async [bridgeChannels.importOfflineLicenseFile](contents) {
      const outcome = await offline.importLicenseFile(contents);
      if (!outcome.ok) return { imported: false, message: outcome.message };
      // The key the request named is the machine's key from now on, as if typed in.
      const current = await offline.current();
      if (current)
        await state.update((s) =>
          s.license_key === current.license_key ? s : { ...s, license_key: current.license_key, lease: null },
        );
      return { imported: true, message: outcome.result.message };
    },
    [bridgeChannels.getMachineTrial]: () => machineTrials.current(),
    [bridgeChannels.startMachineTrial]: (planId) => machineTrials.start(planId),
    [bridgeChannels.reportUsage]: (feature, amount) => usage.report(feature, amount),
    [bridgeChannels.usageLeft]: () => usage.left(),
    [bridgeChannels.floatingSeat]: () => floating.state(),
    [bridgeChannels.borrowFloatingSeat]: (days) => floating.borrow(days),
    [bridgeChannels.returnFloatingSeat]: () => floating.returnBorrowed(),
    [bridgeChannels.startSso]: async (email) =>
      deps.sso
        ? deps.sso.start(email)
        : {
            started: false,
            message: 'Single sign-on is not available in this app. Sign in with your password.',
          },
    async [bridgeChannels.signOutOfflineLicense]() {
      const file = await offline.signOut();
      return file ? { file_name: file.fileName, contents: file.contents } : null;
    },
  };
}
