import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSigningKeysSchema, type LicenseStatusAnswer } from '../../src/shared/api/licenses.js';
import { bridgeChannels, type LicenseCheckResult, offlineValidMessage } from '../../src/shared/bridge.js';
import { LEASE_MAX_LIFETIME_SECONDS, verifyLease } from '../../src/shared/lease.js';
import { DESKTOP_API_KEY, PRODUCT_NAME } from '../../src/main/desktop-config.js';
import { createHandlers, type HandlerDeps } from '../../src/main/handlers.js';
import { HARDWARE_ID_SALT } from '../../src/main/hardware-id.js';
import { createBridgeDispatcher } from '../../src/main/ipc.js';
import { type KeytarLike, loadKeytar, openSecretStore } from '../../src/main/keychain.js';
import type { LicenseState } from '../../src/main/license-state.js';
import { noTrustedKeysLog } from '../../src/main/licensing.js';
import { type IntervalTimer, startPeriodicLicenseCheck } from '../../src/main/periodic-license-check.js';
import type { SecretStore } from '../../src/main/secret-store.js';
import { keyringMissingReason, type KeyringSession, startKeyringSession } from './support/keyring-session.js';
import { updateServiceForTests } from './support/fake-app-updater.js';
import {
  foreignKey,
  keyFingerprint,
  type LicensingServer,
  refusedUrl,
  signLease,
  startFakeLicensingServer,
  startLicensingServer,
  startSilentServer,
} from './support/licensing-server.js';

const DAY_MS = 86_400_000;
const DAY = 86_400;
const UNVERIFIED_ANSWER =
  "The license server's answer could not be verified. Check that the system clock is correct and that this app is up to date.";

/** The raw OS machine id, read the way node-machine-id reads it, to recompute the expected hash here. */
const rawMachineId = () =>
  (
    createRequire(import.meta.url)('node-machine-id') as { machineIdSync(original: boolean): string }
  ).machineIdSync(true);

const describeWithKeyring = keyringMissingReason ? describe.skip : describe;
const title = keyringMissingReason ? `[skipped: ${keyringMissingReason}]` : '';

