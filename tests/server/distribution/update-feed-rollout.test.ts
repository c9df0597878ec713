import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishRelease } from '../../../src/server/distribution/releases.js';
import { chooseOffer, inRollout, rolloutBucket } from '../../../src/server/distribution/rollout.js';
import type { ReleaseRow } from '../../../src/server/platform/db/tables.js';
import { downloadResponseSchema } from '../../../src/shared/api/licenses.js';
import {
  type AdminRelease,
  adminReleaseListSchema,
  adminReleaseSchema,
  updateCheckResponseSchema,
} from '../../../src/shared/api/distribution.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import {
  activateBase,
  expectValidationError,
  type SignedIn,
  signInAsAdmin,
  signInAsUser,
} from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { nodeUpdater } from './update-feed-helpers.js';

const PUBLIC_ORIGIN = 'http://portal.test';

const row = (id: string, version: string, fields: Partial<ReleaseRow> = {}): ReleaseRow => ({
  id,
  platform: 'linux',
  version,
  file_name: `assistant-${version}.AppImage`,
  size_bytes: 1,
  sha256: 'x',
  published_at: '2026-01-01T00:00:00.000Z',
  channel: 'stable',
  sha512: 'y',
  rollout_percent: 100,
  paused_at: null,
  yanked_at: null,
  release_notes: '',
  checks: 0,
  downloads: 0,
  ...fields,
});

const hardwareIds = Array.from(
  { length: 10_000 },
  (_, index) => `machine-${index.toString(36).padStart(6, '0')}`,
);

describe('staged rollout: which machines a release reaches', () => {
  const release = row('6f1c1f70-3a43-4c4e-9d0e-1b0c0f7e4a11', '2.0.0', { rollout_percent: 25 });

  it('takes in about the percentage of machines, the same ones at every check', () => {
    const inside = hardwareIds.filter((id) => inRollout(release, id));
    expect(inside.length / hardwareIds.length).toBeGreaterThan(0.235);
    expect(inside.length / hardwareIds.length).toBeLessThan(0.265);
    expect(hardwareIds.filter((id) => inRollout(release, id))).toEqual(inside);
    for (const id of hardwareIds.slice(0, 200))
      expect(rolloutBucket(release.id, id)).toBe(rolloutBucket(release.id, id));
  });

  it('raising the percentage only adds machines: none that had it loses it', () => {
    const before = new Set(hardwareIds.filter((id) => inRollout(release, id)));
    const raised = { ...release, rollout_percent: 60 };
    const after = hardwareIds.filter((id) => inRollout(raised, id));
    expect(after.length / hardwareIds.length).toBeGreaterThan(0.58);
    expect(after.length / hardwareIds.length).toBeLessThan(0.62);
    for (const id of before) expect(inRollout(raised, id)).toBe(true);
  });

  it('each release draws its own machines, so the same few are not always first', () => {
    const other = { ...release, id: '0b7e2f0c-5d1e-4f4a-8a3b-2c9d4e5f6a7b' };
    const both = hardwareIds.filter((id) => inRollout(release, id) && inRollout(other, id));
    // Independent samples of 25 % overlap on about 6.25 % of machines.
    expect(both.length / hardwareIds.length).toBeGreaterThan(0.05);
    expect(both.length / hardwareIds.length).toBeLessThan(0.075);
    expect(
      [0, 100].map((percent) => inRollout({ ...release, rollout_percent: percent }, 'any-machine')),
    ).toEqual([false, true]);
  });

  it('the offer over many machines: about the percentage get the new release, the rest the previous one', () => {
    const previous = row('11111111-1111-4111-8111-111111111111', '1.0.0');
    const offers = hardwareIds.map(
      (hardwareId) =>
        chooseOffer({ releases: [previous, release], channel: 'stable', hardwareId, current: previous })
          ?.version,
    );
    const share = offers.filter((version) => version === '2.0.0').length / offers.length;
    expect(share).toBeGreaterThan(0.235);
    expect(share).toBeLessThan(0.265);
    expect(new Set(offers)).toEqual(new Set(['1.0.0', '2.0.0']));
  });

  it('a machine on a yanked release goes back to the newest good one below, whatever its rollout', () => {
    const old = row('22222222-2222-4222-8222-222222222222', '1.0.0');
    const partial = row('33333333-3333-4333-8333-333333333333', '1.1.0', { rollout_percent: 0 });
    const yanked = row('44444444-4444-4444-8444-444444444444', '1.2.0', {
      yanked_at: '2026-01-02T00:00:00.000Z',
    });
    const releases = [old, partial, yanked];
    expect(chooseOffer({ releases, channel: 'stable', hardwareId: 'm-1', current: yanked })?.version).toBe(
      '1.1.0',
    );
    // Nothing good below: no offer (the app keeps what it runs) rather than the yanked release.
    expect(
      chooseOffer({ releases: [yanked], channel: 'stable', hardwareId: 'm-1', current: yanked }),
    ).toBeUndefined();
    // Releases without a SHA-512 (published before updates) are never offered.
    expect(
      chooseOffer({
        releases: [row(old.id, '1.0.0', { sha512: null })],
        channel: 'stable',
        hardwareId: 'm-1',
        current: undefined,
      }),
    ).toBeUndefined();
  });
});

