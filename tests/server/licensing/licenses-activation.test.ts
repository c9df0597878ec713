import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  leaseSigningKeysSchema,
  licenseListSchema,
  licenseSchema,
} from '../../../src/shared/api/licenses.js';
import { verifyLease } from '../../../src/shared/lease.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import {
  activate,
  activateBase,
  activationRow,
  activeSeats,
  deactivate,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  licensingTables,
  machine,
  member,
} from '../helpers/license-helpers.js';

async function publicKeys(s: TestServer) {
  const response = await s.api({ path: '/licensing/public-key' });
  expect(response.statusCode).toBe(200);
  return leaseSigningKeysSchema.parse(response.json());
}

describeOnEveryDatabase(
  'licenses: activation, deactivation and the Base license',
  (server) => {
    describe('POST /licenses/activate', () => {
      it('binds the machine to the key → 201 with the activation, the license and a lease for that machine', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const hw = machine('laptop');

        const result = expectActivation(
          await activate(s, owner.token, license.license_key, hw, {
            device_name: 'Work laptop',
            platform: 'windows',
            app_version: '1.4.2',
          }),
          201,
        );
        expect(result).toMatchObject({
          license_id: license.id,
          license_key: license.license_key,
          plan: { code: 'pro-monthly' },
          status: 'active',
          max_activations: 3,
          activations_used: 1,
          message: 'This machine is now activated',
          activation: {
            license_id: license.id,
            hardware_id: hw,
            device_name: 'Work laptop',
            platform: 'windows',
            app_version: '1.4.2',
            deactivated_at: null,
          },
        });
        expect(result.activations?.map((item) => item.hardware_id)).toEqual([hw]);

        const row = await activationRow(s, license.id, hw);
        expect(row).toMatchObject({ id: result.activation.activation_id, deactivated_at: null });

        // The lease verifies offline with the served key, for this machine only.
        const keys = await publicKeys(s);
        const nowSeconds = Math.floor(s.clock.now().getTime() / 1000);
        const verified = await verifyLease(result.lease, { keys, hardwareId: hw, nowSeconds });
        expect(verified.ok).toBe(true);
        if (verified.ok) expect(verified.claims).toMatchObject({ sub: license.id, hwid: hw });
        const elsewhere = await verifyLease(result.lease, { keys, hardwareId: machine(), nowSeconds });
        expect(elsewhere).toMatchObject({ ok: false, problem: 'wrong_hardware' });
      });

      it('activating the same machine again is idempotent → 200, the same activation, no second seat', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const hw = machine();
        const first = expectActivation(
          await activate(s, owner.token, license.license_key, hw, { app_version: '1.0.0' }),
          201,
        );
        const again = expectActivation(
          await activate(s, owner.token, license.license_key, hw, { app_version: '1.1.0' }),
          200,
        );
        expect(again.activation.activation_id).toBe(first.activation.activation_id);
        expect(again.activation.app_version).toBe('1.1.0');
        expect(again.activations_used).toBe(1);
        expect(again.message).toBe('This machine was already activated');
        expect(await activeSeats(s, license.id)).toHaveLength(1);
      });

      it('accepts the key typed in lower case with spaces instead of dashes', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const typed = ` ${license.license_key.toLowerCase().replaceAll('-', ' ')} `;
        const result = expectActivation(await activate(s, owner.token, typed, machine()), 201);
        expect(result.license_id).toBe(license.id);
      });

      it('over the seat limit → 409 activation_limit_reached naming the limit; no seat taken', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        for (const label of ['one', 'two', 'three']) {
          expectActivation(await activate(s, owner.token, license.license_key, machine(label)), 201);
        }
        const before = await licensingTables(s);
        const fourth = machine('four');
        const refused = expectApiError(
          await activate(s, owner.token, license.license_key, fourth),
          409,
          'activation_limit_reached',
        );
        expect(refused.message).toContain('already active on 3 of 3 machines');
        expect(refused.message).toContain('seat limit 3');
        expect(refused.message).toMatch(/Deactivate a machine/);
        expect(await licensingTables(s)).toEqual(before);
        expect(await activationRow(s, license.id, fourth)).toBeUndefined();

        const events = await securityEvents(s, { type: 'activation_limit_reached', userId: owner.id });
        expect(events).toHaveLength(1);
        expect(JSON.parse(events[0]?.details ?? '{}')).toMatchObject({
          license_id: license.id,
          hardware_id: fourth,
          seats: 3,
        });
      });

      it('a team member may activate the owner’s key; the license stays out of the member’s own list', async () => {
        const s = server();
        const owner = await member(s);
        const teammate = await member(s);
        const license = await giveLicense(s, owner, 'team-yearly');
        const hw = machine('teammate');

        const result = expectActivation(await activate(s, teammate.token, license.license_key, hw), 201);
        expect(result.license_id).toBe(license.id);
        // The owner's account stays private to the owner (see shared-key-privacy.test.ts).
        expect(result.user_id).toBeNull();

        const teammateList = licenseListSchema.parse(
          (await s.api({ path: '/licenses', token: teammate.token })).json(),
        );
        expect(teammateList.map((item) => item.license_id)).not.toContain(license.id);
        expectApiError(
          await s.api({ path: `/licenses/${license.id}`, token: teammate.token }),
          404,
          'license_not_found',
        );

        // The owner sees the teammate's machine on the license.
        const detail = licenseSchema.parse(
          (await s.api({ path: `/licenses/${license.id}`, token: owner.token })).json(),
        );
        expect(detail.activations?.map((item) => item.hardware_id)).toEqual([hw]);
      });
    });

    describe('POST /licenses/{id}/deactivate', () => {
      it('frees the machine’s seat: another machine can then activate on a full license', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const machines = [machine('a'), machine('b'), machine('c')];
        for (const hw of machines)
          expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
        const newcomer = machine('new');
        expectApiError(
          await activate(s, owner.token, license.license_key, newcomer),
          409,
          'activation_limit_reached',
        );

        const response = await deactivate(s, owner.token, license.id, machines[0]!);
        expect(response.statusCode, response.body).toBe(200);
        const after = licenseSchema.parse(response.json());
        expect(after.activations_used).toBe(2);
        expect(after.activations?.find((item) => item.hardware_id === machines[0])).toMatchObject({
          deactivated_reason: 'user',
          deactivated_at: expect.any(String),
        });
        expect((await activationRow(s, license.id, machines[0]!))?.deactivated_at).not.toBeNull();

        expectActivation(await activate(s, owner.token, license.license_key, newcomer), 201);
        expect((await activeSeats(s, license.id)).map((row) => row.hardware_id).sort()).toEqual(
          [machines[1], machines[2], newcomer].sort(),
        );
      });

      it('deactivates by activation_id as well, and a second deactivation changes nothing', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const hw = machine();
        const { activation } = expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
        const first = await s.api({
          method: 'POST',
          path: `/licenses/${license.id}/deactivate`,
          token: owner.token,
          body: { activation_id: activation.activation_id },
        });
        expect(first.statusCode, first.body).toBe(200);
        const row = await activationRow(s, license.id, hw);
        expect(row?.deactivated_at).not.toBeNull();

        s.clock.advance(5_000);
        const second = await deactivate(s, owner.token, license.id, hw);
        expect(second.statusCode).toBe(200);
        expect(await activationRow(s, license.id, hw)).toEqual(row);
      });

      it('reactivating a deactivated machine reuses its record → 201 and takes a seat again', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const hw = machine();
        const first = expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
        expect((await deactivate(s, owner.token, license.id, hw)).statusCode).toBe(200);
        const again = expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
        expect(again.activation.activation_id).toBe(first.activation.activation_id);
        expect(again.activation.deactivated_at).toBeNull();
        expect(again.activation.deactivated_reason).toBeNull();
        expect(await activeSeats(s, license.id)).toHaveLength(1);
      });

      it('a machine that is not on the license → 404 activation_not_found, nothing written', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        expectActivation(await activate(s, owner.token, license.license_key, machine()), 201);
        const before = await licensingTables(s);
        expectApiError(
          await deactivate(s, owner.token, license.id, machine('stranger')),
          404,
          'activation_not_found',
        );
        expect(await licensingTables(s)).toEqual(before);
      });
    });

    describe('GET /licenses and GET /licenses/{id}', () => {
      it('lists only the user’s own licenses, with plan, seats and usage_info', async () => {
        const s = server();
        const owner = await member(s);
        const other = await member(s);
        const pro = await giveLicense(s, owner, 'pro-monthly');
        s.clock.advance(1000);
        const team = await giveLicense(s, owner, 'team-yearly');
        await giveLicense(s, other, 'pro-monthly');
        expectActivation(await activate(s, owner.token, pro.license_key, machine()), 201);

        const response = await s.api({ path: '/licenses', token: owner.token });
        expect(response.statusCode).toBe(200);
        const list = licenseListSchema.parse(response.json());
        expect(list.map((item) => item.license_id)).toEqual([team.id, pro.id]);
        expect(list.every((item) => item.user_id === owner.id)).toBe(true);
        expect(list[1]).toMatchObject({
          max_activations: 3,
          activations_used: 1,
          plan: { code: 'pro-monthly' },
        });
        expect(list[1]?.usage_info.features.map((feature) => feature.key).sort()).toEqual([
          'ai_chat',
          'code_assistant',
          'document_analysis',
          'offline_mode',
          'voice_commands',
        ]);
        // The list is the light view: machines come with the detail.
        expect(list[1]?.activations).toBeUndefined();
      });

      it('a user with no license gets an empty list', async () => {
        const s = server();
        const nobody = await member(s);
        const response = await s.api({ path: '/licenses', token: nobody.token });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual([]);
      });

      it('the detail shows the license with its machines; a malformed id → 400, an unknown id → 404', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const hw = machine();
        expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
        const detail = await s.api({ path: `/licenses/${license.id}`, token: owner.token });
        expect(detail.statusCode).toBe(200);
        expect(licenseSchema.parse(detail.json())).toMatchObject({
          license_id: license.id,
          activations: [{ hardware_id: hw }],
        });

        const malformed = expectApiError(
          await s.api({ path: '/licenses/not-a-uuid', token: owner.token }),
          400,
          'validation_error',
        );
        expect(malformed.message).toContain('Not a license id');
        expectApiError(
          await s.api({ path: `/licenses/${randomUUID()}`, token: owner.token }),
          404,
          'license_not_found',
        );
      });
    });

    describe('POST /licenses/activate-base', () => {
      it('creates the user’s free Base license and activates this machine → 201', async () => {
        const s = server();
        const user = await member(s);
        const hw = machine();
        const result = expectActivation(await activateBase(s, user.token, hw), 201);
        expect(result).toMatchObject({
          user_id: user.id,
          plan: { code: 'base', billing_interval: 'free' },
          status: 'active',
          expires_at: null,
          max_activations: 1,
          activations_used: 1,
          activation: { hardware_id: hw },
        });
        const rows = await s.app.db
          .selectFrom('licenses')
          .selectAll()
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ id: result.license_id, base_owner_id: user.id });
      });

      it('again on the same machine → 200 and the same license; on another machine → 409 naming the one seat', async () => {
        const s = server();
        const user = await member(s);
        const hw = machine();
        const first = expectActivation(await activateBase(s, user.token, hw), 201);
        const again = expectActivation(await activateBase(s, user.token, hw), 200);
        expect(again.license_id).toBe(first.license_id);
        expect(again.activations_used).toBe(1);

        const refused = expectApiError(
          await activateBase(s, user.token, machine('second')),
          409,
          'activation_limit_reached',
        );
        expect(refused.message).toContain('1 of 1 machine allowed (seat limit 1)');
        const rows = await s.app.db
          .selectFrom('licenses')
          .select('id')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toEqual([{ id: first.license_id }]);
      });

      it('concurrent calls of one user create exactly one Base license with one activation', async () => {
        const s = server();
        const user = await member(s);
        const hw = machine();
        const responses = await Promise.all(Array.from({ length: 8 }, () => activateBase(s, user.token, hw)));
        const statuses = responses.map((response) => response.statusCode).sort();
        expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
        const ids = new Set(responses.map((response) => response.json<{ license_id: string }>().license_id));
        expect(ids.size).toBe(1);

        const rows = await s.app.db
          .selectFrom('licenses')
          .selectAll()
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toHaveLength(1);
        expect(await activeSeats(s, rows[0]!.id)).toHaveLength(1);
      });
    });
  },
  licenseSuiteOptions,
);
