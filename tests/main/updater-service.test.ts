import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateCheckRequest } from '../../src/shared/api/distribution.js';
import type { UpdateState } from '../../src/shared/bridge.js';
import type { UpdateCheckApi, UpdateCheckOutcome } from '../../src/main/updater-api.js';
import {
  createUpdateService,
  DEFAULT_UPDATE_CHECK_INTERVAL_MS,
  releaseNotesText,
  updateNotes,
  type UpdateService,
} from '../../src/main/updater-service.js';
import { createUpdateSettingsFile } from '../../src/main/updater-settings.js';
import { FakeAppUpdater, updateInfo, updaterError } from './support/fake-app-updater.js';

const FEED = 'https://portal.example/api/v1/update-feed/signed-token/';
const KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ234';
const HARDWARE_ID = 'b'.repeat(64);

/** The server's update check, answered in process: what was asked, and the outcome the test sets. */
function fakeApi(outcome: UpdateCheckOutcome = { kind: 'feed', feedUrl: FEED }) {
  const requests: UpdateCheckRequest[] = [];
  const api: UpdateCheckApi & { requests: UpdateCheckRequest[]; outcome: UpdateCheckOutcome } = {
    requests,
    outcome,
    async check(request) {
      requests.push(request);
      return api.outcome;
    },
  };
  return api;
}

/** Resolves with the state the next check ends in (its settings file is read from disk). */
const settled = (service: UpdateService) =>
  new Promise<UpdateState>((resolve) => {
    const stop = service.onChange((state) => {
      if (state.status === 'checking') return;
      stop();
      resolve(state);
    });
  });

