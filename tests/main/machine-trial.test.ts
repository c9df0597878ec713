import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../src/main/app-origin.js';
import { createAppProtocolHandler } from '../../src/main/app-protocol.js';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { createHandlers } from '../../src/main/handlers.js';
import { createBridgeDispatcher } from '../../src/main/ipc.js';
import { createLicenseStateFile, type LicenseState } from '../../src/main/license-state.js';
import type { FetchLike } from '../../src/main/licensing-api.js';
import { createMachineTrials, type MachineTrialsOptions } from '../../src/main/machine-trial.js';
import { createMachineTrialApi } from '../../src/main/machine-trial-api.js';
import { createMemorySecretStore } from '../../src/main/secret-store.js';
import { createSignIns } from '../../src/main/sign-ins.js';
import { bridgeChannels, type MachineTrialStartResult } from '../../src/shared/bridge.js';
import { type LeaseClaims, type LeaseVerification, verifyMachineTrialLease } from '../../src/shared/lease.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { updateServiceForTests } from './support/fake-app-updater.js';
import {
  foreignKey,
  type LicensingServer,
  refusedUrl,
  signLease,
  startLicensingServer,
} from './support/licensing-server.js';

const DAY_MS = 86_400_000;
const TRIAL_DAYS = 14;
const TRIAL_PLAN = 'pro-monthly';
const CLOCK_ROLLED_BACK =
  'The system clock is earlier than when the license was last checked; correct the clock';
const ALTERED = 'The offline license has been altered; connect to the internet to check the license again';
const OTHER_MACHINE = 'The offline license belongs to another machine';
const EXPIRED = 'The offline grace period has ended; connect to the internet to check the license';
const DAMAGED = 'The offline license is damaged; connect to the internet to check the license again';

