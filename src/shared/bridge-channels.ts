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
  getUpdateState: 'desktop:updates:state',
  checkForUpdates: 'desktop:updates:check',
  installUpdate: 'desktop:updates:install',
  getUpdateChannel: 'desktop:updates:channel:get',
  setUpdateChannel: 'desktop:updates:channel:set',
  writeOfflineActivationRequest: 'desktop:offline:request',
  importOfflineLicenseFile: 'desktop:offline:import',
  signOutOfflineLicense: 'desktop:offline:sign-out',
  getMachineTrial: 'desktop:machine-trial:get',
  startMachineTrial: 'desktop:machine-trial:start',
  reportUsage: 'desktop:usage:report',
  usageLeft: 'desktop:usage:left',
  floatingSeat: 'desktop:floating:state',
  borrowFloatingSeat: 'desktop:floating:borrow',
  returnFloatingSeat: 'desktop:floating:return',
  startSso: 'desktop:sso:start',
} as const;
export type BridgeChannel = (typeof bridgeChannels)[keyof typeof bridgeChannels];

const knownChannels: ReadonlySet<string> = new Set(Object.values(bridgeChannels));

/**
 * What main sends the app's window unasked (`webContents.send`), apart from the channels it answers:
 * the renderer only listens to these, through the bridge's subscription methods.
 */
export const bridgeEvents = {
  updateStateChanged: 'desktop:updates:changed',
} as const;
export type BridgeEvent = (typeof bridgeEvents)[keyof typeof bridgeEvents];

/** Whether `value` names a channel of the bridge (anything else is refused on both sides). */
export const isBridgeChannel = (value: unknown): value is BridgeChannel =>
  typeof value === 'string' && value.startsWith(BRIDGE_CHANNEL_PREFIX) && knownChannels.has(value);

/**
 * What the desktop renderer sends where the web sends the refresh token (the refresh and logout
 * bodies). The refresh token never reaches page scripts on the desktop: main keeps it from the
 * sign-in and refresh answers it forwards, takes it out of them, and puts it into the refresh and
 * logout calls in place of whatever the renderer sent. The renderer only asks whether there is one.
 * Kept here, apart from the zod contract, so the portal's first download does not carry zod.
 */
export const DESKTOP_REFRESH_TOKEN_PLACEHOLDER = 'kept-by-the-desktop-app';