describe('update service with a fake AppUpdater (emits electron-updater’s events; Electron cannot run here) and fake timers', () => {
  let dir: string;
  let updater: FakeAppUpdater;
  let api: ReturnType<typeof fakeApi>;
  let service: UpdateService;
  let licenseKey: string | null;
  let sequence = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'desktop-updates-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    updater = new FakeAppUpdater();
    api = fakeApi();
    licenseKey = KEY;
    service = makeService();
  });
  afterEach(() => {
    service.stop();
    vi.useRealTimers();
  });

  function makeService(settingsPath = join(dir, `settings-${++sequence}.json`)) {
    return createUpdateService({
      updater,
      api,
      settings: createUpdateSettingsFile(settingsPath),
      licenseKey: async () => licenseKey,
      hardwareId: () => HARDWARE_ID,
      app: { version: '1.0.0', platform: 'linux' },
    });
  }

  it('downloads in the background only, installs on quit never: autoDownload on, autoInstallOnAppQuit off', () => {
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(service.state()).toEqual({ status: 'idle', checked_at: null });
  });

  it('checks at start and every four hours: each check asks the server for a fresh feed with the key, machine and version', async () => {
    updater.next = { kind: 'nothing', info: updateInfo('1.0.0') };
    let done = settled(service);
    service.start();
    await done;
    expect(api.requests).toEqual([
      { license_key: KEY, hardware_id: HARDWARE_ID, platform: 'linux', current_version: '1.0.0' },
    ]);
    expect(updater.checks).toEqual([{ feedUrl: FEED, channel: 'latest' }]);
    expect(updater.allowDowngrade).toBe(true);
    expect(service.state()).toEqual({ status: 'idle', checked_at: '2026-03-01T10:00:00.000Z' });

    await vi.advanceTimersByTimeAsync(DEFAULT_UPDATE_CHECK_INTERVAL_MS - 1);
    expect(updater.checks).toHaveLength(1);
    api.outcome = { kind: 'feed', feedUrl: `${FEED}2/` };
    done = settled(service);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(updater.checks).toEqual([
      { feedUrl: FEED, channel: 'latest' },
      { feedUrl: `${FEED}2/`, channel: 'latest' },
    ]);
    for (const _ of [1, 2]) {
      done = settled(service);
      await vi.advanceTimersByTimeAsync(DEFAULT_UPDATE_CHECK_INTERVAL_MS);
      await done;
    }
    expect(updater.checks).toHaveLength(4);
    service.stop();
    await vi.advanceTimersByTimeAsync(DEFAULT_UPDATE_CHECK_INTERVAL_MS * 2);
    expect(updater.checks).toHaveLength(4);
  });

  it('available with its notes, downloading with the percent, downloaded: the notes are there before the restart, which only the user starts', async () => {
    updater.next = { kind: 'offer', info: updateInfo('1.1.0', 'Faster start.\nFixes the tray icon.') };
    const seen: UpdateState[] = [];
    service.onChange((state) => seen.push(state));
    const done = settled(service);
    service.start();
    await done;
    expect(service.state()).toEqual({
      status: 'available',
      version: '1.1.0',
      release_notes: 'Faster start.\nFixes the tray icon.',
    });
    updater.progress(12.7);
    updater.progress(100);
    expect(service.state()).toMatchObject({ status: 'downloading', version: '1.1.0', percent: 100 });
    expect(updater.installs).toEqual([]);
    updater.finishDownload();
    expect(service.state()).toEqual({
      status: 'downloaded',
      version: '1.1.0',
      release_notes: 'Faster start.\nFixes the tray icon.',
    });
    expect(seen.map((state) => state.status)).toEqual([
      'checking',
      'checking',
      'available',
      'downloading',
      'downloading',
      'downloaded',
    ]);
    expect(seen.filter((state) => state.status === 'downloading').map((state) => state.percent)).toEqual([
      12, 100,
    ]);

    // A downloaded update waits: the timer does not fetch it again, and nothing installs by itself.
    await vi.advanceTimersByTimeAsync(DEFAULT_UPDATE_CHECK_INTERVAL_MS * 3);
    expect(updater.checks).toHaveLength(1);
    expect(updater.installs).toEqual([]);
    expect(service.install()).toBe(true);
    expect(updater.installs).toEqual([{ isSilent: false, isForceRunAfter: true }]);
  });

  it('while a check or download is under way, "check now" and the timer start no second one', async () => {
    updater.next = { kind: 'offer', info: updateInfo('1.1.0') };
    const done = settled(service);
    service.start();
    await done;
    updater.progress(40);
    expect(await service.checkNow()).toMatchObject({ status: 'downloading', percent: 40 });
    await vi.advanceTimersByTimeAsync(DEFAULT_UPDATE_CHECK_INTERVAL_MS);
    expect(updater.checks).toHaveLength(1);
    expect(service.install()).toBe(false);
  });

  it('a check that fails after an update was downloaded leaves that update ready to install', async () => {
    updater.next = { kind: 'offer', info: updateInfo('1.1.0', 'Faster start.') };
    const done = settled(service);
    service.start();
    await done;
    updater.finishDownload();
    api.outcome = { kind: 'unreachable', reason: 'the server did not answer' };
    expect(await service.checkNow()).toEqual({
      status: 'downloaded',
      version: '1.1.0',
      release_notes: 'Faster start.',
    });
    expect(service.install()).toBe(true);
  });

  it('a download whose SHA-512 does not match (electron-updater’s ERR_CHECKSUM_MISMATCH) is an error, and nothing can be installed', async () => {
    updater.next = { kind: 'offer', info: updateInfo('1.1.0') };
    await service.checkNow();
    updater.progress(100);
    updater.failDownload(
      updaterError('sha512 checksum mismatch, expected x, got y', 'ERR_CHECKSUM_MISMATCH'),
    );
    expect(service.state()).toEqual({
      status: 'error',
      message:
        'The downloaded update did not match its checksum and was discarded; nothing was installed. It will be downloaded again at the next check.',
    });
    expect(service.install()).toBe(false);
    expect(updater.installs).toEqual([]);
  });

  it('no release offered (the feed’s 404, ERR_UPDATER_CHANNEL_FILE_NOT_FOUND) is up to date, not an error', async () => {
    updater.next = {
      kind: 'fail',
      error: updaterError(
        'Cannot find channel "latest-linux.yml" update info: HttpError: 404',
        'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
      ),
    };
    expect(await service.checkNow()).toEqual({ status: 'idle', checked_at: '2026-03-01T10:00:00.000Z' });
  });

  it('any other failure of electron-updater is an error in one line, without its stack', async () => {
    updater.next = {
      kind: 'fail',
      error: updaterError('net::ERR_CONNECTION_RESET\n    at stack line', 'ERR_X'),
    };
    expect(await service.checkNow()).toEqual({
      status: 'error',
      message:
        'The update could not be checked or downloaded: net::ERR_CONNECTION_RESET. It will be tried again later.',
    });
  });

  it('what the server says decides before electron-updater is asked: no key, a refusal, no answer, a development build', async () => {
    licenseKey = null;
    expect(await service.checkNow()).toEqual({
      status: 'idle',
      checked_at: null,
      note: updateNotes.noLicense,
    });
    expect(api.requests).toEqual([]);

    licenseKey = KEY;
    api.outcome = {
      kind: 'refused',
      message: 'This license was revoked. Contact support if you think this is a mistake.',
    };
    expect(await service.checkNow()).toEqual({
      status: 'idle',
      checked_at: null,
      note: 'This license was revoked. Contact support if you think this is a mistake.',
    });
    api.outcome = { kind: 'unreachable', reason: 'the update server did not answer in time' };
    expect(await service.checkNow()).toEqual({
      status: 'error',
      message:
        'Could not check for updates: the update server did not answer in time. It will be tried again later.',
    });
    expect(updater.checks).toEqual([]);

    api.outcome = { kind: 'feed', feedUrl: FEED };
    updater.next = { kind: 'inactive' };
    expect(await service.checkNow()).toEqual({
      status: 'idle',
      checked_at: null,
      note: updateNotes.notInstalled,
    });
  });

  it('a system nothing is published for is not checked', async () => {
    const other = createUpdateService({
      updater,
      api,
      settings: createUpdateSettingsFile(join(dir, 'freebsd.json')),
      licenseKey: async () => KEY,
      hardwareId: () => HARDWARE_ID,
      app: { version: '1.0.0', platform: 'freebsd' },
    });
    expect(await other.checkNow()).toEqual({
      status: 'idle',
      checked_at: null,
      note: updateNotes.noPlatform,
    });
    expect(api.requests).toEqual([]);
  });

  it('the channel is kept by main across restarts, and choosing one checks on it at once', async () => {
    const path = join(dir, 'kept-channel.json');
    service = makeService(path);
    expect(await service.channel()).toBe('stable');
    updater.next = { kind: 'offer', info: updateInfo('1.2.0-beta.1', 'Try the new editor.') };
    const done = settled(service);
    expect(await service.setChannel('beta')).toBe('beta');
    await done;
    expect(updater.checks).toEqual([{ feedUrl: FEED, channel: 'beta' }]);
    expect(service.state()).toMatchObject({ status: 'available', version: '1.2.0-beta.1' });
    expect(await makeService(path).channel()).toBe('beta');

    // A file the user damaged reads as stable.
    await writeFile(path, '{"version":1,"channel":"nightly"}');
    expect(await makeService(path).channel()).toBe('stable');
  });

  it('release notes given per version (some providers) read as text', () => {
    expect(releaseNotesText(null)).toBe('');
    expect(
      releaseNotesText([
        { version: '1.1.0', note: 'Faster.' },
        { version: '1.0.1', note: null },
      ]),
    ).toBe('1.1.0\nFaster.\n\n1.0.1');
  });
});
