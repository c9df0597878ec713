import type { DesktopBridge, LicenseCheckResult, UsageLeft } from '../../../src/shared/bridge';
import { machineTrialBridgeMethods } from './fake-machine-trial-bridge';
import { offlineBridgeMethods } from './fake-offline-bridge';
import { fakeUpdateBridge } from './fake-update-bridge';

/**
 * A desktop bridge kept in memory whose `usage.left()` answers what `left` holds at each call (a
 * test changes it between reads, as main's answer changes when the app goes offline); every call
 * is counted. `usage: false` is a desktop build from before usage was metered.
 */
export function fakeUsageBridge(options: {
  check: LicenseCheckResult;
  left?: UsageLeft | (() => Promise<UsageLeft>);
  usage?: boolean;
}) {
  const state = { left: options.left, leftCalls: 0, reportCalls: 0 };
  const bridge: DesktopBridge = {
    getHardwareId: async () => 'b'.repeat(64),
    hasSession: async () => true,
    forgetSession: async () => undefined,
    checkLicenseStatus: async () => options.check,
    getLicenseKey: async () => 'ABCDE-FGHJK-MNPQR-STVWX-YZ234',
    setLicenseKey: async () => undefined,
    getAppInfo: async () => ({
      version: '2.1.0',
      platform: 'linux',
      serverUrl: 'https://portal.example.com',
      tokenStorage: 'os-keychain',
    }),
    ...fakeUpdateBridge().bridge,
    ...offlineBridgeMethods,
    ...machineTrialBridgeMethods,
    ...(options.usage === false
      ? {}
      : {
          usage: {
            report: async () => {
              state.reportCalls += 1;
              throw new Error('the portal never reports use');
            },
            left: async () => {
              state.leftCalls += 1;
              const left = state.left;
              if (!left) throw new Error('no answer set');
              return typeof left === 'function' ? left() : left;
            },
          },
        }),
  };
  return { bridge, state };
}