describeWithKeyring(
  `desktop main handlers: real API server, real keychain, real machine id, real lease verifier ${title}`,
  () => {
    let keyring: KeyringSession;
    let server: LicensingServer;
    let dir: string;
    let secrets: SecretStore;
    let keytar: KeytarLike;
    /** This machine's clock, moved apart from the server's to reach expiry or roll it back. */
    let machineOffsetMs = 0;
    const machineNow = () => new Date(Date.now() + machineOffsetMs);
    let stateSequence = 0;

    beforeAll(async () => {
      keyring = await startKeyringSession();
      server = await startLicensingServer();
      dir = await mkdtemp(join(tmpdir(), 'desktop-handlers-'));
      keytar = await loadKeytar();
      secrets = await openSecretStore({
        service: PRODUCT_NAME,
        fallbackFile: join(dir, 'refresh-token.json'),
      });
    });
    afterAll(async () => {
      await server?.close();
      await keyring?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    /** Handlers as main builds them; each machine gets its own license state file unless one is given. */
    function handlersFor(overrides: Partial<HandlerDeps> = {}) {
      const deps: HandlerDeps = {
        secrets,
        serverUrl: server.baseUrl,
        apiKey: DESKTOP_API_KEY,
        requestTimeoutMs: 5000,
        licenseStatePath: join(dir, `license-state-${++stateSequence}.json`),
        // As a build pins them (MAIN_VITE_LEASE_PUBLIC_KEYS): what the real server serves.
        leasePublicKeys: server.leaseKeys,
        now: machineNow,
        app: { version: '0.1.0', platform: process.platform },
        updates: updateServiceForTests({
          serverUrl: server.baseUrl,
          licenseStatePath: join(dir, `license-state-${stateSequence}.json`),
          settingsPath: join(dir, `update-settings-${stateSequence}.json`),
        }).service,
        ...overrides,
      };
      const handlers = createHandlers(deps);
      return { handlers, dispatch: createBridgeDispatcher(handlers), statePath: deps.licenseStatePath };
    }

    const readState = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as LicenseState;

    /** A machine with an activated base license, checked online once (so a lease is stored). */
    async function licensedMachine() {
      machineOffsetMs = 0;
      const online = handlersFor();
      const hardwareId = await online.handlers[bridgeChannels.getHardwareId]();
      const license = await server.activatedLicense(hardwareId);
      await online.dispatch(bridgeChannels.setLicenseKey, [license.license_key]);
      const first = await online.handlers[bridgeChannels.checkLicenseStatus]();
      expect(first, first.message).toMatchObject({ valid: true, status: 'active' });
      return { ...online, license, hardwareId };
    }

    /**
     * The network between this machine and the server cut: requests for the server really go out,
     * to `deadUrl` (a closed port, or one that never answers) instead, so they fail the way they do
     * when the machine is offline.
     */
    const cutNetwork =
      (deadUrl: string): HandlerDeps['fetch'] =>
      (input, init) =>
        fetch(input.replace(server.baseUrl, deadUrl), init);

    /** The same machine (same server, same state file) while it is offline. */
    const offlineTwin = async (statePath: string, overrides: Partial<HandlerDeps> = {}) =>
      handlersFor({ fetch: cutNetwork(await refusedUrl()), licenseStatePath: statePath, ...overrides });

    /** A genuine answer of the real server for this key and machine (a lease issued now). */
    const genuineAnswer = async (licenseKey: string, hardwareId: string) => {
      const query = new URLSearchParams({ license_key: licenseKey, hardware_id: hardwareId });
      const response = await fetch(`${server.baseUrl}/api/v1/licensing/status?${query}`, {
        headers: { 'x-api-key': DESKTOP_API_KEY },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as LicenseStatusAnswer;
    };

    /** The state file with its lease replaced (as a user with an editor could). */
    async function writeLease(statePath: string, lease: Record<string, unknown>) {
      const state = await readState(statePath);
      await writeFile(statePath, JSON.stringify({ ...state, lease }));
    }

    describe('refresh token in the OS keychain', () => {
      it('main keeps it in gnome-keyring through keytar (service = product name, account = server URL); the bridge only says whether there is one', async () => {
        expect(secrets.kind).toBe('os-keychain');
        const { dispatch } = handlersFor();
        expect(await dispatch(bridgeChannels.hasSession, [])).toBe(false);
        // Main stores it from a sign-in answer it forwards (refresh-token-keeper.test.ts).
        await secrets.set(server.baseUrl, 'refresh-token-one');
        expect(await keytar.getPassword(PRODUCT_NAME, server.baseUrl)).toBe('refresh-token-one');
        expect(await dispatch(bridgeChannels.hasSession, [])).toBe(true);

        await dispatch(bridgeChannels.forgetSession, []);
        expect(await keytar.getPassword(PRODUCT_NAME, server.baseUrl)).toBeNull();
        expect(await dispatch(bridgeChannels.hasSession, [])).toBe(false);
      });

      it('one entry per server: another server URL does not see (or forget) this one', async () => {
        const here = handlersFor();
        const elsewhere = handlersFor({ serverUrl: 'https://other-portal.example.com' });
        await secrets.set(server.baseUrl, 'token-for-this-server');
        expect(await elsewhere.dispatch(bridgeChannels.hasSession, [])).toBe(false);
        await elsewhere.dispatch(bridgeChannels.forgetSession, []);
        expect(await keytar.getPassword(PRODUCT_NAME, server.baseUrl)).toBe('token-for-this-server');
        await here.dispatch(bridgeChannels.forgetSession, []);
      });

      it.each([
        { channel: bridgeChannels.hasSession, args: ['refresh-token'] },
        { channel: bridgeChannels.forgetSession, args: ['https://other-portal.example.com'] },
      ])(
        '$channel takes no arguments: anything else is refused and the stored token stays',
        async ({ channel, args }) => {
          const { dispatch } = handlersFor();
          await secrets.set(server.baseUrl, 'kept-token');
          await expect(dispatch(channel, args)).rejects.toMatchObject({ code: 'invalid_arguments' });
          expect(await keytar.getPassword(PRODUCT_NAME, server.baseUrl)).toBe('kept-token');
          await dispatch(bridgeChannels.forgetSession, []);
        },
      );

      it('app info reports where the token lives and which server it is for', async () => {
        const { dispatch } = handlersFor();
        expect(await dispatch(bridgeChannels.getAppInfo, [])).toEqual({
          version: '0.1.0',
          platform: process.platform,
          serverUrl: server.baseUrl,
          tokenStorage: 'os-keychain',
          // This machine's fingerprint, hashed in main, for the renderer's activations.
          components: expect.objectContaining({ machine_id: expect.stringMatching(/^[0-9a-f]{64}$/) }),
        });
      });
    });

    describe('hardware id', () => {
      it('is SHA-256 of the app salt and the real machine id: stable, 64 hex characters, never the raw id', async () => {
        const { dispatch } = handlersFor();
        const raw = rawMachineId();
        const expected = createHash('sha256').update(`${HARDWARE_ID_SALT}\0${raw}`).digest('hex');
        const id = await dispatch(bridgeChannels.getHardwareId, []);
        expect(id).toBe(expected);
        expect(id).toMatch(/^[0-9a-f]{64}$/);
        expect(id).not.toContain(raw);
        expect(id).not.toBe(createHash('sha256').update(raw).digest('hex'));
        expect(await handlersFor().dispatch(bridgeChannels.getHardwareId, [])).toBe(id);
      });
    });

    describe('license status', () => {
      it('without a stored key → not_configured, without asking the server', async () => {
        const { dispatch } = handlersFor({ fetch: cutNetwork(await refusedUrl()) });
        expect(await dispatch(bridgeChannels.getLicenseKey, [])).toBeNull();
        expect(await dispatch(bridgeChannels.checkLicenseStatus, [])).toEqual({
          valid: false,
          status: 'not_configured',
          message: 'No license configured',
          requires_activation: true,
        });
      });

      it('online: the server’s answer, and its lease (verified under the pinned keys) stored without any keys', async () => {
        const { statePath, license, hardwareId, handlers } = await licensedMachine();
        const result = await handlers[bridgeChannels.checkLicenseStatus]();
        expect(result).toMatchObject({
          valid: true,
          status: 'active',
          requires_activation: false,
          license_id: license.license_id,
        });
        expect(result.offline).toBeUndefined();
        expect(result.features?.map((feature) => feature.key).sort()).toEqual([
          'ai_chat',
          'document_analysis',
        ]);

        const state = await readState(statePath);
        expect(state).toMatchObject({ server_url: server.baseUrl, license_key: license.license_key });
        const servedKeys = leaseSigningKeysSchema.parse(
          await (
            await fetch(`${server.baseUrl}/api/v1/licensing/public-key`, {
              headers: { 'x-api-key': DESKTOP_API_KEY },
            })
          ).json(),
        );
        expect(servedKeys).toEqual(server.leaseKeys);
        expect(Object.keys(state.lease ?? {})).toEqual(['token']);
        const verification = await verifyLease(state.lease?.token ?? '', {
          keys: servedKeys,
          hardwareId,
          nowSeconds: Math.floor(Date.now() / 1000),
        });
        expect(verification).toMatchObject({
          ok: true,
          claims: { sub: license.license_id, hwid: hardwareId },
        });
      });

      it('offline (connection refused) within the lease → valid from the lease, with the grace time left', async () => {
        const { statePath, license } = await licensedMachine();
        const lease = (await readState(statePath)).lease?.token ?? '';
        const leaseExpiry = (decodeJwt(lease).exp ?? 0) as number;
        machineOffsetMs = 2 * DAY_MS;
        const offline = await offlineTwin(statePath);
        const before = Math.floor(machineNow().getTime() / 1000);
        const result = (await offline.dispatch(bridgeChannels.checkLicenseStatus, [])) as LicenseCheckResult;
        const after = Math.floor(machineNow().getTime() / 1000);
        expect(result).toMatchObject({
          valid: true,
          status: 'active',
          requires_activation: false,
          license_id: license.license_id,
          offline: { lease_expires_at: new Date(leaseExpiry * 1000).toISOString() },
        });
        const grace = result.offline?.grace_remaining_seconds ?? -1;
        expect(grace).toBeGreaterThanOrEqual(leaseExpiry - after);
        expect(grace).toBeLessThanOrEqual(leaseExpiry - before);
        expect(grace).toBeLessThan(5 * DAY + 120);
        expect(result.message).toBe(offlineValidMessage(grace));
        expect(result.message).toMatch(/^Offline — license verified from the signed lease; [45] days left$/);
        expect((await readState(statePath)).lease?.token).toBe(lease);
      });

      it('offline on a lease naming a seat of an organisation → the result names the seat too', async () => {
        const { statePath, license, hardwareId } = await licensedMachine();
        const kid = server.leaseKeys.keys[0]?.kid ?? '';
        const nowSeconds = Math.floor(Date.now() / 1000);
        const seat = { organisation_id: 'org-1', organisation_name: 'Acme Research', user_id: 'member-1' };
        await writeLease(statePath, {
          token: await signLease(server.signingKey, kid, {
            sub: license.license_id,
            hwid: hardwareId,
            kfp: keyFingerprint(license.license_key),
            iat: nowSeconds,
            exp: nowSeconds + 7 * DAY,
            seat,
          }),
        });
        machineOffsetMs = DAY_MS;
        const offline = await offlineTwin(statePath);
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
          valid: true,
          license_id: license.license_id,
          seat,
        });
      });

      it('offline on a perpetual license’s lease → the result names its update window, open or ended', async () => {
        const { statePath, license, hardwareId } = await licensedMachine();
        const kid = server.leaseKeys.keys[0]?.kid ?? '';
        const nowSeconds = Math.floor(Date.now() / 1000);
        const offline = await offlineTwin(statePath);
        machineOffsetMs = DAY_MS;
        // The machine's clock runs a day ahead: one window ends before it, one after it.
        const windows = [
          { until: new Date(Date.now() + 30 * DAY_MS).toISOString(), ended: false },
          { until: new Date(Date.now() + DAY_MS / 2).toISOString(), ended: true },
        ];
        for (const { until, ended } of windows) {
          await writeLease(statePath, {
            token: await signLease(server.signingKey, kid, {
              sub: license.license_id,
              hwid: hardwareId,
              kfp: keyFingerprint(license.license_key),
              iat: nowSeconds,
              exp: nowSeconds + 7 * DAY,
              license_expires_at: null,
              updates_until: until,
            }),
          });
          expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
            valid: true,
            updates_until: until,
            update_window_ended: ended,
          });
        }
      });

      it('offline by timeout (the server accepts and never answers) → also answered from the lease', async () => {
        const { statePath } = await licensedMachine();
        const silent = await startSilentServer();
        try {
          const stuck = handlersFor({
            fetch: cutNetwork(silent.baseUrl),
            requestTimeoutMs: 300,
            licenseStatePath: statePath,
          });
          expect(await stuck.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
            valid: true,
            offline: { grace_remaining_seconds: expect.any(Number) },
          });
        } finally {
          await silent.close();
        }
      });

      it('offline after the lease expired → not valid, says the grace period ended; the lease is kept', async () => {
        const { statePath } = await licensedMachine();
        machineOffsetMs = 7 * DAY_MS + 60_000;
        const offline = await offlineTwin(statePath);
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toEqual({
          valid: false,
          status: 'error',
          message: 'The offline grace period has ended; connect to the internet to check the license',
        });
        expect((await readState(statePath)).lease).not.toBeNull();
      });

      it('offline with the clock rolled back before the last check → refused, even though the lease has not expired', async () => {
        const { statePath } = await licensedMachine();
        // A check three days on moves the high-water mark; then the clock is set back two days.
        machineOffsetMs = 3 * DAY_MS;
        const offline = await offlineTwin(statePath);
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({ valid: true });
        machineOffsetMs = 1 * DAY_MS;
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toEqual({
          valid: false,
          status: 'error',
          message: 'The system clock is earlier than when the license was last checked; correct the clock',
        });
        machineOffsetMs = 3 * DAY_MS + 60_000;
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({ valid: true });
      });

      it('a revoked license → the server’s refusal, and the stored lease is deleted so offline does not keep it alive', async () => {
        const { statePath, license, dispatch } = await licensedMachine();
        await server.revoke(license.license_id, 'Refunded payment');
        expect(await dispatch(bridgeChannels.checkLicenseStatus, [])).toEqual({
          valid: false,
          status: 'revoked',
          message:
            'This license was revoked: Refunded payment. Contact support if you think this is a mistake.',
          requires_activation: false,
        });
        expect((await readState(statePath)).lease).toBeNull();
        const offline = await offlineTwin(statePath);
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
          valid: false,
          status: 'error',
          message: expect.stringContaining('this machine has no offline license yet'),
        });
      });

      it('a 4xx that is not a license answer (API key refused) is an error, not offline: the lease is not used or deleted', async () => {
        const { statePath } = await licensedMachine();
        const wrongKey = handlersFor({ apiKey: 'dap-unknown-client', licenseStatePath: statePath });
        const result = await wrongKey.dispatch(bridgeChannels.checkLicenseStatus, []);
        expect(result).toMatchObject({ valid: false, status: 'error' });
        expect((result as LicenseCheckResult).offline).toBeUndefined();
        expect((await readState(statePath)).lease).not.toBeNull();
      });

      it('a different license key drops the lease of the old one; null forgets the key', async () => {
        const { statePath, dispatch } = await licensedMachine();
        const other = await server.activatedLicense(
          (await dispatch(bridgeChannels.getHardwareId, [])) as string,
        );
        await dispatch(bridgeChannels.setLicenseKey, [other.license_key]);
        expect(await readState(statePath)).toMatchObject({ license_key: other.license_key, lease: null });
        await dispatch(bridgeChannels.setLicenseKey, [null]);
        expect(await dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
          status: 'not_configured',
        });
      });

      it.each([
        { bad: 'a number', args: [42] },
        { bad: 'an empty key', args: [''] },
        { bad: 'a key over 64 characters', args: ['k'.repeat(65)] },
        { bad: 'no key', args: [] },
      ])('setLicenseKey with $bad is refused and writes nothing', async ({ args }) => {
        const { dispatch, statePath } = handlersFor();
        await expect(dispatch(bridgeChannels.setLicenseKey, args)).rejects.toMatchObject({
          code: 'invalid_arguments',
        });
        await expect(readFile(statePath)).rejects.toMatchObject({ code: 'ENOENT' });
      });

      it('a damaged state file reads as empty (not configured) instead of failing', async () => {
        const { dispatch, statePath } = handlersFor();
        await writeFile(statePath, '{"version":1,"server_url":');
        expect(await dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
          status: 'not_configured',
        });
      });

      it('the periodic check (fake timer: the test runs the ticks) removes a revoked license’s lease in the background', async () => {
        const { statePath, license, handlers } = await licensedMachine();
        const ticks: (() => void)[] = [];
        const timer: IntervalTimer = {
          setInterval: (run) => ticks.push(run),
          clearInterval: () => ticks.splice(0),
        };
        const results: string[] = [];
        const checks = startPeriodicLicenseCheck({
          check: async () => {
            const result = await handlers[bridgeChannels.checkLicenseStatus]();
            results.push(result.status);
            return result;
          },
          intervalMs: 3_600_000,
          timer,
        });
        await expect.poll(() => results).toEqual(['active']);
        await server.revoke(license.license_id, 'Chargeback');
        ticks[0]?.();
        await expect.poll(() => results).toEqual(['active', 'revoked']);
        expect((await readState(statePath)).lease).toBeNull();
        checks.stop();
        expect(ticks).toHaveLength(0);
      });
    });

    describe('trust: leases count only under the keys pinned in the build', () => {
      it('a lease signed with a self-made key, written with that key into the state file → not valid offline, and dropped', async () => {
        const { statePath, license, hardwareId } = await licensedMachine();
        const nowSeconds = Math.floor(Date.now() / 1000);
        const claims = {
          sub: license.license_id,
          hwid: hardwareId,
          kfp: keyFingerprint(license.license_key),
          iat: nowSeconds,
          exp: nowSeconds + 365 * DAY,
        };
        const attacker = foreignKey('attacker-key');
        const forged = await signLease(attacker.privateKey, 'attacker-key', claims);
        // The forgery is well made: whoever trusts the attacker's key accepts it.
        expect(
          await verifyLease(forged, { keys: attacker.keys, hardwareId, nowSeconds: nowSeconds + DAY }),
        ).toMatchObject({ ok: true });

        // The file as older versions wrote it: the lease with "the keys that verify it".
        await writeLease(statePath, { token: forged, keys: attacker.keys });
        machineOffsetMs = DAY_MS;
        const offline = await offlineTwin(statePath);
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toEqual({
          valid: false,
          status: 'error',
          message: 'The offline license was signed by an unknown key; connect to the internet to renew it',
        });
        expect((await readState(statePath)).lease).toBeNull();

        // The same forgery under the server's own kid fails the signature check.
        const serverKid = server.leaseKeys.keys[0]?.kid ?? '';
        await writeLease(statePath, {
          token: await signLease(attacker.privateKey, serverKid, claims),
          keys: { keys: [{ ...attacker.keys.keys[0], kid: serverKid }] },
        });
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
          valid: false,
          message: 'The offline license has been altered; connect to the internet to check the license again',
        });
      });

      it('a fake server answering valid with a lease of its own key (and serving that key) → not valid; the stored lease stays the genuine one', async () => {
        const { statePath, license } = await licensedMachine();
        const genuineLease = (await readState(statePath)).lease?.token;
        const attacker = foreignKey('attacker-key');
        const fake = await startFakeLicensingServer({
          keys: attacker.keys,
          answer: async (licenseKey, machine) => {
            const nowSeconds = Math.floor(Date.now() / 1000);
            return {
              ...(await genuineAnswer(licenseKey, machine)),
              lease: await signLease(attacker.privateKey, 'attacker-key', {
                sub: license.license_id,
                hwid: machine,
                kfp: keyFingerprint(licenseKey),
                iat: nowSeconds,
                exp: nowSeconds + 365 * DAY,
              }),
            };
          },
        });
        try {
          const impostor = handlersFor({ fetch: cutNetwork(fake.baseUrl), licenseStatePath: statePath });
          expect(await impostor.dispatch(bridgeChannels.checkLicenseStatus, [])).toEqual({
            valid: false,
            status: 'error',
            message: UNVERIFIED_ANSWER,
          });
          // It was asked, and its keys were never fetched.
          expect(fake.requests).toEqual(['/api/v1/licensing/status']);
          expect((await readState(statePath)).lease?.token).toBe(genuineLease);
          // Offline afterwards, the genuine lease answers (7 days), not the forged year.
          const offline = await offlineTwin(statePath);
          const result = (await offline.dispatch(
            bridgeChannels.checkLicenseStatus,
            [],
          )) as LicenseCheckResult;
          expect(result).toMatchObject({ valid: true });
          expect(result.offline?.grace_remaining_seconds).toBeLessThanOrEqual(7 * DAY);
          // The real server, asked again, is believed.
          expect(
            await handlersFor({ licenseStatePath: statePath }).handlers[bridgeChannels.checkLicenseStatus](),
          ).toMatchObject({
            valid: true,
            status: 'active',
          });
        } finally {
          await fake.close();
        }
      });

      it('a fake server replaying a genuine lease of another license on this machine → not valid', async () => {
        const { statePath, hardwareId } = await licensedMachine();
        const other = await server.activatedLicense(hardwareId);
        const otherAnswer = await genuineAnswer(other.license_key, hardwareId);
        const fake = await startFakeLicensingServer({
          keys: server.leaseKeys,
          answer: async (licenseKey, machine) => ({
            ...(await genuineAnswer(licenseKey, machine)),
            lease: otherAnswer.lease,
          }),
        });
        try {
          const impostor = handlersFor({ fetch: cutNetwork(fake.baseUrl), licenseStatePath: statePath });
          expect(await impostor.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
            valid: false,
            status: 'error',
            message: UNVERIFIED_ANSWER,
          });
        } finally {
          await fake.close();
        }
      });

      it('a lease living longer than 90 days, even signed by the server’s key → refused offline and online; 90 days exactly is accepted', async () => {
        const { statePath, license, hardwareId } = await licensedMachine();
        const kid = server.leaseKeys.keys[0]?.kid ?? '';
        const nowSeconds = Math.floor(Date.now() / 1000);
        const leaseFor = (lifetime: number) =>
          signLease(server.signingKey, kid, {
            sub: license.license_id,
            hwid: hardwareId,
            kfp: keyFingerprint(license.license_key),
            iat: nowSeconds,
            exp: nowSeconds + lifetime,
          });
        expect(LEASE_MAX_LIFETIME_SECONDS).toBe(90 * DAY);
        const offline = await offlineTwin(statePath);

        await writeLease(statePath, { token: await leaseFor(90 * DAY) });
        const accepted = (await offline.dispatch(
          bridgeChannels.checkLicenseStatus,
          [],
        )) as LicenseCheckResult;
        expect(accepted).toMatchObject({ valid: true });
        expect(accepted.offline?.grace_remaining_seconds).toBeGreaterThan(89 * DAY);

        await writeLease(statePath, { token: await leaseFor(90 * DAY + 1) });
        expect(await offline.dispatch(bridgeChannels.checkLicenseStatus, [])).toEqual({
          valid: false,
          status: 'error',
          message:
            'The offline license claims a longer validity than any license server issues; connect to the internet to check the license again',
        });
        expect((await readState(statePath)).lease).toBeNull();

        const longLease = await leaseFor(365 * DAY);
        const fake = await startFakeLicensingServer({
          keys: server.leaseKeys,
          answer: async (licenseKey, machine) => ({
            ...(await genuineAnswer(licenseKey, machine)),
            lease: longLease,
          }),
        });
        try {
          const impostor = handlersFor({ fetch: cutNetwork(fake.baseUrl), licenseStatePath: statePath });
          expect(await impostor.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
            valid: false,
            message: UNVERIFIED_ANSWER,
          });
          expect((await readState(statePath)).lease).toBeNull();
        } finally {
          await fake.close();
        }
      });

      it('a machine clock an hour behind the server’s still accepts the server’s fresh lease online', async () => {
        const { handlers, statePath } = await licensedMachine();
        machineOffsetMs = -3600_000;
        expect(await handlers[bridgeChannels.checkLicenseStatus]()).toMatchObject({
          valid: true,
          status: 'active',
        });
        expect((await readState(statePath)).lease).not.toBeNull();
      });

      it('a build without pinned keys: said once in the log, online answers as before, offline explains that offline use is unavailable', async () => {
        const { statePath } = await licensedMachine();
        expect((await readState(statePath)).lease).not.toBeNull();
        const logged: string[] = [];
        const unpinned = handlersFor({
          leasePublicKeys: undefined,
          licenseStatePath: statePath,
          log: (message) => logged.push(message),
        });
        expect(await unpinned.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
          valid: true,
          status: 'active',
        });
        expect(await unpinned.dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({ valid: true });
        expect(logged).toEqual([noTrustedKeysLog]);
        expect(noTrustedKeysLog).toContain('offline use is off');

        // A lease is on file (from a check with keys), but nothing here can tell whose key signed it.
        const offline = await offlineTwin(statePath, { leasePublicKeys: undefined });
        const result = await offline.dispatch(bridgeChannels.checkLicenseStatus, []);
        expect(result).toEqual({
          valid: false,
          status: 'error',
          message: expect.stringMatching(
            /^Offline: the license server could not be reached \(ECONNREFUSED\)\. Offline use needs the license server's signing keys built into this app, and this build has none; connect to the internet to check the license\.$/,
          ),
        });
      });
    });

    it('every channel of the contract has a handler', () => {
      const { handlers } = handlersFor();
      expect(Object.keys(handlers).sort()).toEqual(Object.values(bridgeChannels).sort());
    });
  },
);
