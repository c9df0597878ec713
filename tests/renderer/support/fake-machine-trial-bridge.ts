import type { DesktopBridge } from '../../../src/shared/bridge';

/**
 * The machine-trial half of a desktop bridge for tests about something else: a machine that never
 * tried the app before an account (and is refused one, as when no plan offers a trial).
 */
export const machineTrialBridgeMethods: Pick<DesktopBridge, 'getMachineTrial' | 'startMachineTrial'> = {
  getMachineTrial: async () => null,
  startMachineTrial: async () => ({ started: false, message: 'No plan offers a free trial.', trial: null }),
};
