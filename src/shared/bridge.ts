import { z } from 'zod';
import { fingerprintComponentsSchema } from './fingerprint.js';
import { isoDateTimeSchema } from './api/common.js';
import {
  featureUsageSchema,
  hardwareIdSchema,
  MAX_USAGE_AMOUNT,
  LICENSE_CHECK_STATUSES,
  licenseTrialSchema,
  type LicenseStatusAnswer,
} from './api/licenses.js';
import { seatHolderSchema } from './api/organisations.js';
import { OFFLINE_FILE_MAX_BYTES } from './offline-files.js';
import { RELEASE_CHANNELS, type ReleaseChannel } from './api/distribution.js';
import { type BridgeChannel, type BridgeEvent, bridgeChannels } from './bridge-channels.js';

export {
  BRIDGE_CHANNEL_PREFIX,
  type BridgeChannel,
  type BridgeEvent,
  bridgeChannels,
  bridgeEvents,
  DESKTOP_REFRESH_TOKEN_PLACEHOLDER,
  isBridgeChannel,
} from './bridge-channels.js';

/*
 * The desktop bridge (see docs/architecture.md): what the preload script exposes to the renderer as
 * `window.desktop`. Every channel starts with `desktop:`; the preload refuses any other, and the
 * main process validates arguments and results with {@link bridgeContract}.
 */

/** Statuses a check can end in besides the server's: no key or machine id yet, or the check failed. */
export const LOCAL_CHECK_STATUSES = ['not_configured', 'error'] as const;

/**
 * A license-status check (valid, status, message) as the desktop reports it. `offline` is present
 * when the answer comes from the last signed lease because the API could not be reached.
 */
export const licenseCheckResultSchema = z.object({
  valid: z.boolean(),
  status: z.enum([...LICENSE_CHECK_STATUSES, ...LOCAL_CHECK_STATUSES]),
  message: z.string(),
  requires_activation: z.boolean().optional(),
  /** A paused license (status `paused`): when its subscription resumes and it works again. */
  resumes_at: isoDateTimeSchema.optional(),
  license_id: z.string().optional(),
  expires_at: isoDateTimeSchema.nullable().optional(),
  features: z.array(featureUsageSchema).optional(),
  /** On an organisation's license: the organisation and the member whose seat this machine is on. */
  seat: seatHolderSchema.optional(),
  /** While the license is a free trial: its end and the whole days left. */
  trial: licenseTrialSchema.optional(),
  /**
   * True when the answer is this machine's trial before any account (no license, no key): `trial`
   * says its end, and an account keeps it (signing in here takes it over).
   */
  machine_trial: z.boolean().optional(),
  /** On a perpetual license: the end of its update window, whether it has ended, and the version it covers. */
  updates_until: isoDateTimeSchema.optional(),
  update_window_ended: z.boolean().optional(),
  covered_version: z.string().nullable().optional(),
  offline: z
    .object({
      lease_expires_at: isoDateTimeSchema,
      grace_remaining_seconds: z.number().int().nonnegative(),
    })
    .optional(),
});
export type LicenseCheckResult = z.infer<typeof licenseCheckResultSchema>;

/** A valid answer of `/licensing/status` as a status-check result (the lease stays behind). */
export const toLicenseCheckResult = (answer: LicenseStatusAnswer): LicenseCheckResult => ({
  valid: answer.valid,
  status: answer.status,
  message: answer.message,
  requires_activation: answer.requires_activation,
  license_id: answer.license_id,
  expires_at: answer.expires_at,
  features: answer.features,
  ...(answer.seat ? { seat: answer.seat } : {}),
  ...(answer.trial ? { trial: answer.trial } : {}),
  ...(answer.updates_until
    ? {
        updates_until: answer.updates_until,
        update_window_ended: answer.update_window_ended,
        covered_version: answer.covered_version,
      }
    : {}),
});

