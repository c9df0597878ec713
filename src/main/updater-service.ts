import type { AppUpdater, ProgressInfo, UpdateDownloadedEvent, UpdateInfo } from 'electron-updater';
import type { DownloadPlatform } from '../shared/api/licenses.js';
import type { FingerprintComponents } from '../shared/fingerprint.js';
import { CHANNEL_FILE_PREFIX, type ReleaseChannel } from '../shared/api/distribution.js';
import { type UpdateState, updateStateSchema } from '../shared/bridge.js';
import type { IntervalTimer } from './periodic-license-check.js';
import type { UpdateCheckApi } from './updater-api.js';
import type { UpdateSettingsFile } from './updater-settings.js';

/** The events of electron-updater's `AppUpdater` the service follows, with their arguments. */
export interface UpdaterEventListeners {
  'checking-for-update': () => void;
  'update-available': (info: UpdateInfo) => void;
  'update-not-available': (info: UpdateInfo) => void;
  'download-progress': (info: ProgressInfo) => void;
  'update-downloaded': (event: UpdateDownloadedEvent) => void;
  error: (error: Error, message?: string) => void;
}

/** What the service uses of electron-updater's `autoUpdater` (an `AppUpdater`); tests give their own. */
export type UpdaterLike = Pick<
  AppUpdater,
  | 'autoDownload'
  | 'autoInstallOnAppQuit'
  | 'allowDowngrade'
  | 'channel'
  | 'setFeedURL'
  | 'checkForUpdates'
  | 'quitAndInstall'
> & {
  on<Event extends keyof UpdaterEventListeners>(
    event: Event,
    listener: UpdaterEventListeners[Event],
  ): unknown;
};

/** How often the app asks for updates after the check at start. */
export const DEFAULT_UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

export const updateNotes = {
  noLicense: 'Updates are checked once a license is activated on this machine.',
  noPlatform: 'Updates are not published for this system.',
  notInstalled: 'Updates are checked in the installed app only, not in a development build.',
} as const;

/** The names electron-builder and the server give Node's platforms. */
const PLATFORMS: Partial<Record<NodeJS.Platform, DownloadPlatform>> = {
  win32: 'windows',
  darwin: 'macos',
  linux: 'linux',
};

export interface UpdateServiceOptions {
  /** electron-updater's `autoUpdater` in the app. */
  updater: UpdaterLike;
  api: UpdateCheckApi;
  settings: UpdateSettingsFile;
  /** The license key main keeps (null before one is entered). */
  licenseKey: () => Promise<string | null>;
  hardwareId: () => string;
  /**
   * This machine's hashed fingerprint components, sent as the license check sends them, so the
   * server knows a reinstalled or cloned machine for updates as it does for its license.
   */
  components?: () => FingerprintComponents | undefined;
  app: { version: string; platform: NodeJS.Platform };
  intervalMs?: number;
  timer?: IntervalTimer;
  now?: () => Date;
  log?: (message: string) => void;
}

export interface UpdateService {
  /** Checks now and then every `intervalMs`. */
  start(): void;
  stop(): void;
  state(): UpdateState;
  /** Calls `listener` with every new state; returns the function that stops it. */
  onChange(listener: (state: UpdateState) => void): () => void;
  /** The user's "Check now": checks unless a check or a download is under way. */
  checkNow(): Promise<UpdateState>;
  /** The user's "Restart to update": quits and installs only a downloaded update. */
  install(): boolean;
  channel(): Promise<ReleaseChannel>;
  /** Keeps the channel and checks on it at once (unless a check or download is under way). */
  setChannel(channel: ReleaseChannel): Promise<ReleaseChannel>;
}

/** electron-updater's release notes (a string, or one note per version on some providers) as text. */
export function releaseNotesText(notes: UpdateInfo['releaseNotes']): string {
  if (!notes) return '';
  if (typeof notes === 'string') return notes;
  return notes.map((entry) => (entry.note ? `${entry.version}\n${entry.note}` : entry.version)).join('\n\n');
}

/** A failure of electron-updater in words for the user (its own messages carry stack traces). */
export function describeUpdaterError(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ERR_CHECKSUM_MISMATCH' || code === 'ERR_UPDATER_INVALID_SIGNATURE')
    return 'The downloaded update did not match its checksum and was discarded; nothing was installed. It will be downloaded again at the next check.';
  const text = error instanceof Error ? error.message : String(error);
  const firstLine = (text.split('\n')[0] ?? '').trim().slice(0, 240);
  return `The update could not be checked or downloaded${firstLine ? `: ${firstLine}` : ''}. It will be tried again later.`;
}

// The feed answers 404 when no release of the channel is offered to this machine: nothing to do.
const isNothingOffered = (error: unknown) =>
  (error as { code?: unknown } | undefined)?.code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND';

