import type { DesktopBridge } from '../../../src/shared/bridge';

type OfflineMethods = Pick<
  DesktopBridge,
  'writeOfflineActivationRequest' | 'importOfflineLicenseFile' | 'signOutOfflineLicense'
>;

/**
 * The activation-by-file half of a desktop bridge for tests about something else: a machine that
 * was never activated by file (no license file to import or sign out).
 */
export const offlineBridgeMethods: OfflineMethods = {
  writeOfflineActivationRequest: async () => ({
    file_name: 'machine.activation-request.json',
    contents: '{}',
  }),
  importOfflineLicenseFile: async () => ({ imported: false, message: 'This is not a license file.' }),
  signOutOfflineLicense: async () => null,
};