const licenseKeySchema = z.string().trim().min(1).max(64);

/**
 * Where the desktop keeps the refresh token: the OS keychain, a file encrypted with Electron's
 * `safeStorage`, or (no usable keychain, e.g. Linux without a keyring) memory only, in which case
 * sign-in does not survive a restart and the renderer says so.
 */
export const TOKEN_STORAGE_KINDS = ['os-keychain', 'encrypted-file', 'memory'] as const;
export type TokenStorageKind = (typeof TOKEN_STORAGE_KINDS)[number];

export const appInfoSchema = z.object({
  version: z.string(),
  /** Node's `process.platform` of the desktop: 'win32', 'darwin', 'linux'. */
  platform: z.string(),
  /** The API server this desktop checks licenses against (DESKTOP_SERVER_URL). */
  serverUrl: z.string(),
  tokenStorage: z.enum(TOKEN_STORAGE_KINDS),
  /** This machine's fingerprint components, hashed in main; an activation sends them. */
  components: fingerprintComponentsSchema.optional(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/**
 * Where the app's own update stands (electron-updater in main, fed by the portal): `idle` between
 * checks (with why there was nothing to check, when there was not), then `checking`, `available`,
 * `downloading` in the background and `downloaded` (its SHA-512 verified), which waits for the
 * user's "Restart to update"; `error` says what failed.
 */
export const updateStateSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('idle'),
    /** When the last check ended with nothing newer; null before the first. */
    checked_at: isoDateTimeSchema.nullable(),
    /** Why updates are not being checked here (no license yet, a development build…). */
    note: z.string().optional(),
  }),
  z.object({ status: z.literal('checking') }),
  z.object({ status: z.literal('available'), version: z.string(), release_notes: z.string() }),
  z.object({
    status: z.literal('downloading'),
    version: z.string(),
    release_notes: z.string(),
    percent: z.number().min(0).max(100),
  }),
  z.object({ status: z.literal('downloaded'), version: z.string(), release_notes: z.string() }),
  z.object({ status: z.literal('error'), message: z.string() }),
]);
export type UpdateState = z.infer<typeof updateStateSchema>;

export const updateChannelSchema = z.enum(RELEASE_CHANNELS);

/** A file main wrote for a machine without network, for the user to save and carry to the portal. */
export const offlineFileSchema = z.object({ file_name: z.string(), contents: z.string() });
export type OfflineFile = z.infer<typeof offlineFileSchema>;

/** Whether a license file was taken, and what to tell the user either way. */
export const offlineImportResultSchema = z.object({ imported: z.boolean(), message: z.string() });
export type OfflineImportResult = z.infer<typeof offlineImportResultSchema>;

/** This machine's trial before any account: the plan it tries, its end and the whole days left. */
export const machineTrialStateSchema = z.object({
  plan: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  ends_at: isoDateTimeSchema,
  days_left: z.number().int().nonnegative(),
});
export type MachineTrialState = z.infer<typeof machineTrialStateSchema>;

/** What asking for a machine trial came to: the trial (new, or the one running), or why not. */
export const machineTrialStartResultSchema = z.object({
  started: z.boolean(),
  message: z.string(),
  trial: machineTrialStateSchema.nullable(),
});
export type MachineTrialStartResult = z.infer<typeof machineTrialStartResultSchema>;

const planIdArgSchema = z.string().trim().min(1).max(64);

/**
 * Where a usage answer comes from: the server (online), this machine's offline allowance (the
 * lease's reservation less what was used under it), or neither (no license, or no lease to go by).
 */
export const USAGE_SOURCES = ['server', 'reservation', 'none'] as const;

/** What reporting use of a metered feature came to: whether it may go ahead, and why not. */
export const usageReportResultSchema = z.object({
  allowed: z.boolean(),
  /** The event's id (kept in the queue until the server answers it); null when refused before one. */
  id: z.string().nullable(),
  source: z.enum(USAGE_SOURCES),
  message: z.string(),
  /** Units of the feature left after this use as `source` sees it; null when nothing limits it. */
  left: z.number().int().nullable(),
});
export type UsageReportResult = z.infer<typeof usageReportResultSchema>;

