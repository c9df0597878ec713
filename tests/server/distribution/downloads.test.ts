import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishRelease, releaseFilePath } from '../../../src/server/distribution/releases.js';
import { DOWNLOAD_LINK_TTL_SECONDS } from '../../../src/server/distribution/signed-links.js';
import type { ReleaseRow } from '../../../src/server/platform/db/tables.js';
import {
  type DownloadPlatform,
  downloadResponseSchema,
  type LicenseRefusal,
} from '../../../src/shared/api/licenses.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { activateBase, type SignedIn, signInAgain, signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';

const PUBLIC_API = 'http://portal.test/api/v1';

/** The path below /api/v1 of a signed link (the links name the configured PUBLIC_URL). */
function linkPath(url: string): string {
  expect(url.startsWith(`${PUBLIC_API}/downloads/`), url).toBe(true);
  return url.slice(PUBLIC_API.length);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describeOnEveryDatabase('desktop downloads', (server) => {
  let workDir: string;
  let owner: SignedIn;
  let licenseId: string;

  beforeAll(async () => {
    const s = server();
    workDir = await mkdtemp(join(tmpdir(), 'portal-installers-'));
    owner = await signInAsUser(s, 'downloader');
    licenseId = (await activateBase(s, owner, 'download-machine-1')).license_id;
  });
  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  /** Publishes an installer of `bytes` random bytes, as `cli publish-release` does. */
  async function publish(
    platform: DownloadPlatform,
    version: string,
    fileName: string,
    size: number,
    publishedAt: Date,
  ): Promise<{ release: ReleaseRow; bytes: Buffer }> {
    const s = server();
    const bytes = randomBytes(size);
    const directory = join(workDir, platform, version);
    await mkdir(directory, { recursive: true });
    const file = join(directory, fileName);
    await writeFile(file, bytes);
    const release = await publishRelease(s.app.db, s.config.licensing.releasesDir, {
      platform,
      version,
      file,
      now: publishedAt,
    });
    return { release, bytes };
  }

  const links = (who: SignedIn, query = '', id = licenseId) =>
    server().api({ path: `/licenses/${id}/download${query}`, token: who.token });

  const downloadWithoutCredentials = (url: string) =>
    server().api({ path: linkPath(url), withoutApiKey: true });

  it('before any release is published → 404 release_not_found saying so', async () => {
    const error = expectApiError(await links(owner), 404, 'release_not_found');
    expect(error.message).toBe('No desktop release has been published yet');
  });

  describe('with published releases', () => {
    let linux: { release: ReleaseRow; bytes: Buffer };
    let windows: { release: ReleaseRow; bytes: Buffer };

    beforeAll(async () => {
      const now = server().clock.now();
      const earlier = new Date(now.getTime() - 86_400_000);
      await publish('linux', '1.1.0', 'assistant-1.1.0.AppImage', 1024, earlier);
      linux = await publish('linux', '1.2.0', 'assistant-1.2.0.AppImage', 300_000, now);
      windows = await publish('windows', '1.2.0', 'Assistant Setup 1.2.0.exe', 2048, now);
    });

    it('publishRelease stores the installer under <platform>/<version>/<name> with its size and checksum', async () => {
      const s = server();
      const path = releaseFilePath(s.config.licensing.releasesDir, linux.release);
      expect(path).toBe(join(s.config.licensing.releasesDir, 'linux', '1.2.0', 'assistant-1.2.0.AppImage'));
      expect(await readFile(path)).toEqual(linux.bytes);
      expect(linux.release).toMatchObject({ size_bytes: 300_000, sha256: sha256(linux.bytes) });
      expect(await readdir(join(s.config.licensing.releasesDir, 'linux', '1.2.0'))).toEqual([
        'assistant-1.2.0.AppImage',
      ]);
      const row = await s.app.db
        .selectFrom('releases')
        .selectAll()
        .where('id', '=', linux.release.id)
        .executeTakeFirst();
      expect(row).toEqual(linux.release);
    });

    it('the owner of an active license gets the newest release of each platform with size, sha256 and a signed link', async () => {
      const s = server();
      const requestedAt = Math.floor(s.clock.now().getTime() / 1000);
      const response = await links(owner);
      expect(response.statusCode, response.body).toBe(200);
      const body = downloadResponseSchema.parse(response.json());
      expect(body.license_id).toBe(licenseId);
      expect(body.releases.map((release) => [release.platform, release.version])).toEqual([
        ['linux', '1.2.0'],
        ['windows', '1.2.0'],
      ]);
      const [first] = body.releases;
      expect(first).toMatchObject({
        file_name: 'assistant-1.2.0.AppImage',
        size_bytes: 300_000,
        sha256: sha256(linux.bytes),
        published_at: linux.release.published_at,
      });
      for (const release of body.releases) {
        // The router refuses path parameters over 100 characters (414), so the token must fit.
        expect(linkPath(release.url).length - '/downloads/'.length).toBeLessThanOrEqual(100);
        const expiresAt = Date.parse(release.url_expires_at) / 1000;
        expect(expiresAt - requestedAt).toBeGreaterThanOrEqual(DOWNLOAD_LINK_TTL_SECONDS);
        expect(expiresAt - requestedAt).toBeLessThanOrEqual(DOWNLOAD_LINK_TTL_SECONDS + 2);
      }
    });

    it('?platform=linux gives only that platform', async () => {
      const response = await links(owner, '?platform=linux');
      expect(response.statusCode, response.body).toBe(200);
      const body = downloadResponseSchema.parse(response.json());
      expect(body.releases.map((release) => `${release.platform} ${release.version}`)).toEqual([
        'linux 1.2.0',
      ]);
    });

    it('the link downloads the exact bytes without the API key or a bearer token', async () => {
      const url =
        downloadResponseSchema.parse((await links(owner, '?platform=linux')).json()).releases[0]?.url ?? '';
      const response = await downloadWithoutCredentials(url);
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      expect(response.rawPayload.equals(linux.bytes)).toBe(true);
      expect(sha256(response.rawPayload)).toBe(sha256(linux.bytes));
      expect(response.headers['content-length']).toBe('300000');
      expect(response.headers['content-type']).toBe('application/octet-stream');
      expect(response.headers['content-disposition']).toBe('attachment; filename="assistant-1.2.0.AppImage"');
      expect(response.headers['x-checksum-sha256']).toBe(sha256(linux.bytes));
      expect(response.headers['cache-control']).toBe('private, no-store');
    });

    it('the link works over a real socket, as a browser follows it', async () => {
      const s = server();
      const base = await s.listen();
      const body = downloadResponseSchema.parse((await links(owner)).json());
      for (const [release, expected] of [
        [body.releases[0], linux.bytes],
        [body.releases[1], windows.bytes],
      ] as const) {
        const response = await fetch(`${base}/api/v1${linkPath(release?.url ?? '')}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-length')).toBe(String(expected.length));
        expect(Buffer.from(await response.arrayBuffer()).equals(expected)).toBe(true);
      }
      const windowsName = (
        await fetch(`${base}/api/v1${linkPath(body.releases[1]?.url ?? '')}`, { method: 'HEAD' })
      ).headers.get('content-disposition');
      expect(windowsName).toBe('attachment; filename="Assistant Setup 1.2.0.exe"');
    });

    it('a tampered or made-up token → 410 download_link_expired', async () => {
      const url =
        downloadResponseSchema.parse((await links(owner, '?platform=linux')).json()).releases[0]?.url ?? '';
      const token = url.slice(url.lastIndexOf('/') + 1);
      const [payload = '', signature = ''] = token.split('.');
      const flip = (text: string, at: number) =>
        `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
      // The same grant with a later expiry, under the original signature.
      const extended = Buffer.from(payload, 'base64url');
      extended.writeUInt32BE(extended.readUInt32BE(extended.length - 4) + 86_400 * 365, extended.length - 4);
      const forgedPayload = extended.toString('base64url');
      expect(forgedPayload).not.toBe(payload);
      for (const bad of [
        `${flip(payload, 3)}.${signature}`,
        `${payload}.${flip(signature, 5)}`,
        `${forgedPayload}.${signature}`,
        payload,
        `${token}.extra`,
        'not-a-token',
      ]) {
        const error = expectApiError(
          await server().api({ path: `/downloads/${bad}`, withoutApiKey: true }),
          410,
          'download_link_expired',
        );
        expect(error.message).toBe(
          'This download link has expired. Start the download again from your license page.',
        );
      }
    });

    it('no release for the platform asked for → 404 with a clear message', async () => {
      const error = expectApiError(await links(owner, '?platform=macos'), 404, 'release_not_found');
      expect(error.message).toBe('No desktop release has been published for macos yet');
    });

    it('an unknown platform or a malformed license id → 400', async () => {
      const error = expectApiError(await links(owner, '?platform=android'), 400, 'validation_error');
      expect(error.message).toContain('platform');
      expectApiError(await links(owner, '', 'not-a-uuid'), 400, 'validation_error');
    });

    it('without a token → 401; another user’s license → 404, like one that does not exist', async () => {
      expectApiError(
        await server().api({ path: `/licenses/${licenseId}/download` }),
        401,
        'not_authenticated',
      );
      const stranger = await signInAsUser(server(), 'stranger');
      expectApiError(await links(stranger), 404, 'license_not_found');
      expectApiError(
        await links(owner, '', '00000000-0000-4000-8000-000000000000'),
        404,
        'license_not_found',
      );
    });

    it.each([
      {
        state: 'revoked',
        change: { status: 'revoked', revoked_reason: 'Chargeback', revoked_at: new Date().toISOString() },
        code: 'license_revoked',
        says: 'This license was revoked: Chargeback.',
      },
      { state: 'suspended', change: { status: 'suspended' }, code: 'license_suspended', says: 'suspended' },
      {
        state: 'expired',
        change: { expires_at: '2020-01-31T00:00:00.000Z' },
        code: 'license_expired',
        says: 'This license expired on 31 January 2020',
      },
    ] as const)(
      'a $state license → 403 with the status fields and no links',
      async ({ state, change, code, says }) => {
        const s = server();
        const holder = await signInAsUser(s, state);
        const id = (await activateBase(s, holder, `${state}-machine-1`)).license_id;
        expect((await links(holder, '', id)).statusCode).toBe(200);
        await s.app.db.updateTable('licenses').set(change).where('id', '=', id).execute();

        const response = await links(holder, '', id);
        const error = expectApiError(response, 403, code);
        expect(error.message).toContain(says);
        expect(response.json<LicenseRefusal>()).toMatchObject({
          valid: false,
          status: state,
          requires_activation: false,
        });
        expect(response.body).not.toContain('/downloads/');
      },
    );

    it('a link whose installer file has gone → 404 release_file_missing', async () => {
      const s = server();
      const gone = await publish('macos', '0.9.0', 'assistant-0.9.0.dmg', 512, s.clock.now());
      const url =
        downloadResponseSchema.parse((await links(owner, '?platform=macos')).json()).releases[0]?.url ?? '';
      await rm(releaseFilePath(s.config.licensing.releasesDir, gone.release));
      expectApiError(await downloadWithoutCredentials(url), 404, 'release_file_missing');
    });

    it('a link works for ten minutes and then → 410', async () => {
      const s = server();
      // Five seconds short of the link's end must not depend on how long the download took to start.
      s.clock.freeze();
      const url =
        downloadResponseSchema.parse((await links(owner, '?platform=linux')).json()).releases[0]?.url ?? '';
      s.clock.advance((DOWNLOAD_LINK_TTL_SECONDS - 5) * 1000);
      const stillValid = await downloadWithoutCredentials(url);
      expect(stillValid.statusCode).toBe(200);
      expect(stillValid.rawPayload.equals(linux.bytes)).toBe(true);

      s.clock.advance(6 * 1000);
      expectApiError(await downloadWithoutCredentials(url), 410, 'download_link_expired');

      // A new request gives a new link that works again.
      owner = await signInAgain(s, owner);
      const fresh = downloadResponseSchema.parse((await links(owner, '?platform=linux')).json()).releases[0]
        ?.url;
      expect(fresh).not.toBe(url);
      expect((await downloadWithoutCredentials(fresh ?? '')).statusCode).toBe(200);
      expect(existsSync(releaseFilePath(s.config.licensing.releasesDir, linux.release))).toBe(true);
    });
  });
});
