import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { deriveHardwareId } from '../../src/main/hardware-id.js';
import { createHandlers } from '../../src/main/handlers.js';
import { createBridgeDispatcher } from '../../src/main/ipc.js';
import type { FetchLike } from '../../src/main/licensing-api.js';
import { createMemorySecretStore } from '../../src/main/secret-store.js';
import { createUsageApi } from '../../src/main/usage-api.js';
import { createUsageQueue, type QueuedEvent } from '../../src/main/usage-queue.js';
import type { TokenResponse } from '../../src/shared/api/auth.js';
import {
  bridgeChannels,
  type LicenseCheckResult,
  type UsageLeft,
  type UsageReportResult,
} from '../../src/shared/bridge.js';
import type { LeaseClaims } from '../../src/shared/lease.js';
import { STRONG_PASSWORD, WEB_API_KEY } from '../support/test-server.js';
import { updateServiceForTests } from './support/fake-app-updater.js';
import { type LicensingServer, refusedUrl, startLicensingServer } from './support/licensing-server.js';

describe('desktop usage queue: real API server over HTTP, real queue file', () => {
  let server: LicensingServer;
  let dir: string;
  let unreachable: string;
  let sequence = 0;

  beforeAll(async () => {
    server = await startLicensingServer();
    dir = await mkdtemp(join(tmpdir(), 'desktop-usage-'));
    unreachable = await refusedUrl();
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A user with the free Base license (AI chat 100 a month) active on `hardwareId`, signed in. */
  async function signedInWithBase(hardwareId: string) {
    const activation = await server.activatedLicense(hardwareId);
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/json',
      headers: { 'x-api-key': WEB_API_KEY },
      payload: { email: activation.email, password: STRONG_PASSWORD },
    });
    return { activation, accessToken: login.json<TokenResponse>().access_token };
  }

  const counterOf = async (licenseId: string) =>
    (
      await server.app.db
        .selectFrom('usage_counters')
        .innerJoin('features', 'features.id', 'usage_counters.feature_id')
        .select('usage_counters.total')
        .where('usage_counters.license_id', '=', licenseId)
        .where('features.key', '=', 'ai_chat')
        .executeTakeFirst()
    )?.total ?? 0;

  const event = (id: string, amount = 1): QueuedEvent => ({
    id,
    feature: 'ai_chat',
    amount,
    occurred_at: server.clock.now().toISOString(),
  });

  describe('the queue file', () => {
    it('a crash mid-write leaves the queue as it was; a damaged file reads as empty, never throws', async () => {
      const path = join(dir, `queue-${++sequence}.json`);
      const queue = createUsageQueue(path, server.baseUrl);
      await queue.update((s) => ({ ...s, events: [event('kept-1'), event('kept-2')] }));
      const before = await readFile(path, 'utf8');
      // A crash while writing: the sibling the next state was going to, cut short, never renamed.
      await writeFile(`${path}.${randomBytes(6).toString('hex')}.tmp`, before.slice(0, 40));
      expect((await queue.read()).events.map((queued) => queued.id)).toEqual(['kept-1', 'kept-2']);
      // A file cut short by something else: read as empty, and written whole again on the next change.
      await writeFile(path, before.slice(0, 40));
      expect((await queue.read()).events).toEqual([]);
      await queue.update((s) => ({ ...s, events: [event('after')] }));
      expect((await queue.read()).events.map((queued) => queued.id)).toEqual(['after']);
    });

    it('another server’s queue means nothing here', async () => {
      const path = join(dir, `queue-${++sequence}.json`);
      await createUsageQueue(path, 'http://other.test').update((s) => ({ ...s, events: [event('theirs')] }));
      expect((await createUsageQueue(path, server.baseUrl).read()).events).toEqual([]);
    });
  });

  describe('uploads', () => {
    it('keeps events the server did not answer, sends them again with the same ids, and a replay counts nothing', async () => {
      const hardwareId = `hw-usage-${randomBytes(6).toString('hex')}`;
      const { activation, accessToken } = await signedInWithBase(hardwareId);
      const queue = createUsageQueue(join(dir, `queue-${++sequence}.json`), server.baseUrl);
      const batch = { licenseId: activation.license_id, hardwareId, accessToken };
      const events = Array.from({ length: 5 }, (_, index) =>
        event(`up-${index}-${randomBytes(4).toString('hex')}`),
      );
      await queue.update((s) => ({ ...s, events }));

      const offline = createUsageApi({ serverUrl: unreachable, apiKey: DESKTOP_API_KEY, timeoutMs: 2000 });
      const failed = await queue.upload((queued) => offline.send(batch, queued));
      expect(failed.stopped).toMatch(/could not be reached/);
      expect((await queue.read()).events).toHaveLength(5);

      const online = createUsageApi({ serverUrl: server.baseUrl, apiKey: DESKTOP_API_KEY, timeoutMs: 5000 });
      const sent = await queue.upload((queued) => online.send(batch, queued));
      expect(sent.stopped).toBeUndefined();
      expect([...sent.results.values()].map((result) => result.outcome)).toEqual(Array(5).fill('counted'));
      expect((await queue.read()).events).toEqual([]);
      expect(await counterOf(activation.license_id)).toBe(5);

      // The answer was lost (a crash before the queue was written): the same events go again.
      await queue.update((s) => ({ ...s, events }));
      const again = await queue.upload((queued) => online.send(batch, queued));
      expect([...again.results.values()].map((result) => result.outcome)).toEqual(Array(5).fill('duplicate'));
      expect((await queue.read()).events).toEqual([]);
      expect(await counterOf(activation.license_id)).toBe(5);
    });

    it('a batch naming a machine not activated on the license stays queued with the server’s reason', async () => {
      const { activation, accessToken } = await signedInWithBase(
        `hw-usage-${randomBytes(6).toString('hex')}`,
      );
      const queue = createUsageQueue(join(dir, `queue-${++sequence}.json`), server.baseUrl);
      await queue.update((s) => ({ ...s, events: [event(`stranger-${randomBytes(4).toString('hex')}`)] }));
      const online = createUsageApi({ serverUrl: server.baseUrl, apiKey: DESKTOP_API_KEY, timeoutMs: 5000 });
      const outcome = await queue.upload((queued) =>
        online.send({ licenseId: activation.license_id, hardwareId: 'hw-not-this-one', accessToken }, queued),
      );
      expect(outcome.stopped).toMatch(/404: No activated machine hw-not-this-one/);
      expect((await queue.read()).events).toHaveLength(1);
    });
  });

  describe('the bridge: usage.report and usage.left', () => {
    it('online the server decides; offline the lease’s reservation less what was used under it; back online it reconciles', async () => {
      const rawMachineId = `machine-${randomBytes(6).toString('hex')}`;
      const hardwareId = deriveHardwareId(rawMachineId);
      const { activation, accessToken } = await signedInWithBase(hardwareId);
      const statePath = join(dir, `state-${++sequence}.json`);
      let online = true;
      const fetchThrough: FetchLike = (input, init) =>
        fetch(online ? input : input.replace(server.baseUrl, unreachable), init);
      const handlers = createHandlers({
        secrets: createMemorySecretStore(),
        machineId: () => rawMachineId,
        serverUrl: server.baseUrl,
        apiKey: DESKTOP_API_KEY,
        fetch: fetchThrough,
        requestTimeoutMs: 2000,
        licenseStatePath: statePath,
        leasePublicKeys: server.leaseKeys,
        now: () => server.clock.now(),
        app: { version: '1.4.2', platform: 'linux' },
        updates: updateServiceForTests({
          serverUrl: server.baseUrl,
          licenseStatePath: statePath,
          settingsPath: join(dir, `update-settings-${sequence}.json`),
        }).service,
        signIns: { onSignIn: () => undefined, latestAccessToken: () => accessToken },
      });
      const dispatch = createBridgeDispatcher(handlers);
      const call = (channel: string, ...args: unknown[]) => dispatch(channel, args);
      const report = async (amount: number) =>
        (await call(bridgeChannels.reportUsage, 'ai_chat', amount)) as UsageReportResult;
      const left = async () =>
        ((await call(bridgeChannels.usageLeft)) as UsageLeft).features.find((item) => item.key === 'ai_chat');

      await call(bridgeChannels.setLicenseKey, activation.license_key);
      const checked = (await call(bridgeChannels.checkLicenseStatus)) as LicenseCheckResult;
      expect(checked.valid).toBe(true);
      const state = JSON.parse(await readFile(statePath, 'utf8')) as { lease: { token: string } };
      expect((decodeJwt(state.lease.token) as unknown as LeaseClaims).usage).toEqual([
        expect.objectContaining({ key: 'ai_chat', reserved: 10 }),
        expect.objectContaining({ key: 'document_analysis', reserved: 1 }),
      ]);

      // Online: counted by the server at once.
      expect(await report(3)).toMatchObject({ allowed: true, source: 'server' });
      expect(await counterOf(activation.license_id)).toBe(3);
      expect(await call(bridgeChannels.usageLeft)).toMatchObject({ source: 'server' });
      expect(await left()).toMatchObject({ left: 97, queued: 0 });

      // Reading what is left checked the license: a new lease, reserving 10 again (the 3 are counted).
      // Offline: 5 of its 10 are used, then 6 more are refused, saying why.
      online = false;
      expect(await report(5)).toMatchObject({ allowed: true, source: 'reservation', left: 5 });
      const refused = await report(6);
      expect(refused).toMatchObject({ allowed: false, source: 'reservation', id: null });
      expect(refused.message).toMatch(
        /5 of this machine's offline allowance of ai_chat left, fewer than the 6/,
      );
      expect(await call(bridgeChannels.usageLeft)).toMatchObject({ source: 'reservation' });
      expect(await left()).toMatchObject({ left: 5, queued: 5 });
      expect(await counterOf(activation.license_id)).toBe(3);

      // Back online: the next check sends the 5 first (counted within what the machine held),
      // then the new lease reserves from what is left.
      online = true;
      expect(((await call(bridgeChannels.checkLicenseStatus)) as LicenseCheckResult).valid).toBe(true);
      expect(await counterOf(activation.license_id)).toBe(8);
      expect(await left()).toMatchObject({ left: 92, queued: 0 });
      // Nothing refused was queued: replaying would add nothing either.
      expect(
        (
          JSON.parse(await readFile(join(dir, 'usage-queue.json'), 'utf8').catch(() => '{"events":[]}')) as {
            events: unknown[];
          }
        ).events,
      ).toEqual([]);
    });

    it('with the allowance used up, what credit packs hold is left: online, and offline from the lease', async () => {
      const rawMachineId = `machine-${randomBytes(6).toString('hex')}`;
      const hardwareId = deriveHardwareId(rawMachineId);
      const { activation, accessToken } = await signedInWithBase(hardwareId);
      const statePath = join(dir, `state-${++sequence}.json`);
      let online = true;
      const handlers = createHandlers({
        secrets: createMemorySecretStore(),
        machineId: () => rawMachineId,
        serverUrl: server.baseUrl,
        apiKey: DESKTOP_API_KEY,
        fetch: (input, init) => fetch(online ? input : input.replace(server.baseUrl, unreachable), init),
        requestTimeoutMs: 2000,
        licenseStatePath: statePath,
        leasePublicKeys: server.leaseKeys,
        now: () => server.clock.now(),
        app: { version: '1.4.2', platform: 'linux' },
        updates: updateServiceForTests({
          serverUrl: server.baseUrl,
          licenseStatePath: statePath,
          settingsPath: join(dir, `update-settings-${sequence}.json`),
        }).service,
        signIns: { onSignIn: () => undefined, latestAccessToken: () => accessToken },
      });
      const dispatch = createBridgeDispatcher(handlers);
      const call = (channel: string, ...args: unknown[]) => dispatch(channel, args);
      const left = async () =>
        ((await call(bridgeChannels.usageLeft)) as UsageLeft).features.find((item) => item.key === 'ai_chat');
      await call(bridgeChannels.setLicenseKey, activation.license_key);
      expect(((await call(bridgeChannels.checkLicenseStatus)) as LicenseCheckResult).valid).toBe(true);

      // The month's 100 are used (the machine's own 10 among them), then an administrator grants 30.
      expect((await call(bridgeChannels.reportUsage, 'ai_chat', 100)) as UsageReportResult).toMatchObject({
        allowed: true,
        source: 'server',
      });
      expect(await left()).toMatchObject({ left: 0 });
      await server.grantUnits(activation.license_id, 'ai_chat', 30);
      expect(await left()).toMatchObject({ left: 30, queued: 0 });
      expect((await call(bridgeChannels.reportUsage, 'ai_chat', 4)) as UsageReportResult).toMatchObject({
        allowed: true,
        source: 'server',
      });
      expect(await left()).toMatchObject({ left: 26 });

      // Offline: the last lease reserved 10 of the pack's units for this machine.
      online = false;
      expect(await call(bridgeChannels.usageLeft)).toMatchObject({ source: 'reservation' });
      expect(await left()).toMatchObject({ left: 10, queued: 0 });
      expect((await call(bridgeChannels.reportUsage, 'ai_chat', 7)) as UsageReportResult).toMatchObject({
        allowed: true,
        source: 'reservation',
        left: 3,
      });
      online = true;
      expect(((await call(bridgeChannels.checkLicenseStatus)) as LicenseCheckResult).valid).toBe(true);
      expect(await counterOf(activation.license_id)).toBe(111);
      expect(await left()).toMatchObject({ left: 19, queued: 0 });
    });

    it('refuses bad arguments at the bridge, and a feature the license lacks offline', async () => {
      const rawMachineId = `machine-${randomBytes(6).toString('hex')}`;
      const statePath = join(dir, `state-${++sequence}.json`);
      const handlers = createHandlers({
        secrets: createMemorySecretStore(),
        machineId: () => rawMachineId,
        serverUrl: unreachable,
        apiKey: DESKTOP_API_KEY,
        requestTimeoutMs: 2000,
        licenseStatePath: statePath,
        leasePublicKeys: server.leaseKeys,
        now: () => server.clock.now(),
        app: { version: '1.4.2', platform: 'linux' },
        updates: updateServiceForTests({
          serverUrl: unreachable,
          licenseStatePath: statePath,
          settingsPath: join(dir, `update-settings-${sequence}.json`),
        }).service,
      });
      const dispatch = createBridgeDispatcher(handlers);
      for (const args of [
        ['ai_chat', 0],
        ['ai_chat', 1.5],
        ['', 1],
        ['ai_chat', -3],
      ])
        await expect(dispatch(bridgeChannels.reportUsage, args)).rejects.toThrow();
      // No license and no lease: nothing to go by offline, said plainly; nothing queued.
      const answer = (await dispatch(bridgeChannels.reportUsage, ['ai_chat', 1])) as UsageReportResult;
      expect(answer).toMatchObject({ allowed: false, source: 'none', id: null });
      expect(answer.message).toMatch(/no valid offline license/);
      expect(await dispatch(bridgeChannels.usageLeft, [])).toMatchObject({ source: 'none', features: [] });
    });
  });
});