/** What is left of each metered feature, as the server or the offline allowance sees it. */
export const usageLeftSchema = z.object({
  source: z.enum(USAGE_SOURCES),
  message: z.string(),
  features: z.array(
    z.object({
      key: z.string(),
      /** Units that may still be used; null when nothing limits it. */
      left: z.number().int().nullable(),
      /** Units used on this machine and not yet answered by the server (already taken from `left`). */
      queued: z.number().int().nonnegative(),
      period_end: isoDateTimeSchema.nullable(),
    }),
  ),
});
export type UsageLeft = z.infer<typeof usageLeftSchema>;

const usageFeatureArgSchema = z.string().trim().min(1).max(64);
const usageAmountArgSchema = z.number().int().min(1).max(MAX_USAGE_AMOUNT);

/**
 * This machine's floating seat: `held` (checked out and kept by heartbeats, or `borrowed_until` a
 * day for offline use), `full` (every seat is held: by whom, and when the first may come back),
 * `offline` (no server, and no borrowed lease that verifies), `not_floating` (no key, or a
 * node-locked license) or `refused` (the server said no: a revoked license, say).
 */
export const FLOATING_SEAT_STATUSES = ['held', 'full', 'offline', 'not_floating', 'refused'] as const;
export const floatingSeatStateSchema = z.object({
  status: z.enum(FLOATING_SEAT_STATUSES),
  message: z.string(),
  /** Seats of the license and seats held now, as the server last said; null when not known. */
  seats: z.number().int().nullable(),
  in_use: z.number().int().nullable(),
  held_until: isoDateTimeSchema.nullable(),
  borrowed_until: isoDateTimeSchema.nullable(),
  /** On `full`: the machines holding the seats, and when the earliest may come back. */
  holders: z.array(
    z.object({
      device_name: z.string().nullable(),
      checked_out_at: isoDateTimeSchema,
      borrowed_until: isoDateTimeSchema.nullable(),
    }),
  ),
  retry_at: isoDateTimeSchema.nullable(),
  /** The most days a seat may be borrowed for, once the server said; null when not known. */
  max_borrow_days: z.number().int().nullable(),
});
export type FloatingSeatState = z.infer<typeof floatingSeatStateSchema>;
const borrowDaysArgSchema = z.number().int().min(1).max(90);

/** Whether a single sign-on went on to the system browser, and what to tell the user either way. */
export const ssoStartResultSchema = z.object({ started: z.boolean(), message: z.string() });
export type SsoStartResult = z.infer<typeof ssoStartResultSchema>;
const ssoEmailArgSchema = z.string().trim().min(3).max(254);

