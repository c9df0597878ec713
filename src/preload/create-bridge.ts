import { bridgeChannels, bridgeEvents, isBridgeChannel } from '../shared/bridge-channels.js';
import type { BridgeInvoke, BridgeListen, DesktopBridge, UpdateState } from '../shared/bridge.js';

/**
 * The `window.desktop` object: one method per channel of the contract, nothing else.
 * `invoke` is Electron's `ipcRenderer.invoke` in the preload, or any transport in a test; `listen`
 * is `ipcRenderer.on` for the few messages main sends unasked (main checks them against the
 * contract before sending).
 */
export function createBridge(invoke: BridgeInvoke, listen: BridgeListen): DesktopBridge {
  // Only the contract's channels ever reach the transport, whatever the caller passes around.
  const call: BridgeInvoke = (channel, ...args) => {
    if (!isBridgeChannel(channel))
      return Promise.reject(new Error(`Unknown bridge channel: ${String(channel)}`));
    return invoke(channel, ...args);
  };
  const bridge: DesktopBridge = {
    getHardwareId: () => call(bridgeChannels.getHardwareId),
    hasSession: () => call(bridgeChannels.hasSession),
    forgetSession: () => call(bridgeChannels.forgetSession),
    checkLicenseStatus: () => call(bridgeChannels.checkLicenseStatus),
    getLicenseKey: () => call(bridgeChannels.getLicenseKey),
    setLicenseKey: (key) => call(bridgeChannels.setLicenseKey, key),
    getAppInfo: () => call(bridgeChannels.getAppInfo),
    getUpdateState: () => call(bridgeChannels.getUpdateState),
    onUpdateStateChange: (listener) =>
      listen(bridgeEvents.updateStateChanged, (state) => listener(state as UpdateState)),
    checkForUpdates: () => call(bridgeChannels.checkForUpdates),
    installUpdate: () => call(bridgeChannels.installUpdate),
    getUpdateChannel: () => call(bridgeChannels.getUpdateChannel),
    setUpdateChannel: (channel) => call(bridgeChannels.setUpdateChannel, channel),
    writeOfflineActivationRequest: (licenseKey) =>
      call(bridgeChannels.writeOfflineActivationRequest, licenseKey),
    importOfflineLicenseFile: (contents) => call(bridgeChannels.importOfflineLicenseFile, contents),
    signOutOfflineLicense: () => call(bridgeChannels.signOutOfflineLicense),
    getMachineTrial: () => call(bridgeChannels.getMachineTrial),
    startMachineTrial: (planId) =>
      planId === undefined
        ? call(bridgeChannels.startMachineTrial)
        : call(bridgeChannels.startMachineTrial, planId),
    usage: Object.freeze({
      report: (feature: string, amount: number) => call(bridgeChannels.reportUsage, feature, amount),
      left: () => call(bridgeChannels.usageLeft),
    }),
    floating: Object.freeze({
      state: () => call(bridgeChannels.floatingSeat),
      borrow: (days: number) => call(bridgeChannels.borrowFloatingSeat, days),
      returnBorrowed: () => call(bridgeChannels.returnFloatingSeat),
    }),
    sso: Object.freeze({ start: (email: string) => call(bridgeChannels.startSso, email) }),
  };
  // Frozen: page scripts cannot swap a method for one that talks to another channel.
  return Object.freeze(bridge);
}
