import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { createHandlers } from '../../src/main/handlers.js';
import { createBridgeDispatcher } from '../../src/main/ipc.js';
import { createLicenseStateFile } from '../../src/main/license-state.js';
import { createMemorySecretStore } from '../../src/main/secret-store.js';
import { bridgeChannels } from '../../src/shared/bridge.js';
import { createLicenseChecker } from '../../src/main/licensing.js';
import { createOfflineActivation, withLicenseFile } from '../../src/main/offline-activation.js';
import { leaseSigningKeysSchema } from '../../src/shared/api/licenses.js';
import { type OfflineLicenseFile } from '../../src/shared/offline-files.js';
import { describeOnEveryDatabase, type TestServer } from '../support/test-server.js';
import { giveLicense, licenseSuiteOptions, member } from '../server/helpers/license-helpers.js';
import {
  expectLicenseFile,
  type OfflineMachine,
  offlineMachine,
  uploadProof,
  uploadRequest,
} from '../server/helpers/offline-activation-helpers.js';
import { updateServiceForTests } from './support/fake-app-updater.js';
import { foreignKey, keyFingerprint, signLease } from './support/licensing-server.js';

const DAY_MS = 86_400_000;

/** A machine without network whose request the owner uploaded: the license file it got back. */
async function licensed(s: TestServer, lab?: OfflineMachine) {
  const owner = await member(s);
  const license = await giveLicense(s, owner, 'pro-yearly');
  const machine = lab ?? (await offlineMachine(s));
  const request = await machine.offline.writeRequest(license.license_key);
  const result = expectLicenseFile(await uploadRequest(s, owner.token, request.contents), 201);
  return {
    owner,
    license,
    lab: machine,
    file: result.license_file,
    text: JSON.stringify(result.license_file),
  };
}

/** A byte of the lease changed in place: payload or signature, as a careless edit or an attacker would. */
function alteredByte(file: OfflineLicenseFile, part: 1 | 2): string {
  const pieces = file.lease.split('.');
  const target = pieces[part] as string;
  const at = Math.floor(target.length / 2);
  pieces[part] = `${target.slice(0, at)}${target[at] === 'A' ? 'B' : 'A'}${target.slice(at + 1)}`;
  return JSON.stringify({ ...file, lease: pieces.join('.') });
}

