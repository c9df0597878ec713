import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  licensingSettingsSchema,
  licenseSchema,
  licenseStatusSchema,
} from '../../../src/shared/api/licenses.js';
import { generateLicenseKey } from '../../../src/shared/license-key.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import {
  activate,
  activateBase,
  activatedMachine,
  activationRow,
  activeSeats,
  DAY_MS,
  deactivate,
  expectActivation,
  expectRefusal,
  giveLicense,
  licenseSuiteOptions,
  licensingTables,
  machine,
  member,
  mistypedKey,
  signInAgain,
  statusOf,
  validate,
} from '../helpers/license-helpers.js';

const checks = [
  { name: 'POST /licenses/validate', check: validate },
  { name: 'GET /licensing/status', check: statusOf },
];

const putSettings = (s: TestServer, token: string, body: unknown) =>
  s.api({ method: 'PUT', path: '/admin/licensing/settings', token, body });

describeOnEveryDatabase(
  'licenses: validation, status checks, heartbeats and seat reclaim',
  (server) => {
    describe.each(checks)('$name', ({ check }) => {
      /** A pro license active on one machine. */
      const activated = (s: TestServer) => activatedMachine(s);

      it('an activated machine → valid: true, status active, a message, features and a lease', async () => {
        const s = server();
        const { license, hw } = await activated(s);
        const response = await check(s, license.license_key, hw);
        expect(response.statusCode, response.body).toBe(200);
        const answer = licenseStatusSchema.parse(response.json());
        expect(answer).toMatchObject({
          valid: true,
          status: 'active',
          message: 'License is valid',
          requires_activation: false,
          license_id: license.id,
          plan: { code: 'pro-monthly' },
          expires_at: license.expires_at,
          activation_id: (await activationRow(s, license.id, hw))!.id,
        });
        // Compact: nothing the machine sent comes back.
        expect(answer).not.toHaveProperty('license_key');
        expect(response.body).not.toContain(hw);
        expect(answer.lease.split('.')).toHaveLength(3);
        expect(answer.features.find((feature) => feature.key === 'ai_chat')).toMatchObject({
          limit: 5000,
          used: 0,
          available: true,
        });
      });

      it('an unknown key (well-formed) → 404 license_not_found, status not_found; nothing written', async () => {
        const s = server();
        await activated(s);
        const before = await licensingTables(s);
        const key = generateLicenseKey((bytes) => webcrypto.getRandomValues(bytes));
        const body = expectRefusal(await check(s, key, machine()), 404, 'license_not_found', 'not_found');
        expect(body.message).toContain('No license has this key');
        expect(await licensingTables(s)).toEqual(before);
      });

      it('a key with one character changed fails its checksum → 400 invalid_license_key, status invalid_key', async () => {
        const s = server();
        const { license, hw } = await activated(s);
        const before = await licensingTables(s);
        const body = expectRefusal(
          await check(s, mistypedKey(license.license_key), hw),
          400,
          'invalid_license_key',
          'invalid_key',
        );
        expect(body.message).toContain('not a valid license key');
        expect(await licensingTables(s)).toEqual(before);
      });

      it('a revoked license → 403 license_revoked with the reason; nothing written', async () => {
        const s = server();
        const { license, hw } = await activated(s);
        await s.app.db
          .updateTable('licenses')
          .set({
            status: 'revoked',
            revoked_reason: 'Refunded payment; write to us to restore.',
            revoked_at: s.clock.now().toISOString(),
          })
          .where('id', '=', license.id)
          .execute();
        const before = await licensingTables(s);
        const body = expectRefusal(
          await check(s, license.license_key, hw),
          403,
          'license_revoked',
          'revoked',
        );
        // The reason's own full stop is not doubled ("restore.. Contact support").
        expect(body.message).toBe(
          'This license was revoked: Refunded payment; write to us to restore. Contact support if you think this is a mistake.',
        );
        expect(await licensingTables(s)).toEqual(before);
      });

      it('a suspended license → 403 license_suspended', async () => {
        const s = server();
        const { license, hw } = await activated(s);
        await s.app.db
          .updateTable('licenses')
          .set({ status: 'suspended' })
          .where('id', '=', license.id)
          .execute();
        expectRefusal(await check(s, license.license_key, hw), 403, 'license_suspended', 'suspended');
      });

      it('a license past its expiry → 403 license_expired naming the day; nothing written', async () => {
        const s = server();
        const { license, hw } = await activated(s);
        await s.app.db
          .updateTable('licenses')
          .set({ expires_at: '2024-03-05T10:00:00.000Z' })
          .where('id', '=', license.id)
          .execute();
        const before = await licensingTables(s);
        const body = expectRefusal(
          await check(s, license.license_key, hw),
          403,
          'license_expired',
          'expired',
        );
        expect(body.message).toContain('This license expired on 5 March 2024');
        expect(await licensingTables(s)).toEqual(before);
      });

      it('a machine that was never activated → 403 machine_not_activated, requires_activation', async () => {
        const s = server();
        const { license } = await activated(s);
        const before = await licensingTables(s);
        const body = expectRefusal(
          await check(s, license.license_key, machine('other')),
          403,
          'machine_not_activated',
          'not_activated',
        );
        expect(body.message).toContain('This machine is not activated for this license');
        expect(await licensingTables(s)).toEqual(before);
      });

      it('a deactivated machine → 403 machine_deactivated, requires_activation; nothing written', async () => {
        const s = server();
        const { owner, license, hw } = await activated(s);
        expect((await deactivate(s, owner.token, license.id, hw)).statusCode).toBe(200);
        const before = await licensingTables(s);
        const body = expectRefusal(
          await check(s, license.license_key, hw),
          403,
          'machine_deactivated',
          'deactivated',
        );
        expect(body.message).toBe(
          'This machine was deactivated for this license. Activate it again to use it here.',
        );
        expect(await licensingTables(s)).toEqual(before);
      });

      it('a malformed hardware id → 400 validation_error without the status fields', async () => {
        const s = server();
        const { license } = await activated(s);
        const response = await check(s, license.license_key, 'bad id!');
        const body = expectApiError(response, 400, 'validation_error');
        expect(body.message).toMatch(/Hardware id/);
        expect(response.json()).not.toHaveProperty('valid');
      });

      it('without X-API-Key → 401 invalid_api_key', async () => {
        const s = server();
        const { license, hw } = await activated(s);
        const response =
          check === validate
            ? await s.api({
                method: 'POST',
                path: '/licenses/validate',
                body: { license_key: license.license_key, hardware_id: hw },
                withoutApiKey: true,
              })
            : await s.api({
                path: `/licensing/status?license_key=${license.license_key}&hardware_id=${hw}`,
                withoutApiKey: true,
              });
        expectApiError(response, 401, 'invalid_api_key');
      });
    });

    describe('heartbeats', () => {
      it('a valid check notes its time as last_seen_at, written with the next batch, never backwards', async () => {
        const s = server();
        // Only the steps below move the clock, so the times compared do not depend on speed.
        s.clock.freeze();
        const { license, hw } = await activatedMachine(s);
        const activatedAt = (await activationRow(s, license.id, hw))!.last_seen_at;

        s.clock.advance(30_000);
        expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);
        const checkedAt = s.clock.now().toISOString();
        // Noted in memory, not written by the check itself.
        expect((await activationRow(s, license.id, hw))!.last_seen_at).toBe(activatedAt);

        await s.app.heartbeats.flush();
        expect((await activationRow(s, license.id, hw))!.last_seen_at).toBe(checkedAt);

        // A check-in older than the one written (another instance's late batch) changes nothing.
        const row = (await activationRow(s, license.id, hw))!;
        s.app.heartbeats.record(row.id, activatedAt);
        await s.app.heartbeats.flush();
        expect((await activationRow(s, license.id, hw))!.last_seen_at).toBe(checkedAt);

        s.clock.advance(10_000);
        expect((await validate(s, license.license_key, hw)).statusCode).toBe(200);
        await s.app.heartbeats.flush();
        expect((await activationRow(s, license.id, hw))!.last_seen_at).toBe(s.clock.now().toISOString());
      });
    });

    describe('heartbeats of a machine back after a long absence', () => {
      it('are written before the answer, so seat reclaim on any instance sees the machine', async () => {
        const s = server();
        s.clock.freeze();
        const { license, hw } = await activatedMachine(s);
        const activatedAt = (await activationRow(s, license.id, hw))!.last_seen_at;

        // Within 12 hours of the stored check-in: noted for the next batch.
        s.clock.advance(11 * 60 * 60_000);
        expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);
        expect((await activationRow(s, license.id, hw))!.last_seen_at).toBe(activatedAt);
        await s.app.heartbeats.flush();
        const batched = (await activationRow(s, license.id, hw))!.last_seen_at;
        expect(batched).toBe(s.clock.now().toISOString());

        // More than 12 hours after it: written before the check answers.
        s.clock.advance(13 * 60 * 60_000);
        expect((await validate(s, license.license_key, hw)).statusCode).toBe(200);
        expect((await activationRow(s, license.id, hw))!.last_seen_at).toBe(s.clock.now().toISOString());
      });
    });

    describe('GET/PUT /admin/licensing/settings', () => {
      it('is for admins only: anonymous → 401, a user → 403', async () => {
        const s = server();
        const user = await member(s);
        expectApiError(await s.api({ path: '/admin/licensing/settings' }), 401, 'not_authenticated');
        expectApiError(
          await s.api({ path: '/admin/licensing/settings', token: user.token }),
          403,
          'admin_required',
        );
        expectApiError(
          await putSettings(s, user.token, { seat_reclaim_after_days: 1 }),
          403,
          'admin_required',
        );
      });

      it('defaults to 30 days, stores a new window or null, and refuses 0, fractions and extra fields', async () => {
        const s = server();
        const admin = await member(s, 'admin');
        const read = async () => {
          const response = await s.api({ path: '/admin/licensing/settings', token: admin.token });
          expect(response.statusCode).toBe(200);
          return licensingSettingsSchema.parse(response.json());
        };
        expect(await read()).toEqual({ seat_reclaim_after_days: 30 });

        const saved = await putSettings(s, admin.token, { seat_reclaim_after_days: 7 });
        expect(saved.statusCode, saved.body).toBe(200);
        expect(saved.json()).toEqual({ seat_reclaim_after_days: 7 });
        expect(await read()).toEqual({ seat_reclaim_after_days: 7 });

        expect((await putSettings(s, admin.token, { seat_reclaim_after_days: null })).statusCode).toBe(200);
        expect(await read()).toEqual({ seat_reclaim_after_days: null });

        for (const body of [
          { seat_reclaim_after_days: 0 },
          { seat_reclaim_after_days: 1.5 },
          { seat_reclaim_after_days: 30, other: true },
          {},
        ]) {
          expectApiError(await putSettings(s, admin.token, body), 400, 'validation_error');
        }
        expect(await read()).toEqual({ seat_reclaim_after_days: null });
        // Leave the default for the tests that follow.
        expect((await putSettings(s, admin.token, { seat_reclaim_after_days: 30 })).statusCode).toBe(200);
      });
    });

    describe('seat reclaim', () => {
      async function withWindow(s: TestServer, days: number | null) {
        const admin = await member(s, 'admin');
        expect((await putSettings(s, admin.token, { seat_reclaim_after_days: days })).statusCode).toBe(200);
      }

      it('a machine unseen past the window gives its seat to a new machine, and then reads deactivated with why', async () => {
        const s = server();
        await withWindow(s, 10);
        const user = await member(s);
        const stale = machine('stale');
        const base = expectActivation(await activateBase(s, user.token, stale), 201);

        s.clock.advance(11 * DAY_MS);
        await signInAgain(s, user);
        const fresh = machine('fresh');
        const result = expectActivation(await activateBase(s, user.token, fresh), 201);
        expect(result.license_id).toBe(base.license_id);
        expect(result.activations_used).toBe(1);
        expect(result.activations?.find((item) => item.hardware_id === stale)).toMatchObject({
          deactivated_reason: 'reclaimed',
        });
        expect((await activeSeats(s, base.license_id)).map((row) => row.hardware_id)).toEqual([fresh]);

        const refusal = expectRefusal(
          await validate(s, base.license_key, stale),
          403,
          'machine_deactivated',
          'deactivated',
        );
        expect(refusal.message).toContain(
          'because it had not checked in for a long time and another machine needed its seat',
        );
        const events = await securityEvents(s, { type: 'seat_reclaimed', userId: user.id });
        expect(events).toHaveLength(1);
        expect(JSON.parse(events[0]?.details ?? '{}')).toMatchObject({ hardware_id: stale });
      });

      it('inside the window no seat is reclaimed: the new machine gets 409', async () => {
        const s = server();
        await withWindow(s, 10);
        const user = await member(s);
        const first = machine('first');
        const base = expectActivation(await activateBase(s, user.token, first), 201);

        s.clock.advance(9 * DAY_MS);
        await signInAgain(s, user);
        expectApiError(await activateBase(s, user.token, machine('second')), 409, 'activation_limit_reached');
        expect((await activeSeats(s, base.license_id)).map((row) => row.hardware_id)).toEqual([first]);
        expect((await validate(s, base.license_key, first)).statusCode).toBe(200);
      });

      it('a check-in renews the machine’s claim: counted from last_seen_at, not from activation', async () => {
        const s = server();
        await withWindow(s, 10);
        const user = await member(s);
        const first = machine('first');
        const base = expectActivation(await activateBase(s, user.token, first), 201);

        s.clock.advance(9 * DAY_MS);
        expect((await validate(s, base.license_key, first)).statusCode).toBe(200);
        s.clock.advance(2 * DAY_MS);
        await signInAgain(s, user);
        expectApiError(await activateBase(s, user.token, machine('second')), 409, 'activation_limit_reached');
        expect((await activeSeats(s, base.license_id)).map((row) => row.hardware_id)).toEqual([first]);
      });

      it('with the window set to null seats are never reclaimed', async () => {
        const s = server();
        await withWindow(s, null);
        const user = await member(s);
        const first = machine('first');
        const base = expectActivation(await activateBase(s, user.token, first), 201);

        s.clock.advance(400 * DAY_MS);
        await signInAgain(s, user);
        expectApiError(await activateBase(s, user.token, machine('second')), 409, 'activation_limit_reached');
        expect((await activeSeats(s, base.license_id)).map((row) => row.hardware_id)).toEqual([first]);
        await withWindow(s, 30);
      });

      it('a license reaching its expiry by time reads expired: checks refused, listed as expired', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const hw = machine();
        expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
        expect((await validate(s, license.license_key, hw)).statusCode).toBe(200);

        s.clock.advance(32 * DAY_MS);
        expectRefusal(await validate(s, license.license_key, hw), 403, 'license_expired', 'expired');
        await signInAgain(s, owner);
        const detail = licenseSchema.parse(
          (await s.api({ path: `/licenses/${license.id}`, token: owner.token })).json(),
        );
        expect(detail.status).toBe('expired');
        expect(detail.usage_info.features.every((feature) => !feature.available)).toBe(true);
        expectRefusal(
          await activate(s, owner.token, license.license_key, machine('late')),
          403,
          'license_expired',
          'expired',
        );
      });
    });
  },
  licenseSuiteOptions,
);
