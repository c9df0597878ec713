import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpdateInfo } from 'builder-util-runtime';
import { CancellationToken } from 'builder-util-runtime';
import { GenericProvider } from 'electron-updater/out/providers/GenericProvider.js';
import { parseUpdateInfo } from 'electron-updater/out/providers/Provider.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishRelease, releaseFilePath } from '../../../src/server/distribution/releases.js';
import { UPDATE_FEED_TTL_SECONDS } from '../../../src/server/distribution/update-links.js';
import type { ReleaseRow } from '../../../src/server/platform/db/tables.js';
import {
  type AdminRelease,
  adminReleaseListSchema,
  type ReleaseChannel,
  updateCheckResponseSchema,
} from '../../../src/shared/api/distribution.js';
import { generateLicenseKey } from '../../../src/shared/license-key.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { activateBase, type SignedIn, signInAsAdmin, signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { nodeUpdater } from './update-feed-helpers.js';

const PUBLIC_ORIGIN = 'http://portal.test';
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

describeOnEveryDatabase('updates through electron-updater', (server) => {
  let workDir: string;
  let origin: string;
  let owner: SignedIn;
  let admin: SignedIn;
  let licenseKey: string;
  let licenseId: string;
  const machine = 'update-machine-0001';
  const saved = { APPIMAGE: process.env.APPIMAGE, TEST_UPDATER_ARCH: process.env.TEST_UPDATER_ARCH };
  const published: Record<string, { release: ReleaseRow; bytes: Buffer }> = {};

  beforeAll(async () => {
    const s = server();
    workDir = await mkdtemp(join(tmpdir(), 'portal-updates-'));
    // The Linux updater reads the running AppImage's path, and its arch picks the channel file.
    process.env.APPIMAGE = join(workDir, 'running.AppImage');
    process.env.TEST_UPDATER_ARCH = 'x64';
    origin = await s.listen();
    owner = await signInAsUser(s, 'updater');
    admin = await signInAsAdmin(s);
    const activated = await activateBase(s, owner, machine);
    licenseKey = activated.license_key;
    licenseId = activated.license_id;

    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    await publish('1.0.0', 'stable', 100, '', at(0));
    await publish('1.1.0', 'stable', 100, 'Faster start.\nFixes the tray icon.', at(1));
    await publish('1.2.0-beta.1', 'beta', 100, 'Try the new editor.', at(2));
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(workDir, { recursive: true, force: true });
  });

  async function publish(
    version: string,
    channel: ReleaseChannel,
    rolloutPercent: number,
    releaseNotes: string,
    now: Date,
    platform: 'linux' | 'windows' = 'linux',
  ) {
    const s = server();
    const bytes = randomBytes(40_000);
    const directory = join(workDir, 'artifacts', platform, version);
    await mkdir(directory, { recursive: true });
    const file = join(directory, `assistant-${version}.${platform === 'linux' ? 'AppImage' : 'exe'}`);
    await writeFile(file, bytes);
    const release = await publishRelease(s.app.db, s.config.licensing.releasesDir, {
      platform,
      version,
      file,
      channel,
      rolloutPercent,
      releaseNotes,
      now,
    });
    published[`${platform} ${version}`] = { release, bytes };
    return release;
  }

  const check = (body: Record<string, unknown>) =>
    server().api({ method: 'POST', path: '/updates/check', body });

  /** The feed URL a machine's check answers, pointed at the listening test server. */
  async function feedFor(currentVersion?: string, hardwareId = machine): Promise<string> {
    const response = await check({
      license_key: licenseKey,
      hardware_id: hardwareId,
      platform: 'linux',
      ...(currentVersion ? { current_version: currentVersion } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { feed_url } = updateCheckResponseSchema.parse(response.json());
    expect(feed_url.startsWith(`${PUBLIC_ORIGIN}/api/v1/update-feed/`)).toBe(true);
    return feed_url.replace(PUBLIC_ORIGIN, origin);
  }

  const feedPath = (feedUrl: string, file: string) =>
    `${new URL(feedUrl).pathname.slice('/api/v1'.length)}${file}`;

  const updaterDir = (name: string) =>
    join(workDir, 'updaters', `${name}-${Math.random().toString(36).slice(2)}`);

  async function adminRelease(version: string): Promise<AdminRelease> {
    const response = await server().api({ path: '/admin/releases?platform=linux', token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    const found = adminReleaseListSchema.parse(response.json()).releases.find((r) => r.version === version);
    if (!found) throw new Error(`no release ${version}`);
    return found;
  }

  it('a machine on 1.0.0 is offered 1.1.0: electron-updater parses the channel file, downloads the file and verifies its SHA-512', async () => {
    const feedUrl = await feedFor('1.0.0');
    const dir = updaterDir('stable');
    const updater = await nodeUpdater({ dir, version: '1.0.0', feedUrl });
    const result = await updater.checkForUpdates();
    expect(result?.isUpdateAvailable).toBe(true);
    const info = result?.updateInfo as UpdateInfo;
    const expected = published['linux 1.1.0']!;
    expect(info.version).toBe('1.1.0');
    expect(info.releaseNotes).toBe('Faster start.\nFixes the tray icon.');
    expect(info.files).toEqual([
      expect.objectContaining({ sha512: sha512(expected.bytes), size: expected.bytes.length }),
    ]);
    expect(new Date(info.releaseDate).toISOString()).toBe(expected.release.published_at);

    let downloaded: UpdateInfo | undefined;
    updater.on('update-downloaded', (event: UpdateInfo) => (downloaded = event));
    const [file] = await updater.downloadUpdate();
    expect(downloaded?.version).toBe('1.1.0');
    expect((await readFile(file!)).equals(expected.bytes)).toBe(true);
  });

  it('the channel file is the generic provider format, and its file resolves under the feed URL', async () => {
    const feedUrl = await feedFor('1.0.0');
    const response = await server().api({ path: feedPath(feedUrl, 'latest-linux.yml'), withoutApiKey: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/yaml/);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const info = parseUpdateInfo(response.body, 'latest-linux.yml', new URL(feedUrl)) as UpdateInfo;
    const release = published['linux 1.1.0']!.release;
    expect(info).toMatchObject({
      version: '1.1.0',
      path: `files/${release.id}/assistant-1.1.0.AppImage`,
      sha512: release.sha512,
    });
    const provider = new GenericProvider(
      { provider: 'generic', url: feedUrl },
      { channel: null, isAddNoCacheQuery: false } as never,
      { isUseMultipleRangeRequest: false, platform: 'linux', executor: null as never },
    );
    const [resolved] = provider.resolveFiles(info);
    expect(resolved?.url.href).toBe(`${feedUrl}files/${release.id}/assistant-1.1.0.AppImage`);
  });

  it('a tampered artifact is refused by the SHA-512 check: nothing is left to install', async () => {
    const s = server();
    const target = published['linux 1.1.0']!;
    const path = releaseFilePath(s.config.licensing.releasesDir, target.release);
    const genuine = await readFile(path);
    const tampered = Buffer.from(genuine);
    tampered[100] = tampered[100]! ^ 0xff;
    await writeFile(path, tampered);
    try {
      const dir = updaterDir('tampered-file');
      const updater = await nodeUpdater({ dir, version: '1.0.0', feedUrl: await feedFor('1.0.0') });
      expect((await updater.checkForUpdates())?.isUpdateAvailable).toBe(true);
      let downloaded = false;
      updater.on('update-downloaded', () => (downloaded = true));
      await expect(updater.downloadUpdate()).rejects.toMatchObject({ code: 'ERR_CHECKSUM_MISMATCH' });
      expect(downloaded).toBe(false);
      const pending = join(dir, 'cache', 'assistant-updater', 'pending');
      const left = existsSync(pending) ? await readdir(pending) : [];
      expect(left.filter((name) => name.endsWith('.AppImage'))).toEqual([]);
    } finally {
      await writeFile(path, genuine);
    }
  });

  it('a tampered manifest (its SHA-512 altered) is refused by the same check', async () => {
    const feedUrl = await feedFor('1.0.0');
    const response = await server().api({ path: feedPath(feedUrl, 'latest-linux.yml'), withoutApiKey: true });
    const info = parseUpdateInfo(response.body, 'latest-linux.yml', new URL(feedUrl)) as UpdateInfo;
    const forged = sha512(randomBytes(16));
    const altered = {
      ...info,
      sha512: forged,
      files: info.files.map((file) => ({ ...file, sha512: forged })),
    };
    const updater = await nodeUpdater({ dir: updaterDir('tampered-manifest'), version: '1.0.0', feedUrl });
    // The updater's own executor: its download streams the file through the SHA-512 check.
    const { httpExecutor: executor } = updater as unknown as {
      httpExecutor: { download(url: URL, destination: string, options: object): Promise<string> };
    };
    const provider = new GenericProvider(
      { provider: 'generic', url: feedUrl },
      { channel: null, isAddNoCacheQuery: false } as never,
      { isUseMultipleRangeRequest: false, platform: 'linux', executor: executor as never },
    );
    const [file] = provider.resolveFiles(altered);
    const destination = join(workDir, 'forged.AppImage');
    await expect(
      executor.download(file!.url, destination, {
        sha512: file!.info.sha512,
        cancellationToken: new CancellationToken(),
      }),
    ).rejects.toMatchObject({ code: 'ERR_CHECKSUM_MISMATCH' });
  });

  it('the beta channel offers the newest of beta and stable; stable machines never see a beta', async () => {
    const beta = await nodeUpdater({
      dir: updaterDir('beta'),
      version: '1.1.0',
      feedUrl: await feedFor('1.1.0'),
      channel: 'beta',
    });
    const betaResult = await beta.checkForUpdates();
    expect(betaResult?.updateInfo.version).toBe('1.2.0-beta.1');
    expect(betaResult?.updateInfo.releaseNotes).toBe('Try the new editor.');

    const stable = await nodeUpdater({
      dir: updaterDir('stable-on-latest'),
      version: '1.1.0',
      feedUrl: await feedFor('1.1.0'),
    });
    const stableResult = await stable.checkForUpdates();
    expect(stableResult?.updateInfo.version).toBe('1.1.0');
    expect(stableResult?.isUpdateAvailable).toBe(false);
  });

  it('the counters: checks and installs from the versions machines report, downloads through the feed', async () => {
    const before = await adminRelease('1.0.0');
    await feedFor('1.0.0');
    await feedFor('1.0.0');
    const after = await adminRelease('1.0.0');
    expect(after.checks).toBe(before.checks + 2);
    // One machine, however often it checks.
    expect(after.installs).toBe(1);
    expect((await adminRelease('1.1.0')).downloads).toBeGreaterThanOrEqual(1);
  });

  describe('licence required', () => {
    it('no key, a malformed key, an unknown key → 400/403 with the reason', async () => {
      const noKey = expectApiError(
        await check({ hardware_id: machine, platform: 'linux' }),
        400,
        'validation_error',
      );
      expect(noKey.message).toContain('license_key');
      expectApiError(
        await check({ license_key: 'nope', hardware_id: machine, platform: 'linux' }),
        400,
        'invalid_license_key',
      );
      expectApiError(
        await check({
          license_key: generateLicenseKey((bytes) => randomFillSync(bytes)),
          hardware_id: machine,
          platform: 'linux',
        }),
        403,
        'license_not_found',
      );
    });

    it('a machine not activated on the license → 403 machine_not_activated', async () => {
      const error = expectApiError(
        await check({ license_key: licenseKey, hardware_id: 'some-other-machine', platform: 'linux' }),
        403,
        'machine_not_activated',
      );
      expect(error.message).toContain('not activated');
    });

    it('the feed answers without the client key, but an expired or forged token → 410', async () => {
      const s = server();
      const feedUrl = await feedFor('1.0.0');
      const path = feedPath(feedUrl, 'latest-linux.yml');
      const forged = path.replace(/\.([A-Za-z0-9_-])/, (_all, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
      expectApiError(await s.api({ path: forged, withoutApiKey: true }), 410, 'update_feed_expired');
      s.clock.freeze();
      s.clock.advance((UPDATE_FEED_TTL_SECONDS + 1) * 1000);
      expectApiError(await s.api({ path, withoutApiKey: true }), 410, 'update_feed_expired');
    });

    it('a revoked license → 403 at the check, and its feed URL obtained before stops working', async () => {
      const s = server();
      const feedUrl = await feedFor('1.0.0');
      await s.app.db
        .updateTable('licenses')
        .set({ status: 'revoked', revoked_reason: 'Chargeback' })
        .where('id', '=', licenseId)
        .execute();
      try {
        expectApiError(
          await check({ license_key: licenseKey, hardware_id: machine, platform: 'linux' }),
          403,
          'license_revoked',
        );
        const release = published['linux 1.1.0']!.release;
        for (const file of ['latest-linux.yml', `files/${release.id}/${release.file_name}`]) {
          expectApiError(
            await s.api({ path: feedPath(feedUrl, file), withoutApiKey: true }),
            403,
            'license_revoked',
          );
        }
      } finally {
        await s.app.db
          .updateTable('licenses')
          .set({ status: 'active', revoked_reason: null })
          .where('id', '=', licenseId)
          .execute();
      }
    });
  });

  it('unknown channel files and files not published → 404 with a clear error', async () => {
    const s = server();
    const feedUrl = await feedFor('1.0.0');
    const notChannel = expectApiError(
      await s.api({ path: feedPath(feedUrl, 'alpha-linux.yml'), withoutApiKey: true }),
      404,
      'update_channel_not_found',
    );
    expect(notChannel.message).toContain('latest-linux.yml');
    expectApiError(
      await s.api({ path: feedPath(feedUrl, 'latest.yml'), withoutApiKey: true }),
      404,
      'no_update_available',
    );
    const release = published['linux 1.1.0']!.release;
    expectApiError(
      await s.api({ path: feedPath(feedUrl, `files/${release.id}/other.AppImage`), withoutApiKey: true }),
      404,
      'release_not_found',
    );
  });
});
