/**
 * Channel names of the desktop bridge, apart from their zod contract (src/shared/bridge.ts) so the
 * sandboxed preload can import them without bundling zod.
 */
export const BRIDGE_CHANNEL_PREFIX = 'desktop:';

export const bridgeChannels = {
  getHardwareId: 'desktop:hardware-id:get',
  hasSession: 'desktop:session:has',
  forgetSession: 'desktop:session:forget',
  checkLicenseStatus: 'desktop:licensing:status',
  getLicenseKey: 'desktop:license-key:get',
  setLicenseKey: 'desktop:license-key:set',
  getAppInfo: 'desktop:app-info:get',
} as const;
export type BridgeChannel = (typeof bridgeChannels)[keyof typeof bridgeChannels];

const knownChannels: ReadonlySet<string> = new Set(Object.values(bridgeChannels));

/** Whether `value` names a channel of the bridge (anything else is refused on both sides). */
export const isBridgeChannel = (value: unknown): value is BridgeChannel =>
  typeof value === 'string' && value.startsWith(BRIDGE_CHANNEL_PREFIX) && knownChannels.has(value);
