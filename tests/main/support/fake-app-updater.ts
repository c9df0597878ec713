import { EventEmitter } from 'node:events';
import type { UpdateCheckResult, UpdateInfo } from 'electron-updater';
import { DESKTOP_API_KEY } from '../../../src/main/desktop-config.js';
import { createLicenseStateFile } from '../../../src/main/license-state.js';
import { createUpdateCheckApi } from '../../../src/main/updater-api.js';
import { createUpdateService, type UpdaterLike } from '../../../src/main/updater-service.js';
import { createUpdateSettingsFile } from '../../../src/main/updater-settings.js';

/** What the fake's next `checkForUpdates()` finds. */
type NextCheck =
  | { kind: 'offer'; info: UpdateInfo }
  | { kind: 'nothing'; info: UpdateInfo }
  | { kind: 'fail'; error: Error }
  | { kind: 'inactive' };

/**
 * Behaves like electron-updater's AppUpdater where the update service touches it (Electron cannot
 * run here): the same properties and methods, and the same events in AppUpdater's order
 * (`checking-for-update`, then `update-available` or `update-not-available`, or `error` before the
 * check's promise rejects; with autoDownload, `download-progress` and `update-downloaded`, or
 * `error` before the download's promise rejects). The test says what each check finds and moves
 * the download on.
 */
export class FakeAppUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  allowDowngrade = false;
  channel: string | null = null;
  readonly feedUrls: string[] = [];
  /** Every check, with the channel electron-updater would have asked for. */
  readonly checks: { feedUrl: string | undefined; channel: string | null }[] = [];
  readonly installs: { isSilent?: boolean; isForceRunAfter?: boolean }[] = [];
  next: NextCheck = { kind: 'inactive' };
  private download:
    { info: UpdateInfo; resolve(files: string[]): void; reject(error: Error): void } | undefined;

  setFeedURL(options: Parameters<UpdaterLike['setFeedURL']>[0]) {
    this.feedUrls.push((options as { url: string }).url);
  }

  async checkForUpdates(): Promise<UpdateCheckResult | null> {
    this.checks.push({ feedUrl: this.feedUrls.at(-1), channel: this.channel });
    const next = this.next;
    if (next.kind === 'inactive') return null;
    this.emit('checking-for-update');
    await Promise.resolve();
    if (next.kind === 'fail') {
      this.emit('error', next.error, next.error.stack);
      throw next.error;
    }
    if (next.kind === 'nothing') {
      this.emit('update-not-available', next.info);
      return { isUpdateAvailable: false, updateInfo: next.info, versionInfo: next.info };
    }
    this.emit('update-available', next.info);
    const downloadPromise = this.autoDownload
      ? new Promise<string[]>((resolve, reject) => {
          this.download = { info: next.info, resolve, reject };
        })
      : null;
    return { isUpdateAvailable: true, updateInfo: next.info, versionInfo: next.info, downloadPromise };
  }

  /** The download reaches `percent` (electron-updater's ProgressInfo). */
  progress(percent: number, total = 1000) {
    this.emit('download-progress', {
      percent,
      total,
      transferred: Math.round((total * percent) / 100),
      bytesPerSecond: 100,
      delta: 10,
    });
  }

  /** The file arrived and its SHA-512 matched. */
  finishDownload() {
    const download = this.requireDownload();
    this.emit('update-downloaded', { ...download.info, downloadedFile: '/tmp/update.AppImage' });
    download.resolve(['/tmp/update.AppImage']);
  }

  /** The download failed (e.g. electron-updater's ERR_CHECKSUM_MISMATCH). */
  failDownload(error: Error) {
    const download = this.requireDownload();
    this.emit('error', error, error.stack);
    download.reject(error);
  }

  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
    this.installs.push({ isSilent, isForceRunAfter });
  }

  private requireDownload() {
    const download = this.download;
    if (!download) throw new Error('no download under way');
    this.download = undefined;
    return download;
  }
}

/** electron-updater's error with a code, as `newError` makes them. */
export function updaterError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

export const updateInfo = (version: string, releaseNotes = ''): UpdateInfo => ({
  version,
  files: [{ url: `assistant-${version}.AppImage`, sha512: 'c2hhNTEy', size: 1000 }],
  path: `assistant-${version}.AppImage`,
  sha512: 'c2hhNTEy',
  releaseDate: '2026-01-01T00:00:00.000Z',
  releaseNotes,
});

/** The update service main builds, on a fake updater, for tests of the bridge around it. */
export function updateServiceForTests(options: {
  serverUrl: string;
  licenseStatePath: string;
  settingsPath: string;
  updater?: FakeAppUpdater;
}) {
  const updater = options.updater ?? new FakeAppUpdater();
  const state = createLicenseStateFile(options.licenseStatePath, options.serverUrl);
  const service = createUpdateService({
    updater,
    api: createUpdateCheckApi({ serverUrl: options.serverUrl, apiKey: DESKTOP_API_KEY, timeoutMs: 2000 }),
    settings: createUpdateSettingsFile(options.settingsPath),
    licenseKey: async () => (await state.read()).license_key,
    hardwareId: () => 'a'.repeat(64),
    app: { version: '1.2.3', platform: 'linux' },
  });
  return { service, updater };
}