describeOnEveryDatabase(
  'desktop main: activation by file (real main-process code against the real server)',
  (server) => {
    it('imports the license file and answers the status from it offline, until it expires', async () => {
      const s = server();
      s.clock.freeze();
      const { license, lab, text } = await licensed(s);
      const imported = await lab.offline.importLicenseFile(text);
      expect(imported).toMatchObject({
        ok: true,
        result: { valid: true, status: 'active', license_id: license.id },
      });
      expect(await lab.offline.current()).toMatchObject({
        license_id: license.id,
        license_key: license.license_key,
      });

      // The app's check as main wires it: the network is never asked while a license file answers.
      const dir = await mkdtemp(join(tmpdir(), 'offline-status-'));
      const checker = createLicenseChecker({
        api: {
          status: () => Promise.reject(new Error('a machine activated by file does not ask the server')),
        } as never,
        state: createLicenseStateFile(join(dir, 'license-state.json'), 'http://portal.test'),
        hardwareId: () => lab.hardwareId,
        trustedKeys: undefined,
        now: () => s.clock.now(),
      });
      const app = withLicenseFile(checker, lab.offline);
      const status = await app.check();
      expect(status).toMatchObject({
        valid: true,
        status: 'active',
        license_id: license.id,
        requires_activation: false,
      });
      expect(status.message).toMatch(/^Activated by license file, valid offline for \d+ more days\.$/);
      expect(status.offline?.grace_remaining_seconds).toBeGreaterThan(300 * 86_400);

      s.clock.advance(200 * DAY_MS);
      expect(await app.check()).toMatchObject({ valid: true, status: 'active' });
      // The license's year ends before the file's 365 days: the file never outlives the license.
      s.clock.advance(170 * DAY_MS);
      expect(await app.check()).toMatchObject({ valid: false, status: 'expired' });
    });

    it('refuses a license file for another machine, one byte altered, a changed field, or not a license file', async () => {
      const s = server();
      const { file, text } = await licensed(s);
      const other = await offlineMachine(s);
      expect(await other.offline.importLicenseFile(text)).toMatchObject({
        ok: false,
        problem: 'wrong_hardware',
      });

      const { lab } = await licensed(s);
      const mine = await licensed(s, lab);
      const payloadChanged = await lab.offline.importLicenseFile(alteredByte(mine.file, 1));
      expect(payloadChanged.ok).toBe(false);
      if (!payloadChanged.ok) expect(['bad_signature', 'malformed']).toContain(payloadChanged.problem);
      const signatureChanged = await lab.offline.importLicenseFile(alteredByte(mine.file, 2));
      expect(signatureChanged.ok).toBe(false);
      if (!signatureChanged.ok) expect(['bad_signature', 'malformed']).toContain(signatureChanged.problem);
      expect(
        await lab.offline.importLicenseFile(
          JSON.stringify({ ...mine.file, expires_at: '2099-01-01T00:00:00.000Z' }),
        ),
      ).toMatchObject({ ok: false, problem: 'mismatch' });
      for (const junk of [
        'not json',
        '{}',
        JSON.stringify({ ...file, format: 'something else' }),
        'x'.repeat(20_000),
      ])
        expect(await lab.offline.importLicenseFile(junk)).toMatchObject({
          ok: false,
          problem: 'not_a_license_file',
        });
      // Nothing refused was kept: the machine still has no license file.
      expect(await lab.offline.current()).toBeNull();
      expect(await lab.offline.importLicenseFile(mine.text)).toMatchObject({ ok: true });
    });

    it('refuses an expired license file, and a clock set back before it was issued', async () => {
      const s = server();
      s.clock.freeze();
      const { lab, text } = await licensed(s);
      s.clock.advance(400 * DAY_MS);
      expect(await lab.offline.importLicenseFile(text)).toMatchObject({ ok: false, problem: 'expired' });
      s.clock.advance(-400 * DAY_MS - DAY_MS);
      expect(await lab.offline.importLicenseFile(text)).toMatchObject({
        ok: false,
        problem: 'clock_rolled_back',
      });
    });

    it('refuses a license file signed by another key, even one that names the server key id', async () => {
      const s = server();
      const { lab, file, license } = await licensed(s);
      const claims = decodeJwt(file.lease);
      const { kid } = decodeProtectedHeader(file.lease);
      const attacker = foreignKey();
      for (const signedAs of ['attacker-key', kid as string]) {
        const forged = await signLease(attacker.privateKey, signedAs, {
          sub: license.id,
          hwid: lab.hardwareId,
          kfp: keyFingerprint(license.license_key),
          iat: claims.iat as number,
          exp: claims.exp as number,
          offline: { nonce: file.nonce },
        });
        const outcome = await lab.offline.importLicenseFile(JSON.stringify({ ...file, lease: forged }));
        expect(outcome).toMatchObject({
          ok: false,
          problem: signedAs === 'attacker-key' ? 'unknown_key' : 'bad_signature',
        });
      }
    });

    it('a license file answers only a request this installation wrote', async () => {
      const s = server();
      const { lab, text } = await licensed(s);
      // The same machine after its app data was wiped: same hardware id, no request written.
      const reinstalled = createOfflineActivation({
        path: join(await mkdtemp(join(tmpdir(), 'offline-reinstalled-')), 'offline-activation.json'),
        hardwareId: () => lab.hardwareId,
        trustedKeys: leaseSigningKeysSchema.parse((await s.api({ path: '/licensing/public-key' })).json()),
        now: () => s.clock.now(),
        app: { version: '1.4.2', platform: 'linux' },
        deviceName: () => 'Lab PC',
      });
      expect(await reinstalled.importLicenseFile(text)).toMatchObject({
        ok: false,
        problem: 'not_requested_here',
      });
    });

    it('signing out forgets the file, writes the proof that frees the seat, and refuses the same file again', async () => {
      const s = server();
      const { owner, license, lab, text } = await licensed(s);
      expect((await lab.offline.importLicenseFile(text)).ok).toBe(true);
      const proof = await lab.offline.signOut();
      expect(proof).not.toBeNull();
      expect(await lab.offline.current()).toBeNull();
      expect(await lab.offline.check()).toBeNull();
      expect(await lab.offline.signOut()).toBeNull();
      expect(await lab.offline.importLicenseFile(text)).toMatchObject({ ok: false, problem: 'signed_out' });

      expect((await uploadProof(s, owner.token, proof?.contents)).statusCode).toBe(200);
      const seats = await s.app.db
        .selectFrom('activations')
        .select('id')
        .where('license_id', '=', license.id)
        .where('deactivated_at', 'is', null)
        .execute();
      expect(seats).toHaveLength(0);
    });
  },
  licenseSuiteOptions,
);

