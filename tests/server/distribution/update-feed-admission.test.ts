import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishRelease } from '../../../src/server/distribution/releases.js';
import { updateCheckResponseSchema } from '../../../src/shared/api/distribution.js';
import { licenseRefusalSchema } from '../../../src/shared/api/licenses.js';
import type { FingerprintComponents } from '../../../src/shared/fingerprint.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import {
  componentsOf,
  activate,
  createPlan,
  DAY_MS,
  deactivate,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
} from '../helpers/license-helpers.js';

// The update feed accepts the machines the license check accepts: a floating seat held now (or
// borrowed), and a machine known by its fingerprint components (a reinstalled one under its new
// hardware id, a cloned one as its own machine). All over a real socket, as the desktop calls it.

const MINUTE_MS = 60_000;
const hash = (text: string) => createHash('sha256').update(text).digest('hex');

interface Answer {
  status: number;
  body: unknown;
}

async function post(base: string, path: string, body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${base}/api/v1${path}`, {
    method: 'POST',
    headers: { 'x-api-key': WEB_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

const updateCheck = (base: string, key: string, hw: string, components?: FingerprintComponents) =>
  post(base, '/updates/check', {
    license_key: key,
    hardware_id: hw,
    platform: 'linux',
    ...(components ? { components } : {}),
  });

/** The feed URL of an accepted check, pointed at the listening server. */
function feedOf(base: string, answer: Answer): string {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const { feed_url } = updateCheckResponseSchema.parse(answer.body);
  return feed_url.replace(new URL(feed_url).origin, base);
}

/** electron-updater's first request: the channel file, with no key but the token in the path. */
async function channelFile(feedUrl: string): Promise<Answer & { text: string }> {
  const response = await fetch(`${feedUrl}latest-linux.yml`);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** The refusal an unactivated machine gets: the feed's own wording, the license check's code. */
function expectUnactivated(answer: Answer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  return licenseRefusalSchema.parse(answer.body);
}

describeOnEveryDatabase(
  'the update feed accepts the machines the license check accepts',
  (server) => {
    let workDir: string;
    const listening = new WeakMap<TestServer, Promise<string>>();
    const baseOf = (s: TestServer) => {
      const base = listening.get(s) ?? s.listen();
      listening.set(s, base);
      return base;
    };

    beforeAll(async () => {
      workDir = await mkdtemp(join(tmpdir(), 'portal-feed-admission-'));
      const s = server();
      const file = join(workDir, 'assistant-9.0.0.AppImage');
      await mkdir(workDir, { recursive: true });
      await writeFile(file, Buffer.from('an AppImage'));
      await publishRelease(s.app.db, s.config.licensing.releasesDir, {
        platform: 'linux',
        version: '9.0.0',
        file,
        channel: 'stable',
        rolloutPercent: 100,
        releaseNotes: '',
        now: new Date(Date.UTC(2026, 0, 1)),
      });
    });
    afterAll(async () => {
      await rm(workDir, { recursive: true, force: true });
    });

    async function floatingLicense(s: TestServer) {
      const owner = await member(s);
      const plan = await createPlan(s, {
        price: 99_900,
        interval: 'month',
        floating: { seats: 2, leaseMinutes: 15, borrowDays: 5 },
      });
      return giveLicense(s, owner, plan);
    }

    it('a machine holding a floating seat gets its feed; once the seat lapses or is released it is refused as an unactivated machine is', async () => {
      const s = server();
      s.clock.freeze();
      const base = await baseOf(s);
      const license = await floatingLicense(s);
      const key = license.license_key;
      const [a, stranger] = [machine('feed-float'), machine('feed-stranger')];

      // What the feed says to a machine of the license that is neither activated nor seated.
      const unactivated = expectUnactivated(await updateCheck(base, key, stranger));
      expect(unactivated).toMatchObject({ code: 'machine_not_activated' });
      expectUnactivated(await updateCheck(base, key, a));

      // Checked out: the check answers a feed, and the feed serves the channel file.
      expect(
        (await post(base, '/licensing/floating/checkout', { license_key: key, hardware_id: a })).status,
      ).toBe(201);
      const feed = feedOf(base, await updateCheck(base, key, a));
      const served = await channelFile(feed);
      expect(served.status, served.text).toBe(200);
      expect(served.text).toMatch(/^version: 9\.0\.0$/m);

      // The seat's heartbeats stop: one millisecond before its end the feed serves, at its end
      // both the feed and a new check refuse it exactly as they refuse an unactivated machine.
      s.clock.advance(15 * MINUTE_MS - 1);
      expect((await channelFile(feed)).status).toBe(200);
      s.clock.advance(1);
      expect(expectUnactivated(await channelFile(feed))).toEqual(unactivated);
      expect(expectUnactivated(await updateCheck(base, key, a))).toEqual(unactivated);

      // Checked out again, then released on quit: refused from the release on.
      expect(
        (await post(base, '/licensing/floating/checkout', { license_key: key, hardware_id: a })).status,
      ).toBe(201);
      const again = feedOf(base, await updateCheck(base, key, a));
      expect((await channelFile(again)).status).toBe(200);
      expect(
        (await post(base, '/licensing/floating/release', { license_key: key, hardware_id: a })).status,
      ).toBe(200);
      expect(expectUnactivated(await channelFile(again))).toEqual(unactivated);
      expect(expectUnactivated(await updateCheck(base, key, a))).toEqual(unactivated);
    });

    it('a borrowed seat gets the feed until its borrow ends, then is refused', async () => {
      const s = server();
      s.clock.freeze();
      const base = await baseOf(s);
      const license = await floatingLicense(s);
      const key = license.license_key;
      const trip = machine('feed-trip');
      const unactivated = expectUnactivated(await updateCheck(base, key, trip));

      const borrowed = await post(base, '/licensing/floating/borrow', {
        license_key: key,
        hardware_id: trip,
        days: 2,
      });
      expect(borrowed.status, JSON.stringify(borrowed.body)).toBe(201);
      // Offline without a heartbeat until a minute before the borrow ends: still its seat, so
      // still its updates; at its end the feed it was given refuses it.
      s.clock.advance(2 * DAY_MS - MINUTE_MS);
      const feed = feedOf(base, await updateCheck(base, key, trip));
      expect((await channelFile(feed)).status).toBe(200);
      s.clock.advance(MINUTE_MS);
      expect(expectUnactivated(await channelFile(feed))).toEqual(unactivated);
      expect(expectUnactivated(await updateCheck(base, key, trip))).toEqual(unactivated);
    });

    it('a machine is known by its components: a reinstall keeps its feed under a new hardware id, a clone is its own machine', async () => {
      const s = server();
      const base = await baseOf(s);
      const owner = await member(s);
      const license = await giveLicense(s, owner, await createPlan(s, { seats: 3, fingerprintThreshold: 3 }));
      const key = license.license_key;
      const hw = machine('feed-original');
      const original = componentsOf('feed-original');
      const first = expectActivation(await activate(s, owner.token, key, hw, { components: original }), 201);

      // Reinstalled: a new machine id (so a new hardware id), the other parts alike.
      const reinstalled = componentsOf('feed-original', {
        machine_id: hash('reinstalled'),
        os_install: hash('new os'),
      });
      const newHw = machine('feed-reinstalled');
      const reinstalledFeed = feedOf(base, await updateCheck(base, key, newHw, reinstalled));
      expect((await channelFile(reinstalledFeed)).status).toBe(200);
      // Without its components the new hardware id is a stranger, as the license check says.
      expectUnactivated(await updateCheck(base, key, newHw));

      // A clone: the original's machine id, other parts. Before it has its own activation it is
      // refused, though its hardware id is known; activated, it is its own machine.
      const clone = componentsOf('feed-clone', { machine_id: original.machine_id });
      expectUnactivated(await updateCheck(base, key, hw, clone));
      const second = expectActivation(await activate(s, owner.token, key, hw, { components: clone }), 201);
      expect(second.activation.activation_id).not.toBe(first.activation.activation_id);
      const cloneFeed = feedOf(base, await updateCheck(base, key, hw, clone));
      expect((await channelFile(cloneFeed)).status).toBe(200);

      // The original deactivated: its feed and its check are refused; the clone's go on.
      const originalFeed = feedOf(base, await updateCheck(base, key, hw, original));
      const off = await deactivate(s, owner.token, license.id, hw);
      expect(off.statusCode, off.body).toBe(200);
      const refused = expectUnactivated(await channelFile(originalFeed));
      expect(refused.code).toBe('machine_deactivated');
      expect(expectUnactivated(await updateCheck(base, key, hw, original)).code).toBe('machine_deactivated');
      expect((await channelFile(cloneFeed)).status).toBe(200);
      expect(feedOf(base, await updateCheck(base, key, hw, clone))).toBeTruthy();
    });
  },
  licenseSuiteOptions,
);