describeOnEveryDatabase('staged rollout, pause and yank through the update feed', (server) => {
  let workDir: string;
  let origin: string;
  let admin: SignedIn;
  const machines: Record<
    'inside' | 'outside' | 'fresh',
    { key: string; hardwareId: string; licenseId: string; owner: SignedIn }
  > = {} as never;
  const releases: Record<string, ReleaseRow> = {};
  const saved = { APPIMAGE: process.env.APPIMAGE, TEST_UPDATER_ARCH: process.env.TEST_UPDATER_ARCH };

  async function publish(version: string, rolloutPercent: number, minute: number) {
    const s = server();
    const directory = join(workDir, 'artifacts', version);
    await mkdir(directory, { recursive: true });
    const file = join(directory, `assistant-${version}.AppImage`);
    await writeFile(file, randomBytes(20_000));
    releases[version] = await publishRelease(s.app.db, s.config.licensing.releasesDir, {
      platform: 'linux',
      version,
      file,
      channel: 'stable',
      rolloutPercent,
      releaseNotes: `Notes of ${version}`,
      now: new Date(Date.UTC(2026, 0, 1, 0, minute)),
    });
  }

  beforeAll(async () => {
    const s = server();
    workDir = await mkdtemp(join(tmpdir(), 'portal-rollout-'));
    process.env.APPIMAGE = join(workDir, 'running.AppImage');
    process.env.TEST_UPDATER_ARCH = 'x64';
    origin = await s.listen();
    admin = await signInAsAdmin(s);
    await publish('1.0.0', 100, 0);
    await publish('1.1.0', 100, 1);
    await publish('2.0.0', 30, 2);
    // Machines on either side of 2.0.0's 30 %: the bucket is known before they are activated.
    const inside = hardwareIds.find((id) => rolloutBucket(releases['2.0.0']!.id, id) < 30)!;
    const outside = hardwareIds.find((id) => rolloutBucket(releases['2.0.0']!.id, id) >= 30)!;
    const fresh = hardwareIds.filter((id) => rolloutBucket(releases['2.0.0']!.id, id) < 30)[1]!;
    for (const [name, hardwareId] of Object.entries({ inside, outside, fresh })) {
      const owner = await signInAsUser(s, `rollout-${name}`);
      const activated = await activateBase(s, owner, hardwareId);
      machines[name as keyof typeof machines] = {
        key: activated.license_key,
        hardwareId,
        licenseId: activated.license_id,
        owner,
      };
    }
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(workDir, { recursive: true, force: true });
  });

  async function feedFor(name: keyof typeof machines, currentVersion: string): Promise<string> {
    const { key, hardwareId } = machines[name];
    const response = await server().api({
      method: 'POST',
      path: '/updates/check',
      body: { license_key: key, hardware_id: hardwareId, platform: 'linux', current_version: currentVersion },
    });
    expect(response.statusCode, response.body).toBe(200);
    return updateCheckResponseSchema.parse(response.json()).feed_url.replace(PUBLIC_ORIGIN, origin);
  }

  /** What electron-updater, running `version` on the machine, makes of the feed. */
  async function updaterSees(name: keyof typeof machines, version: string, allowDowngrade = false) {
    const updater = await nodeUpdater({
      dir: join(workDir, 'updaters', `${name}-${version}-${Math.random().toString(36).slice(2)}`),
      version,
      feedUrl: await feedFor(name, version),
      allowDowngrade,
    });
    const result = await updater.checkForUpdates();
    return { offered: result?.updateInfo.version, available: result?.isUpdateAvailable, updater };
  }

  const update = (version: string, body: Record<string, unknown>) =>
    server().api({
      method: 'PATCH',
      path: `/admin/releases/${releases[version]!.id}`,
      token: admin.token,
      body,
    });

  async function listed(version: string): Promise<AdminRelease> {
    const response = await server().api({
      path: '/admin/releases?platform=linux&channel=stable',
      token: admin.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return adminReleaseListSchema
      .parse(response.json())
      .releases.find((release) => release.version === version)!;
  }

  it('a release at 30 %: the machine inside gets it, the one outside the previous release, at every check', async () => {
    for (let round = 0; round < 3; round++) {
      expect(await updaterSees('inside', '1.0.0')).toMatchObject({ offered: '2.0.0', available: true });
      expect(await updaterSees('outside', '1.0.0')).toMatchObject({ offered: '1.1.0', available: true });
    }
    expect((await listed('2.0.0')).state).toBe('rolling_out');
  });

  it('the rollout is raised, never lowered: lowering → 409 rollout_lowered; raised to 100 % the other machine gets it', async () => {
    const lowered = expectApiError(await update('2.0.0', { rollout_percent: 10 }), 409, 'rollout_lowered');
    expect(lowered.message).toContain('Pause');
    const raised = await update('2.0.0', { rollout_percent: 100 });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(adminReleaseSchema.parse(raised.json())).toMatchObject({ rollout_percent: 100, state: 'live' });
    expect(await updaterSees('outside', '1.1.0')).toMatchObject({ offered: '2.0.0', available: true });
  });

  it('paused: offered to no new machine, while a machine already on it stays there; resumed: offered again', async () => {
    const paused = await update('2.0.0', { paused: true });
    expect(adminReleaseSchema.parse(paused.json())).toMatchObject({ state: 'paused' });
    expect(await updaterSees('fresh', '1.0.0')).toMatchObject({ offered: '1.1.0', available: true });
    // Not offered a lower version, even by an updater that would accept one.
    expect(await updaterSees('inside', '2.0.0', true)).toMatchObject({ offered: '2.0.0', available: false });
    const resumed = await update('2.0.0', { paused: false });
    expect(adminReleaseSchema.parse(resumed.json())).toMatchObject({ state: 'live', paused_at: null });
    expect(await updaterSees('fresh', '1.0.0')).toMatchObject({ offered: '2.0.0', available: true });
  });

  it('yanked: never offered, a machine on it is offered the previous good one, the file is gone (410)', async () => {
    const yanked = await update('2.0.0', { yanked: true });
    expect(adminReleaseSchema.parse(yanked.json())).toMatchObject({ state: 'yanked' });
    expect(await updaterSees('fresh', '1.0.0')).toMatchObject({ offered: '1.1.0', available: true });

    // The app allows downgrades for this: electron-updater installs a lower version only then.
    const back = await updaterSees('inside', '2.0.0', true);
    expect(back).toMatchObject({ offered: '1.1.0', available: true });
    const [file] = await back.updater.downloadUpdate();
    expect(file).toMatch(/1\.1\.0\.AppImage$/);
    expect(await updaterSees('inside', '2.0.0', false)).toMatchObject({ offered: '1.1.0', available: false });

    const release = releases['2.0.0']!;
    const feed = new URL(await feedFor('inside', '2.0.0'));
    const direct = await server().api({
      path: `${feed.pathname.slice('/api/v1'.length)}files/${release.id}/${release.file_name}`,
      withoutApiKey: true,
    });
    expect(expectApiError(direct, 410, 'release_yanked').message).toContain('2.0.0');

    // Nor is it among the installers a license holder downloads by hand.
    const { owner, licenseId } = machines.inside;
    const links = await server().api({
      path: `/licenses/${licenseId}/download?platform=linux`,
      token: owner.token,
    });
    expect(downloadResponseSchema.parse(links.json()).releases.map((r) => r.version)).toEqual(['1.1.0']);

    expectApiError(await update('2.0.0', { paused: true }), 409, 'release_yanked');
  });

  it('checks and installs counted from the versions machines report, even when they check at once', async () => {
    const before = await listed('1.1.0');
    await Promise.all(Array.from({ length: 8 }, () => feedFor('outside', '1.1.0')));
    const after = await listed('1.1.0');
    expect(after.checks).toBe(before.checks + 8);
    expect(after.installs).toBe(before.installs);
    expect(after.downloads).toBeGreaterThanOrEqual(1);
  });

  it('release notes are edited; bad changes → 400, an unknown release → 404, a user → 403', async () => {
    const edited = await update('1.1.0', { release_notes: 'Faster start.\n\nFixed the tray icon.' });
    expect(adminReleaseSchema.parse(edited.json()).release_notes).toBe(
      'Faster start.\n\nFixed the tray icon.',
    );
    expect(expectValidationError(await update('1.1.0', {}))).toContain('at least one');
    expectValidationError(await update('1.1.0', { rollout_percent: 101 }));
    expectValidationError(await update('1.1.0', { yanked: false }));
    expectValidationError(await update('1.1.0', { release_notes: 'x'.repeat(10_001) }));
    expectApiError(
      await server().api({
        method: 'PATCH',
        path: '/admin/releases/00000000-0000-4000-8000-000000000000',
        token: admin.token,
        body: { paused: true },
      }),
      404,
      'release_not_found',
    );
    const asUser = await server().api({
      method: 'PATCH',
      path: `/admin/releases/${releases['1.1.0']!.id}`,
      token: machines.inside.owner.token,
      body: { paused: true },
    });
    expect(asUser.statusCode).toBe(403);
  });
});