/** Arguments (as a tuple) and result of every channel. */
export const bridgeContract = {
  [bridgeChannels.getHardwareId]: { args: z.tuple([]), result: hardwareIdSchema },
  [bridgeChannels.hasSession]: { args: z.tuple([]), result: z.boolean() },
  [bridgeChannels.forgetSession]: { args: z.tuple([]), result: z.void() },
  [bridgeChannels.checkLicenseStatus]: { args: z.tuple([]), result: licenseCheckResultSchema },
  [bridgeChannels.getLicenseKey]: { args: z.tuple([]), result: licenseKeySchema.nullable() },
  [bridgeChannels.setLicenseKey]: { args: z.tuple([licenseKeySchema.nullable()]), result: z.void() },
  [bridgeChannels.getAppInfo]: { args: z.tuple([]), result: appInfoSchema },
  [bridgeChannels.getUpdateState]: { args: z.tuple([]), result: updateStateSchema },
  [bridgeChannels.checkForUpdates]: { args: z.tuple([]), result: updateStateSchema },
  [bridgeChannels.installUpdate]: { args: z.tuple([]), result: z.boolean() },
  [bridgeChannels.getUpdateChannel]: { args: z.tuple([]), result: updateChannelSchema },
  [bridgeChannels.setUpdateChannel]: { args: z.tuple([updateChannelSchema]), result: updateChannelSchema },
  [bridgeChannels.writeOfflineActivationRequest]: {
    args: z.tuple([licenseKeySchema]),
    result: offlineFileSchema,
  },
  [bridgeChannels.importOfflineLicenseFile]: {
    args: z.tuple([z.string().max(OFFLINE_FILE_MAX_BYTES)]),
    result: offlineImportResultSchema,
  },
  [bridgeChannels.signOutOfflineLicense]: { args: z.tuple([]), result: offlineFileSchema.nullable() },
  [bridgeChannels.getMachineTrial]: { args: z.tuple([]), result: machineTrialStateSchema.nullable() },
  [bridgeChannels.startMachineTrial]: {
    args: z.tuple([planIdArgSchema.optional()]),
    result: machineTrialStartResultSchema,
  },
  [bridgeChannels.reportUsage]: {
    args: z.tuple([usageFeatureArgSchema, usageAmountArgSchema]),
    result: usageReportResultSchema,
  },
  [bridgeChannels.usageLeft]: { args: z.tuple([]), result: usageLeftSchema },
  [bridgeChannels.floatingSeat]: { args: z.tuple([]), result: floatingSeatStateSchema },
  [bridgeChannels.borrowFloatingSeat]: {
    args: z.tuple([borrowDaysArgSchema]),
    result: floatingSeatStateSchema,
  },
  [bridgeChannels.returnFloatingSeat]: { args: z.tuple([]), result: floatingSeatStateSchema },
  [bridgeChannels.startSso]: { args: z.tuple([ssoEmailArgSchema]), result: ssoStartResultSchema },
} as const satisfies Record<BridgeChannel, { args: z.ZodTuple; result: z.ZodType }>;
export type BridgeContract = typeof bridgeContract;

export type BridgeArgs<Channel extends BridgeChannel> = z.input<BridgeContract[Channel]['args']>;
export type BridgeResult<Channel extends BridgeChannel> = z.output<BridgeContract[Channel]['result']>;

/** The transport the preload builds the bridge on (Electron's `ipcRenderer.invoke`, or a test double). */
export type BridgeInvoke = <Channel extends BridgeChannel>(
  channel: Channel,
  ...args: BridgeArgs<Channel>
) => Promise<BridgeResult<Channel>>;

/**
 * How the preload hears what main sends unasked (Electron's `ipcRenderer.on`, or a test double):
 * calls `listener` with each message of `event` and returns the function that stops listening.
 */
export type BridgeListen = (event: BridgeEvent, listener: (payload: unknown) => void) => () => void;