describe('desktop machine trials: real API server, real lease verifier, real state file', () => {
  let server: LicensingServer;
  let dir: string;
  let sequence = 0;
  /** This machine's clock, apart from the server's: moved to reach expiry or roll it back. */
  let machineOffsetMs = 0;
  const machineNow = () => new Date(server.clock.now().getTime() + machineOffsetMs);

  beforeAll(async () => {
    server = await startLicensingServer();
    dir = await mkdtemp(join(tmpdir(), 'desktop-machine-trial-'));
    // The administrators offer a 14-day trial of Pro monthly.
    await server.app.db
      .updateTable('plans')
      .set({ trial_days: TRIAL_DAYS })
      .where('code', '=', TRIAL_PLAN)
      .execute();
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A machine of its own (hardware id, state file), online unless another fetch is given. */
  function newMachine(
    overrides: Partial<MachineTrialsOptions> & { fetch?: FetchLike; statePath?: string } = {},
  ) {
    machineOffsetMs = 0;
    const statePath = overrides.statePath ?? join(dir, `state-${++sequence}.json`);
    const hardwareId = overrides.hardwareId?.() ?? `hw-desktop-${randomBytes(8).toString('hex')}`;
    const state = createLicenseStateFile(statePath, server.baseUrl);
    const trials = createMachineTrials({
      api: createMachineTrialApi({
        serverUrl: server.baseUrl,
        apiKey: DESKTOP_API_KEY,
        timeoutMs: 5000,
        ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
      }),
      state,
      hardwareId: () => hardwareId,
      trustedKeys: server.leaseKeys,
      now: machineNow,
      device: { name: () => 'Trial PC', platform: 'linux', appVersion: '0.1.0' },
      ...overrides,
    });
    return { trials, state, statePath, hardwareId };
  }

  /** The same machine (state file and hardware id) with its network cut. */
  const offlineTwin = async (machine: ReturnType<typeof newMachine>) => {
    const dead = await refusedUrl();
    return newMachine({
      statePath: machine.statePath,
      hardwareId: () => machine.hardwareId,
      fetch: (input, init) => fetch(input.replace(server.baseUrl, dead), init),
    });
  };

  const readState = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as LicenseState;

  async function started(machine: ReturnType<typeof newMachine>): Promise<MachineTrialStartResult> {
    const result = await machine.trials.start();
    expect(result, result.message).toMatchObject({ started: true });
    return result;
  }

  const verifyHere = (lease: string, hardwareId: string, lastSeenSeconds = 0): Promise<LeaseVerification> =>
    verifyMachineTrialLease(lease, {
      keys: server.leaseKeys,
      hardwareId,
      nowSeconds: Math.floor(machineNow().getTime() / 1000),
      lastSeenSeconds,
    });

  it('asks for the trial with its hardware id: a verified lease kept, the check says 14 days left, asking again the same end', async () => {
    const machine = newMachine();
    expect(await machine.trials.check()).toBeNull();
    expect(await machine.trials.current()).toBeNull();

    const first = await started(machine);
    expect(first.trial).toMatchObject({ plan: { code: TRIAL_PLAN }, days_left: TRIAL_DAYS });
    expect(first.message).toMatch(/has started: 14 days, .+ Create an account to keep it\.$/);
    const kept = await readState(machine.statePath);
    expect(kept.license_key).toBeNull();
    expect(kept.machine_trial?.plan_id).toBe(first.trial?.plan.id);
    const claims = decodeJwt(kept.machine_trial?.token ?? '') as unknown as LeaseClaims;
    expect(claims).toMatchObject({ machine_trial: true, kfp: '', hwid: machine.hardwareId });
    expect(claims.trial?.ends_at).toBe(first.trial?.ends_at);

    const check = await machine.trials.check();
    expect(check).toMatchObject({
      valid: true,
      status: 'active',
      machine_trial: true,
      trial: { ends_at: first.trial?.ends_at, days_left: TRIAL_DAYS },
    });
    expect(await machine.trials.current()).toEqual(first.trial);

    // A reinstall (a fresh state file on the same machine) gets the same trial back.
    const reinstalled = newMachine({ hardwareId: () => machine.hardwareId });
    const again = await started(reinstalled);
    expect(again.trial?.ends_at).toBe(first.trial?.ends_at);
  });

  it('offline: the kept lease answers with the days left as of now; a clock set back before the last check is refused', async () => {
    const machine = newMachine();
    const first = await started(machine);
    expect((await machine.trials.check())?.valid).toBe(true);

    const offline = await offlineTwin(machine);
    machineOffsetMs = 2 * 60_000;
    const answer = await offline.trials.check();
    expect(answer).toMatchObject({
      valid: true,
      machine_trial: true,
      trial: { ends_at: first.trial?.ends_at, days_left: TRIAL_DAYS },
      offline: { lease_expires_at: expect.any(String) },
    });

    // Back a day: earlier than the last check, so the lease does not count (and is kept: the
    // clock put right makes it valid again).
    machineOffsetMs = -DAY_MS;
    expect(await offline.trials.check()).toMatchObject({ valid: false, message: CLOCK_ROLLED_BACK });
    expect(await offline.trials.current()).toBeNull();
    expect((await readState(machine.statePath)).machine_trial).not.toBeNull();
    machineOffsetMs = 3 * 60_000;
    expect((await offline.trials.check())?.valid).toBe(true);
  });

  it('a forged, another machine’s, a replayed expired and a license’s lease are refused by the verification', async () => {
    const machine = newMachine();
    await started(machine);
    const genuine = (await readState(machine.statePath)).machine_trial?.token ?? '';
    const claims = decodeJwt(genuine) as unknown as LeaseClaims;
    const kid = server.leaseKeys.keys[0]?.kid ?? '';
    expect((await verifyHere(genuine, machine.hardwareId)).ok).toBe(true);

    // Forged: the same claims, signed by a key that is not the server's, under the server's kid.
    const forged = await signLease(foreignKey().privateKey, kid, {
      ...claims,
      exp: claims.exp + 60 * DAY_MS,
    });
    expect(await verifyHere(forged, machine.hardwareId)).toMatchObject({
      ok: false,
      problem: 'bad_signature',
    });
    // Another machine's genuine lease.
    expect(await verifyHere(genuine, 'hw-someone-else-0001')).toMatchObject({
      ok: false,
      problem: 'wrong_hardware',
    });
    // A license's lease (signed by the server, with a key) is no machine trial's.
    const licenseLease = await signLease(server.signingKey, kid, {
      ...claims,
      machine_trial: undefined,
      kfp: 'abc',
    });
    expect(await verifyHere(licenseLease, machine.hardwareId)).toMatchObject({
      ok: false,
      problem: 'malformed',
    });
    // Replayed after its end.
    machineOffsetMs = (claims.exp - claims.iat) * 1000 + 60_000;
    expect(await verifyHere(genuine, machine.hardwareId)).toMatchObject({ ok: false, problem: 'expired' });

    // The same through the app: the lease in the state file replaced, the network cut.
    const offline = await offlineTwin(machine);
    const plant = async (token: string) => {
      const state = await readState(machine.statePath);
      await writeFile(
        machine.statePath,
        JSON.stringify({ ...state, machine_trial: { token, plan_id: claims.plan.id } }),
      );
    };
    for (const [token, message] of [
      [forged, ALTERED],
      [licenseLease, DAMAGED],
    ] as const) {
      await plant(token);
      expect(await offline.trials.check()).toMatchObject({ valid: false, message });
      // No clock change makes it valid: it is dropped.
      expect((await readState(machine.statePath)).machine_trial).toBeNull();
    }
    await plant(genuine);
    machineOffsetMs = (claims.exp - claims.iat) * 1000 + 60_000;
    expect(await offline.trials.check()).toMatchObject({ valid: false, message: EXPIRED });
    machineOffsetMs = 0;

    const elsewhere = newMachine();
    const twinElsewhere = await offlineTwin(elsewhere);
    await twinElsewhere.state.update((s) => ({
      ...s,
      machine_trial: { token: genuine, plan_id: claims.plan.id },
    }));
    expect(await twinElsewhere.trials.check()).toMatchObject({ valid: false, message: OTHER_MACHINE });
  });

  it('once the trial has ended the server refuses it, the lease is dropped and the check says trial expired', async () => {
    const machine = newMachine();
    await started(machine);
    server.clock.advance((TRIAL_DAYS + 1) * DAY_MS);
    const check = await machine.trials.check();
    expect(check).toMatchObject({ valid: false, status: 'trial_expired', machine_trial: true });
    expect(check?.message).toMatch(/^This machine already had a free trial of .+ \(from .+ to .+\)\./);
    expect((await readState(machine.statePath)).machine_trial).toBeNull();
    // A reinstall cannot start it again.
    const reinstalled = newMachine({ hardwareId: () => machine.hardwareId });
    const refused = await reinstalled.trials.start(TRIAL_PLAN);
    expect(refused).toMatchObject({ started: false, trial: null });
    expect(refused.message).toMatch(/already had a free trial/);
  });

  it('signing in in the app takes the machine trial over without another step: the account’s license, the same end, this machine activated', async () => {
    const statePath = join(dir, `state-${++sequence}.json`);
    const rawMachineId = `machine-${randomBytes(8).toString('hex')}`;
    const signIns = createSignIns();
    const secrets = createMemorySecretStore();
    const handlers = createHandlers({
      secrets,
      machineId: () => rawMachineId,
      serverUrl: server.baseUrl,
      apiKey: DESKTOP_API_KEY,
      requestTimeoutMs: 5000,
      licenseStatePath: statePath,
      leasePublicKeys: server.leaseKeys,
      now: machineNow,
      app: { version: '0.1.0', platform: 'linux' },
      updates: updateServiceForTests({
        serverUrl: server.baseUrl,
        licenseStatePath: statePath,
        settingsPath: join(dir, `update-settings-${sequence}.json`),
      }).service,
      signIns,
    });
    const dispatch = createBridgeDispatcher(handlers);
    const appProtocol = createAppProtocolHandler({
      rendererDir: dir,
      serverUrl: server.baseUrl,
      apiKey: DESKTOP_API_KEY,
      secrets,
      signIns,
    });
    machineOffsetMs = 0;

    const tried = (await dispatch(bridgeChannels.startMachineTrial, [])) as MachineTrialStartResult;
    expect(tried).toMatchObject({ started: true, trial: { days_left: TRIAL_DAYS } });
    expect(await dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
      valid: true,
      machine_trial: true,
      trial: { days_left: TRIAL_DAYS },
    });
    expect(await dispatch(bridgeChannels.getMachineTrial, [])).toEqual(tried.trial);
    server.clock.advance(3 * DAY_MS);

    // The person signs up and signs in, in the app (the renderer's call through app://).
    const email = uniqueEmail('machine-trial');
    await server.app.authService.createAccount({
      email,
      password: STRONG_PASSWORD,
      role: 'user',
      verified: true,
    });
    const signIn = await appProtocol(
      new Request(`${APP_ORIGIN}/api/v1/auth/login/json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: STRONG_PASSWORD }),
      }),
    );
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).not.toContain('refresh_token":"');

    // Before the renderer has the answer, the machine holds the account's trial license.
    const state = await readState(statePath);
    expect(state.machine_trial).toBeNull();
    expect(state.license_key).not.toBeNull();
    const license = await server.app.db
      .selectFrom('licenses')
      .selectAll()
      .where('license_key', '=', state.license_key ?? '')
      .executeTakeFirstOrThrow();
    expect(license.trial_ends_at).toBe(tried.trial?.ends_at);
    const trialRow = await server.app.db
      .selectFrom('license_trials')
      .selectAll()
      .where('license_id', '=', license.id)
      .executeTakeFirstOrThrow();
    expect(trialRow.source).toBe('machine');
    const machineTrial = await server.app.db
      .selectFrom('machine_trials')
      .selectAll()
      .where('claimed_license_id', '=', license.id)
      .executeTakeFirstOrThrow();
    expect(machineTrial.ends_at).toBe(tried.trial?.ends_at);

    expect(await dispatch(bridgeChannels.checkLicenseStatus, [])).toMatchObject({
      valid: true,
      license_id: license.id,
      trial: { ends_at: tried.trial?.ends_at, days_left: TRIAL_DAYS - 3 },
    });
    expect(await dispatch(bridgeChannels.getMachineTrial, [])).toBeNull();
    // Signing in again claims nothing more.
    const again = await appProtocol(
      new Request(`${APP_ORIGIN}/api/v1/auth/login/json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: STRONG_PASSWORD }),
      }),
    );
    expect(again.status).toBe(200);
    expect((await readState(statePath)).license_key).toBe(state.license_key);
  });
});