const nodeTimer: IntervalTimer = {
  setInterval: (run, milliseconds) => setInterval(run, milliseconds).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/**
 * The app's own updates: each check asks the server for a fresh signed feed URL (license key,
 * hardware id, the version running), points electron-updater's generic provider at it on the
 * chosen channel and lets it download in the background; electron-updater verifies the file's
 * SHA-512 before it reports it downloaded. Nothing is installed until the user asks. The state
 * follows electron-updater's events, so whatever starts a check, the portal sees one story.
 */
export function createUpdateService(options: UpdateServiceOptions): UpdateService {
  const { updater, api, settings } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const timer = options.timer ?? nodeTimer;
  const listeners = new Set<(state: UpdateState) => void>();
  let current: UpdateState = { status: 'idle', checked_at: null };
  let handle: unknown;
  let running: Promise<void> | undefined;

  // The server decides what a machine is offered, a lower version included when the machine's own
  // was yanked, so electron-updater takes whatever the feed offers.
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = false;

  function set(next: UpdateState) {
    current = updateStateSchema.parse(next);
    for (const listener of listeners) listener(current);
  }

  /** The version being fetched, from the last `update-available`. */
  let offered: { version: string; release_notes: string } | undefined;
  /** The update downloaded and verified, waiting for a restart. */
  let ready: Extract<UpdateState, { status: 'downloaded' }> | undefined;

  /** A check or download failed: said, unless an update is ready, which a failed check leaves ready. */
  function fail(message: string) {
    set(ready ?? { status: 'error', message });
  }

  updater.on('checking-for-update', () => set({ status: 'checking' }));
  updater.on('update-available', (info: UpdateInfo) => {
    offered = { version: info.version, release_notes: releaseNotesText(info.releaseNotes) };
    log(`Updates: version ${info.version} is offered; downloading it`);
    set({ status: 'available', ...offered });
  });
  updater.on('update-not-available', () => {
    offered = undefined;
    set({ status: 'idle', checked_at: now().toISOString() });
  });
  updater.on('download-progress', (progress: ProgressInfo) => {
    if (!offered) return;
    const percent = Math.min(100, Math.max(0, Math.floor(progress.percent)));
    set({ status: 'downloading', ...offered, percent });
  });
  updater.on('update-downloaded', (info: UpdateInfo) => {
    log(`Updates: version ${info.version} is downloaded and verified; it waits for a restart`);
    ready = {
      status: 'downloaded',
      version: info.version,
      release_notes: releaseNotesText(info.releaseNotes) || (offered?.release_notes ?? ''),
    };
    set(ready);
  });
  updater.on('error', (error: Error) => {
    if (isNothingOffered(error)) {
      set({ status: 'idle', checked_at: now().toISOString() });
      return;
    }
    log(`Updates: ${error.message.split('\n')[0] ?? 'failed'}`);
    fail(describeUpdaterError(error));
  });

  async function check(): Promise<void> {
    set({ status: 'checking' });
    const platform = PLATFORMS[options.app.platform];
    if (!platform) return set({ status: 'idle', checked_at: null, note: updateNotes.noPlatform });
    const licenseKey = await options.licenseKey();
    if (!licenseKey) return set({ status: 'idle', checked_at: null, note: updateNotes.noLicense });
    const channel = await settings.channel();
    const components = options.components?.();
    const outcome = await api.check({
      license_key: licenseKey,
      hardware_id: options.hardwareId(),
      platform,
      current_version: options.app.version,
      ...(components ? { components } : {}),
    });
    switch (outcome.kind) {
      case 'refused':
        // Not this app's fault and nothing to retry soon: said quietly where updates are shown.
        return set({ status: 'idle', checked_at: null, note: outcome.message });
      case 'unreachable':
        return fail(`Could not check for updates: ${outcome.reason}. It will be tried again later.`);
      case 'failed':
        return fail(outcome.message);
      case 'feed':
        break;
    }
    // The feed URL's path carries the token electron-updater keeps for every file it fetches.
    updater.setFeedURL({ provider: 'generic', url: outcome.feedUrl });
    // `latest` or `beta`: electron-updater asks for `<channel><-platform>.yml` under the feed.
    updater.channel = CHANNEL_FILE_PREFIX[channel];
    updater.allowDowngrade = true;
    let result: Awaited<ReturnType<UpdaterLike['checkForUpdates']>>;
    try {
      result = await updater.checkForUpdates();
    } catch {
      // electron-updater has emitted `error` already; the state says what failed.
      return;
    }
    // Null: electron-updater does not run outside a packaged app.
    if (!result) return set({ status: 'idle', checked_at: null, note: updateNotes.notInstalled });
    // The download goes on in the background; its failure is reported through `error` too.
    result.downloadPromise?.catch(() => undefined);
  }

  /** A check, or a download a check started, is under way. */
  const busy = () =>
    running !== undefined || current.status === 'available' || current.status === 'downloading';

  /** One check at a time. */
  function run(reason: string): Promise<void> {
    running ??= check()
      .catch((error: unknown) => {
        log(`Updates: the ${reason} check failed: ${(error as Error).message}`);
        fail(describeUpdaterError(error));
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  const background = () => {
    // A downloaded update waits for the user: checking again would only fetch it a second time.
    if (current.status === 'downloaded' || busy()) return;
    void run('scheduled');
  };

  return {
    start() {
      background();
      handle ??= timer.setInterval(background, options.intervalMs ?? DEFAULT_UPDATE_CHECK_INTERVAL_MS);
    },
    stop() {
      if (handle !== undefined) timer.clearInterval(handle);
      handle = undefined;
    },
    state: () => current,
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async checkNow() {
      // A check or download under way goes on; the portal follows it through onChange.
      if (busy()) return current;
      await run('requested');
      return current;
    },
    install() {
      if (current.status !== 'downloaded') return false;
      log(`Updates: restarting to install ${current.version}`);
      // Run the new version after the installer, as the user asked for a restart.
      updater.quitAndInstall(false, true);
      return true;
    },
    channel: () => settings.channel(),
    async setChannel(channel) {
      await settings.setChannel(channel);
      log(`Updates: channel set to ${channel}`);
      if (!busy()) void run('channel');
      return channel;
    },
  };
}
