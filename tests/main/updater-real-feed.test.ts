import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReleaseChannel } from '../../src/shared/api/distribution.js';
import type { UpdateState } from '../../src/shared/bridge.js';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { createUpdateCheckApi } from '../../src/main/updater-api.js';
import { createUpdateService, type UpdateService } from '../../src/main/updater-service.js';
import { createUpdateSettingsFile } from '../../src/main/updater-settings.js';
import { publishRelease, releaseFilePath } from '../../src/server/distribution/releases.js';
import type { ReleaseRow } from '../../src/server/platform/db/tables.js';
import { nodeUpdater } from '../server/distribution/update-feed-helpers.js';
import { type LicensingServer, startLicensingServer } from './support/licensing-server.js';

const HARDWARE_ID = 'c'.repeat(64);

/** Resolves with the state the service settles in: up to date, a download done, or a failure. */
const settled = (service: UpdateService) =>
  new Promise<UpdateState>((resolve) => {
    const stop = service.onChange((state) => {
      if (state.status !== 'idle' && state.status !== 'downloaded' && state.status !== 'error') return;
      stop();
      resolve(state);
    });
  });

describe("update service on electron-updater's own AppImageUpdater and generic provider, against the real server over HTTP", () => {
  let server: LicensingServer;
  let workDir: string;
  let licenseKey: string;
  let licenseId: string;
  const published: Record<string, { release: ReleaseRow; bytes: Buffer }> = {};
  const saved = { APPIMAGE: process.env.APPIMAGE, TEST_UPDATER_ARCH: process.env.TEST_UPDATER_ARCH };

  beforeAll(async () => {
    // The feed URL the check answers is under PUBLIC_URL: here the server's own address.
    server = await startLicensingServer({ publicUrlIsOwn: true });
    workDir = await mkdtemp(join(tmpdir(), 'desktop-update-feed-'));
    // The Linux updater reads the running AppImage's path, and its arch picks the channel file.
    process.env.APPIMAGE = join(workDir, 'running.AppImage');
    process.env.TEST_UPDATER_ARCH = 'x64';
    const license = await server.activatedLicense(HARDWARE_ID);
    licenseKey = license.license_key;
    licenseId = license.license_id;
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server?.close();
    await rm(workDir, { recursive: true, force: true });
  });

  async function publish(version: string, channel: ReleaseChannel, releaseNotes: string, minute: number) {
    const bytes = randomBytes(30_000);
    const directory = join(workDir, 'artifacts', version);
    await mkdir(directory, { recursive: true });
    const file = join(directory, `assistant-${version}.AppImage`);
    await writeFile(file, bytes);
    const release = await publishRelease(server.app.db, server.releasesDir, {
      platform: 'linux',
      version,
      file,
      channel,
      rolloutPercent: 100,
      releaseNotes,
      now: new Date(Date.UTC(2026, 0, 1, 0, minute)),
    });
    published[version] = { release, bytes };
  }

  /** The app on this machine: electron-updater's real updater, the real check over HTTP. */
  async function app(version: string, name: string) {
    const dir = join(workDir, 'apps', name);
    // The feed URL given here is replaced by the one each check answers.
    const updater = await nodeUpdater({ dir, version, feedUrl: 'http://127.0.0.1:9/unused/' });
    const service = createUpdateService({
      updater,
      api: createUpdateCheckApi({ serverUrl: server.baseUrl, apiKey: DESKTOP_API_KEY, timeoutMs: 10_000 }),
      settings: createUpdateSettingsFile(join(dir, 'update-settings.json')),
      licenseKey: async () => licenseKey,
      hardwareId: () => HARDWARE_ID,
      app: { version, platform: 'linux' },
    });
    const downloads: string[] = [];
    updater.on('update-downloaded', (event) => downloads.push(event.downloadedFile));
    return { service, updater, downloads };
  }

  it('nothing published yet: the feed’s 404 reads as up to date', async () => {
    const { service } = await app('1.0.0', 'none-yet');
    const state = await service.checkNow();
    expect(state).toEqual({ status: 'idle', checked_at: expect.any(String) });
  });

  it('a machine on 1.0.0 downloads 1.1.0 in the background, verified, with its notes, and waits for the restart', async () => {
    await publish('1.0.0', 'stable', '', 0);
    await publish('1.1.0', 'stable', 'Faster start.\nFixes the tray icon.', 1);
    await publish('1.2.0-beta.1', 'beta', 'Try the new editor.', 2);
    const { service, updater, downloads } = await app('1.0.0', 'stable');
    const done = settled(service);
    const seen: UpdateState['status'][] = [];
    service.onChange((state) => seen.push(state.status));
    await service.checkNow();
    expect(await done).toEqual({
      status: 'downloaded',
      version: '1.1.0',
      release_notes: 'Faster start.\nFixes the tray icon.',
    });
    expect(seen).toContain('available');
    expect(updater.channel).toBe('latest');
    expect((await readFile(downloads[0]!)).equals(published['1.1.0']!.bytes)).toBe(true);
    // The check counted the version this machine runs.
    const counted = await server.app.db
      .selectFrom('releases')
      .select(['checks'])
      .where('id', '=', published['1.0.0']!.release.id)
      .executeTakeFirstOrThrow();
    expect(counted.checks).toBeGreaterThan(0);
  });

  it('the beta channel, once chosen, brings 1.2.0-beta.1', async () => {
    const { service } = await app('1.0.0', 'beta');
    const done = settled(service);
    await service.setChannel('beta');
    expect(await done).toEqual({
      status: 'downloaded',
      version: '1.2.0-beta.1',
      release_notes: 'Try the new editor.',
    });
  });

  it('a machine on the newest stable is up to date', async () => {
    const { service } = await app('1.1.0', 'newest');
    expect(await service.checkNow()).toEqual({ status: 'idle', checked_at: expect.any(String) });
  });

  it('a tampered artifact fails electron-updater’s SHA-512 check: an error, and nothing to install', async () => {
    const target = published['1.1.0']!;
    const path = releaseFilePath(server.releasesDir, target.release);
    const tampered = Buffer.from(target.bytes);
    tampered[10] = tampered[10]! ^ 0xff;
    await writeFile(path, tampered);
    try {
      const { service, updater, downloads } = await app('1.0.0', 'tampered');
      const done = settled(service);
      await service.checkNow();
      expect(await done).toEqual({
        status: 'error',
        message:
          'The downloaded update did not match its checksum and was discarded; nothing was installed. It will be downloaded again at the next check.',
      });
      expect(downloads).toEqual([]);
      let installed = false;
      updater.quitAndInstall = () => {
        installed = true;
      };
      expect(service.install()).toBe(false);
      expect(installed).toBe(false);
    } finally {
      await writeFile(path, target.bytes);
    }
  });

  it('a revoked license gets no feed: the server’s reason, said quietly', async () => {
    const { service, updater } = await app('1.0.0', 'revoked');
    await server.revoke(licenseId, 'Chargeback');
    const checked: string[] = [];
    updater.on('checking-for-update', () => checked.push('checking'));
    expect(await service.checkNow()).toEqual({
      status: 'idle',
      checked_at: null,
      note: expect.stringMatching(/^This license was revoked: Chargeback\./),
    });
    expect(checked).toEqual([]);
  });
});