describeOnEveryDatabase(
  'desktop main: activation by file through the bridge handlers',
  (server) => {
    it('writes the request, imports the license file, answers the status from it with no server, and signs out', async () => {
      const s = server();
      const owner = await member(s);
      const license = await giveLicense(s, owner, 'pro-yearly');
      const dir = await mkdtemp(join(tmpdir(), 'offline-handlers-'));
      const statePath = join(dir, 'license-state.json');
      const keys = leaseSigningKeysSchema.parse((await s.api({ path: '/licensing/public-key' })).json());
      // The license server is a closed port: this machine never reaches it.
      const serverUrl = 'http://127.0.0.1:9';
      const handlers = createHandlers({
        secrets: createMemorySecretStore(),
        serverUrl,
        apiKey: DESKTOP_API_KEY,
        requestTimeoutMs: 2000,
        licenseStatePath: statePath,
        leasePublicKeys: keys,
        now: () => s.clock.now(),
        app: { version: '1.4.2', platform: 'linux' },
        updates: updateServiceForTests({
          serverUrl,
          licenseStatePath: statePath,
          settingsPath: join(dir, 'update-settings.json'),
        }).service,
      });
      const dispatch = createBridgeDispatcher(handlers);
      const call = (channel: string, ...args: unknown[]) => dispatch(channel, args);

      const request = (await call(bridgeChannels.writeOfflineActivationRequest, license.license_key)) as {
        file_name: string;
        contents: string;
      };
      expect(request.file_name).toMatch(/\.activation-request\.json$/);
      const result = expectLicenseFile(await uploadRequest(s, owner.token, request.contents), 201);

      expect(await call(bridgeChannels.importOfflineLicenseFile, 'not a license file')).toMatchObject({
        imported: false,
      });
      expect(
        await call(bridgeChannels.importOfflineLicenseFile, JSON.stringify(result.license_file)),
      ).toMatchObject({ imported: true });
      expect(await call(bridgeChannels.getLicenseKey)).toBe(license.license_key);
      expect(await call(bridgeChannels.checkLicenseStatus)).toMatchObject({
        valid: true,
        status: 'active',
        license_id: license.id,
      });

      const proof = (await call(bridgeChannels.signOutOfflineLicense)) as { contents: string };
      expect((await uploadProof(s, owner.token, proof.contents)).statusCode).toBe(200);
      expect(await call(bridgeChannels.signOutOfflineLicense)).toBeNull();
      // Without its license file, the check goes back to the server, which it cannot reach.
      expect(await call(bridgeChannels.checkLicenseStatus)).toMatchObject({ valid: false, status: 'error' });
    });
  },
  licenseSuiteOptions,
);

describe('desktop main: activation by file without pinned keys', () => {
  it('writes a request but refuses every license file', async () => {
    const offline = createOfflineActivation({
      path: join(await mkdtemp(join(tmpdir(), 'offline-nokeys-')), 'offline-activation.json'),
      hardwareId: () => 'hw-no-keys-0001',
      trustedKeys: undefined,
      now: () => new Date(),
      app: { version: '1.0.0', platform: 'linux' },
      deviceName: () => 'Lab PC',
    });
    const request = JSON.parse((await offline.writeRequest('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE')).contents) as {
      nonce: string;
    };
    const file = {
      format: 'desktop-ai-assistant.offline-license',
      version: 1,
      license_id: '00000000-0000-4000-8000-000000000000',
      hardware_id: 'hw-no-keys-0001',
      nonce: request.nonce,
      lease: 'a.b.c',
      expires_at: new Date().toISOString(),
    };
    expect(await offline.importLicenseFile(JSON.stringify(file))).toMatchObject({
      ok: false,
      problem: 'no_trusted_keys',
    });
  });
});
