import { z } from 'zod';
import { isoDateTimeSchema } from './api/common.js';
import { featureUsageSchema, hardwareIdSchema, LICENSE_CHECK_STATUSES } from './api/licenses.js';

/**
 * The desktop bridge (DESIGN §4, §5): what the preload script exposes to the renderer as
 * `window.desktop`. Every channel starts with {@link BRIDGE_CHANNEL_PREFIX}; the preload refuses any
 * other, and the main process validates arguments and results with {@link bridgeContract}.
 */
export const BRIDGE_CHANNEL_PREFIX = 'desktop:';

export const bridgeChannels = {
  getHardwareId: 'desktop:hardware-id:get',
  getRefreshToken: 'desktop:refresh-token:get',
  setRefreshToken: 'desktop:refresh-token:set',
  clearRefreshToken: 'desktop:refresh-token:clear',
  checkLicenseStatus: 'desktop:licensing:status',
  getLicenseKey: 'desktop:license-key:get',
  setLicenseKey: 'desktop:license-key:set',
  getAppInfo: 'desktop:app-info:get',
} as const;
export type BridgeChannel = (typeof bridgeChannels)[keyof typeof bridgeChannels];

/** Statuses a check can end in besides the server's: no key or machine id yet, or the check failed. */
export const LOCAL_CHECK_STATUSES = ['not_configured', 'error'] as const;

/**
 * The license-status answer of SPEC §4 as the desktop reports it. `offline` is present when the
 * answer comes from the last signed lease because the API could not be reached.
 */
export const licenseCheckResultSchema = z.object({
  valid: z.boolean(),
  status: z.enum([...LICENSE_CHECK_STATUSES, ...LOCAL_CHECK_STATUSES]),
  message: z.string(),
  requires_activation: z.boolean().optional(),
  license_id: z.string().optional(),
  expires_at: isoDateTimeSchema.nullable().optional(),
  features: z.array(featureUsageSchema).optional(),
  offline: z
    .object({
      lease_expires_at: isoDateTimeSchema,
      grace_remaining_seconds: z.number().int().nonnegative(),
    })
    .optional(),
});
export type LicenseCheckResult = z.infer<typeof licenseCheckResultSchema>;

const tokenSchema = z.string().min(1).max(4096);
const licenseKeySchema = z.string().trim().min(1).max(64);

export const appInfoSchema = z.object({
  version: z.string(),
  /** Node's `process.platform` of the desktop: 'win32', 'darwin', 'linux'. */
  platform: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const licenseCheckOptionsSchema = z
  .object({
    /** The renderer's access token, for status checks the API answers only to a signed-in user. */
    accessToken: tokenSchema.optional(),
  })
  .strict();
export type LicenseCheckOptions = z.infer<typeof licenseCheckOptionsSchema>;

/** Arguments (as a tuple) and result of every channel. */
export const bridgeContract = {
  [bridgeChannels.getHardwareId]: { args: z.tuple([]), result: hardwareIdSchema },
  [bridgeChannels.getRefreshToken]: { args: z.tuple([]), result: tokenSchema.nullable() },
  [bridgeChannels.setRefreshToken]: { args: z.tuple([tokenSchema]), result: z.void() },
  [bridgeChannels.clearRefreshToken]: { args: z.tuple([]), result: z.void() },
  [bridgeChannels.checkLicenseStatus]: {
    args: z.tuple([licenseCheckOptionsSchema.optional()]),
    result: licenseCheckResultSchema,
  },
  [bridgeChannels.getLicenseKey]: { args: z.tuple([]), result: licenseKeySchema.nullable() },
  [bridgeChannels.setLicenseKey]: { args: z.tuple([licenseKeySchema.nullable()]), result: z.void() },
  [bridgeChannels.getAppInfo]: { args: z.tuple([]), result: appInfoSchema },
} as const satisfies Record<BridgeChannel, { args: z.ZodTuple; result: z.ZodType }>;
export type BridgeContract = typeof bridgeContract;

export type BridgeArgs<Channel extends BridgeChannel> = z.input<BridgeContract[Channel]['args']>;
export type BridgeResult<Channel extends BridgeChannel> = z.output<BridgeContract[Channel]['result']>;

/** The transport the preload builds the bridge on (Electron's `ipcRenderer.invoke`, or a test double). */
export type BridgeInvoke = <Channel extends BridgeChannel>(
  channel: Channel,
  ...args: BridgeArgs<Channel>
) => Promise<BridgeResult<Channel>>;

/** `window.desktop`: present only inside the desktop shell. */
export interface DesktopBridge {
  /** A stable, hashed identifier of this machine. */
  getHardwareId(): Promise<string>;
  /** The refresh token from the OS keychain (or its encrypted fallback); null when signed out. */
  getRefreshToken(): Promise<string | null>;
  setRefreshToken(token: string): Promise<void>;
  clearRefreshToken(): Promise<void>;
  /** Checks the stored license key on this machine: online, else from the signed offline lease. */
  checkLicenseStatus(options?: LicenseCheckOptions): Promise<LicenseCheckResult>;
  getLicenseKey(): Promise<string | null>;
  /** Stores the license key the main process checks; null forgets it. */
  setLicenseKey(key: string | null): Promise<void>;
  getAppInfo(): Promise<AppInfo>;
}

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}