/** `window.desktop`: present only inside the desktop shell. */
export interface DesktopBridge {
  /** A stable, hashed identifier of this machine. */
  getHardwareId(): Promise<string>;
  /** Whether main holds a refresh token for the server, i.e. whether there is a session to refresh. */
  hasSession(): Promise<boolean>;
  /** Main deletes the refresh token it holds (the session is lost or the user signed out). */
  forgetSession(): Promise<void>;
  /** Checks the stored license key on this machine: online, else from the signed offline lease. */
  checkLicenseStatus(): Promise<LicenseCheckResult>;
  getLicenseKey(): Promise<string | null>;
  /** Stores the license key the main process checks; null forgets it. */
  setLicenseKey(key: string | null): Promise<void>;
  /** Version, platform, server and where the refresh token is kept (memory only: sign-in will not persist). */
  getAppInfo(): Promise<AppInfo>;
  /** Where the app's own update stands now. */
  getUpdateState(): Promise<UpdateState>;
  /** Calls `listener` with every change of the update state; returns the function that stops it. */
  onUpdateStateChange(listener: (state: UpdateState) => void): () => void;
  /** Checks now (unless a check or download is under way) and answers the state it left. */
  checkForUpdates(): Promise<UpdateState>;
  /** Quits and installs the downloaded update; false (nothing happens) when none is downloaded. */
  installUpdate(): Promise<boolean>;
  getUpdateChannel(): Promise<ReleaseChannel>;
  /** Keeps the channel for the next checks and checks on it at once; answers the channel kept. */
  setUpdateChannel(channel: ReleaseChannel): Promise<ReleaseChannel>;
  /**
   * Activation by file, for a machine without network: the activation request for the key, as a
   * file to save and upload in the portal from another device.
   */
  writeOfflineActivationRequest(licenseKey: string): Promise<OfflineFile>;
  /** Checks and keeps the license file the portal answered; from then on the status comes from it. */
  importOfflineLicenseFile(contents: string): Promise<OfflineImportResult>;
  /** Forgets the license file and answers the signed-out proof that frees its seat (null without one). */
  signOutOfflineLicense(): Promise<OfflineFile | null>;
  /**
   * This machine's trial before any account, as its kept lease says (verified under the pinned
   * keys, no network): null when it has none, or it ended.
   */
  getMachineTrial(): Promise<MachineTrialState | null>;
  /**
   * Asks the server for this machine's trial of the plan (the lowest-priced plan with a trial when
   * none is named): a new one, or the one running; refused once it ended. Signing in afterwards
   * takes it over as the account's trial, without another step.
   */
  startMachineTrial(planId?: string): Promise<MachineTrialStartResult>;
  /**
   * Metered use of the license on this machine (AI requests…), online or from the lease's allowance.
   * Absent in desktop builds made before it, which the portal's pages may still run in.
   */
  usage?: {
    /**
     * Reports `amount` units of the feature (its key) about to be used: online the server counts it
     * at once; offline it is queued and allowed only within what the lease reserved for this
     * machine. `allowed: false` says why not.
     */
    report(feature: string, amount: number): Promise<UsageReportResult>;
    /** What is left per metered feature: the server's numbers online, the offline allowance offline. */
    left(): Promise<UsageLeft>;
  };
  /**
   * A floating license's seat on this machine: main checks it out at start, keeps it by heartbeats
   * and gives it back on quit. Absent in desktop builds made before floating licenses.
   */
  floating?: {
    /** Where the seat stands now. */
    state(): Promise<FloatingSeatState>;
    /** "Borrow for offline use…": keeps the seat for `days` without the network (through quit). */
    borrow(days: number): Promise<FloatingSeatState>;
    /** Gives a borrowed seat back early and goes back to heartbeats. */
    returnBorrowed(): Promise<FloatingSeatState>;
  };
  /**
   * Single sign-on through the system browser (the provider's pages never open in the app's
   * window). Absent in desktop builds made before it, which sign in with a password only.
   */
  sso?: {
    /**
     * Opens the sign-in of the address's organisation in the system browser; when it ends there,
     * main shows the sign-in page with its one-time code, which the page completes as on the web.
     */
    start(email: string): Promise<SsoStartResult>;
  };
}

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}

/** "6 days", "1 day", "5 hours", "less than an hour": what is left of the offline grace period. */
export function describeGraceRemaining(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  if (days >= 1) return days === 1 ? '1 day' : `${days} days`;
  const hours = Math.floor(seconds / 3600);
  if (hours >= 1) return hours === 1 ? '1 hour' : `${hours} hours`;
  return 'less than an hour';
}

/** The message of a license verified offline from the signed lease. */
export const offlineValidMessage = (graceRemainingSeconds: number) =>
  `Offline — license verified from the signed lease; ${describeGraceRemaining(graceRemainingSeconds)} left`;
