import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminLicense,
  adminActivationListSchema,
  adminLicenseSchema,
} from '../../../src/shared/api/admin.js';
import { licenseListSchema, licenseSchema } from '../../../src/shared/api/licenses.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import {
  adminTableCounts,
  eventsAbout,
  expectValidationError,
  type SignedIn,
  signIn,
  signInAsAdmin,
} from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  activeSeats,
  DAY_MS,
  expectRefusal,
  giveLicense,
  licenseRow,
  licenseSuiteOptions,
  machine,
  planByCode,
  statusOf,
  validate,
} from '../helpers/license-helpers.js';

describeOnEveryDatabase(
  'admin licenses',
  (server) => {
    let admin: SignedIn;
    let owner: SignedIn;

    beforeAll(async () => {
      admin = await signInAsAdmin(server());
      owner = await signIn(server(), 'user', 'owner');
    });

    const create = (body: unknown) =>
      server().api({ method: 'POST', path: '/admin/licenses', token: admin.token, body });
    const read = (id: string) => server().api({ path: `/admin/licenses/${id}`, token: admin.token });
    const update = (id: string, body: unknown) =>
      server().api({ method: 'PUT', path: `/admin/licenses/${id}`, token: admin.token, body });
    const revoke = (id: string, query: string) =>
      server().api({ method: 'POST', path: `/admin/licenses/${id}/revoke${query}`, token: admin.token });
    const deactivate = (id: string, activationId: string) =>
      server().api({
        method: 'POST',
        path: `/admin/licenses/${id}/activations/${activationId}/deactivate`,
        token: admin.token,
      });

    const expectLicense = (response: Awaited<ReturnType<typeof read>>, status = 200): AdminLicense => {
      expect(response.statusCode, response.body).toBe(status);
      return adminLicenseSchema.parse(response.json());
    };

    /** A Pro license of the owner, active on `machines` machines. */
    async function proLicense(machines = 0) {
      const s = server();
      const row = await giveLicense(s, owner, 'pro-monthly');
      const hardwareIds: string[] = [];
      for (let index = 0; index < machines; index += 1) {
        const hardwareId = machine();
        expect((await activate(s, owner.token, row.license_key, hardwareId)).statusCode).toBe(201);
        hardwareIds.push(hardwareId);
      }
      return { row, hardwareIds };
    }

    describe('POST /admin/licenses', () => {
      it('issues a license of the plan with its seats and period, which the owner sees at once', async () => {
        const s = server();
        const plan = await planByCode(s, 'pro-yearly');
        const created = expectLicense(await create({ user_id: owner.id, plan_id: plan.id }), 201);
        expect(created).toMatchObject({
          user_id: owner.id,
          user_email: owner.email,
          plan_id: plan.id,
          plan: { code: 'pro-yearly', name: plan.name },
          status: 'active',
          max_activations: plan.max_activations,
          activations_used: 0,
          activations: [],
        });
        const expiresIn = Date.parse(created.expires_at ?? '') - s.clock.now().getTime();
        expect(expiresIn).toBeGreaterThan(360 * DAY_MS);
        expect(expiresIn).toBeLessThan(370 * DAY_MS);

        const own = await s.api({ path: '/licenses', token: owner.token });
        expect(licenseListSchema.parse(own.json()).map((license) => license.license_id)).toContain(
          created.license_id,
        );
        const [event] = await eventsAbout(s, 'license_created', owner.id);
        expect(event).toMatchObject({ actor_id: admin.id, severity: 'info' });
        expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
          license_id: created.license_id,
          plan: 'pro-yearly',
        });
      });

      it('takes the administrator’s expiry and seat limit over the plan’s, and a plan code for its id', async () => {
        const s = server();
        const expiresAt = new Date(s.clock.now().getTime() + 10 * DAY_MS).toISOString();
        const created = expectLicense(
          await create({ user_id: owner.id, plan_id: 'base', expires_at: expiresAt, max_activations: 12 }),
          201,
        );
        expect(created).toMatchObject({ expires_at: expiresAt, max_activations: 12, plan: { code: 'base' } });
        const never = expectLicense(
          await create({ user_id: owner.id, plan_id: 'pro-monthly', expires_at: null }),
          201,
        );
        expect(never.expires_at).toBeNull();
      });

      it.each([
        { name: 'no user', body: { user_id: undefined }, says: 'user_id' },
        { name: 'a user id that is no id', body: { user_id: 'me', plan_id: 'base' }, says: 'Not a user id' },
        { name: 'no seats', body: { max_activations: 0 }, says: 'at least 1' },
        { name: 'fractional seats', body: { max_activations: 1.5 }, says: 'whole number' },
        { name: 'an expiry that is no date', body: { expires_at: 'next week' }, says: 'expires_at' },
        { name: 'a status (always active)', body: { status: 'revoked' }, says: 'status' },
        {
          name: 'a key (always generated)',
          body: { license_key: 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA' },
          says: 'license_key',
        },
      ])('$name → 400, nothing written', async ({ body, says }) => {
        const s = server();
        const before = await adminTableCounts(s);
        expect(
          expectValidationError(await create({ user_id: owner.id, plan_id: 'base', ...body })),
        ).toContain(says);
        expect(await adminTableCounts(s)).toEqual(before);
      });

      it('an expiry in the past → 400 expiry_in_past; an unknown user or plan → 404; nothing written', async () => {
        const s = server();
        const before = await adminTableCounts(s);
        const past = new Date(s.clock.now().getTime() - DAY_MS).toISOString();
        expectApiError(
          await create({ user_id: owner.id, plan_id: 'base', expires_at: past }),
          400,
          'expiry_in_past',
        );
        expectApiError(await create({ user_id: randomUUID(), plan_id: 'base' }), 404, 'user_not_found');
        expectApiError(await create({ user_id: owner.id, plan_id: 'no-such-plan' }), 404, 'plan_not_found');
        expect(await adminTableCounts(s)).toEqual(before);
      });

      it('issues the free Base license at most once per user → 409 base_license_exists, nothing written', async () => {
        const s = server();
        const user = await signIn(s, 'user', 'base-once');
        expectLicense(await create({ user_id: user.id, plan_id: 'base' }), 201);
        const before = await adminTableCounts(s);
        expectApiError(await create({ user_id: user.id, plan_id: 'base' }), 409, 'base_license_exists');
        expect(await adminTableCounts(s)).toEqual(before);
        // The user's own activation of Base then finds the license the administrator issued.
        const own = await s.api({
          method: 'POST',
          path: '/licenses/activate-base',
          token: user.token,
          body: { hardware_id: machine() },
        });
        expect(own.statusCode, own.body).toBe(201);
        const licenses = await s.api({ path: '/licenses', token: user.token });
        expect(licenses.json<unknown[]>()).toHaveLength(1);
      });
    });

    describe('GET /admin/licenses/{id} and its activations', () => {
      it('shows the license with its owner’s e-mail and machines', async () => {
        const { row, hardwareIds } = await proLicense(2);
        const license = expectLicense(await read(row.id));
        expect(license).toMatchObject({ license_id: row.id, user_email: owner.email, activations_used: 2 });
        expect(license.activations?.map((activation) => activation.hardware_id).sort()).toEqual(
          hardwareIds.sort(),
        );

        const listed = await server().api({
          path: `/admin/licenses/${row.id}/activations`,
          token: admin.token,
        });
        expect(listed.statusCode).toBe(200);
        expect(
          adminActivationListSchema
            .parse(listed.json())
            .map((a) => a.hardware_id)
            .sort(),
        ).toEqual(hardwareIds.sort());
      });

      it('an unknown license → 404 license_not_found, for the license and its activations', async () => {
        expectApiError(await read(randomUUID()), 404, 'license_not_found');
        expectApiError(
          await server().api({ path: `/admin/licenses/${randomUUID()}/activations`, token: admin.token }),
          404,
          'license_not_found',
        );
      });
    });

    describe('PUT /admin/licenses/{id}', () => {
      it('suspends a license (the machine is refused) and restores it, recording each change', async () => {
        const s = server();
        const { row, hardwareIds } = await proLicense(1);
        const hardwareId = hardwareIds[0] as string;
        expect(expectLicense(await update(row.id, { status: 'suspended' })).status).toBe('suspended');
        expectRefusal(await validate(s, row.license_key, hardwareId), 403, 'license_suspended', 'suspended');
        expect(expectLicense(await update(row.id, { status: 'active' })).status).toBe('active');
        expect((await validate(s, row.license_key, hardwareId)).statusCode).toBe(200);

        const events = await eventsAbout(s, 'license_updated', owner.id);
        const mine = events.filter((event) => JSON.parse(event.details ?? '{}').license_id === row.id);
        expect(mine.map((event) => [event.severity, event.actor_id])).toEqual([
          ['warning', admin.id],
          ['info', admin.id],
        ]);
        expect(JSON.parse(mine[0]?.details ?? '{}').changes).toEqual({
          status: { from: 'active', to: 'suspended' },
        });
      });

      it('changes expiry and seats; moving to another plan takes its seat limit', async () => {
        const s = server();
        const { row } = await proLicense();
        const expiresAt = new Date(s.clock.now().getTime() + 90 * DAY_MS).toISOString();
        expect(
          expectLicense(await update(row.id, { expires_at: expiresAt, max_activations: 5 })),
        ).toMatchObject({
          expires_at: expiresAt,
          max_activations: 5,
        });
        const team = await planByCode(s, 'team-yearly');
        expect(expectLicense(await update(row.id, { plan_id: team.id }))).toMatchObject({
          plan_id: team.id,
          max_activations: team.max_activations,
          expires_at: expiresAt,
        });
      });

      it('fewer seats than machines in use → 409 too_many_activations, nothing changes', async () => {
        const s = server();
        const { row } = await proLicense(2);
        const before = await adminTableCounts(s);
        const error = expectApiError(
          await update(row.id, { max_activations: 1 }),
          409,
          'too_many_activations',
        );
        expect(error.message).toContain('Deactivate 1 first');
        expect((await licenseRow(s, row.id)).max_activations).toBe(row.max_activations);
        expect(await adminTableCounts(s)).toEqual(before);
      });

      it.each([
        { name: 'an empty body', body: {}, says: 'at least one field' },
        { name: 'status revoked (use revoke)', body: { status: 'revoked' }, says: 'status' },
        { name: 'status expired', body: { status: 'expired' }, says: 'status' },
        { name: 'a key change', body: { license_key: 'x' }, says: 'license_key' },
        { name: 'seats over the limit', body: { max_activations: 1001 }, says: 'at most 1000' },
      ])('$name → 400, nothing written', async ({ body, says }) => {
        const s = server();
        const { row } = await proLicense();
        const before = await adminTableCounts(s);
        expect(expectValidationError(await update(row.id, body))).toContain(says);
        expect(await licenseRow(s, row.id)).toEqual(row);
        expect(await adminTableCounts(s)).toEqual(before);
      });

      it('an expiry in the past → 400; an unknown plan or license → 404; nothing changes', async () => {
        const s = server();
        const { row } = await proLicense();
        const past = new Date(s.clock.now().getTime() - 1000).toISOString();
        expectApiError(await update(row.id, { expires_at: past }), 400, 'expiry_in_past');
        expectApiError(await update(row.id, { plan_id: 'no-such-plan' }), 404, 'plan_not_found');
        expectApiError(await update(randomUUID(), { status: 'suspended' }), 404, 'license_not_found');
        expect(await licenseRow(s, row.id)).toEqual(row);
      });
    });

    describe('POST /admin/licenses/{id}/revoke?reason=…', () => {
      it('revokes with the reason, which the owner sees on the license and in refused checks', async () => {
        const s = server();
        const { row, hardwareIds } = await proLicense(1);
        const reason = 'Refunded on 2 May – chargeback';
        const revoked = expectLicense(await revoke(row.id, `?reason=${encodeURIComponent(reason)}`));
        expect(revoked).toMatchObject({ status: 'revoked', revoked_reason: reason });
        expect(revoked.revoked_at).not.toBeNull();

        const own = licenseListSchema.parse((await s.api({ path: '/licenses', token: owner.token })).json());
        expect(own.find((license) => license.license_id === row.id)).toMatchObject({
          status: 'revoked',
          revoked_reason: reason,
        });
        const detail = licenseSchema.parse(
          (await s.api({ path: `/licenses/${row.id}`, token: owner.token })).json(),
        );
        expect(detail.revoked_reason).toBe(reason);
        for (const check of [validate, statusOf]) {
          const refusal = expectRefusal(
            await check(s, row.license_key, hardwareIds[0] as string),
            403,
            'license_revoked',
            'revoked',
          );
          expect(refusal.message).toContain(`revoked: ${reason}`);
        }

        const events = (await eventsAbout(s, 'license_revoked', owner.id)).filter(
          (event) => JSON.parse(event.details ?? '{}').license_id === row.id,
        );
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ actor_id: admin.id, severity: 'warning' });
        expect(JSON.parse(events[0]?.details ?? '{}').reason).toBe(reason);
      });

      it('revoking twice → 409 license_already_revoked, and the first reason stays', async () => {
        const s = server();
        const { row } = await proLicense();
        expectLicense(await revoke(row.id, '?reason=Fraud'));
        const before = await adminTableCounts(s);
        expectApiError(await revoke(row.id, '?reason=Again'), 409, 'license_already_revoked');
        expect((await licenseRow(s, row.id)).revoked_reason).toBe('Fraud');
        expect(await adminTableCounts(s)).toEqual(before);
      });

      it('a revoked license is final: it cannot be set active or changed → 409 license_revoked', async () => {
        const s = server();
        const { row } = await proLicense();
        expectLicense(await revoke(row.id, '?reason=Fraud'));
        const revokedRow = await licenseRow(s, row.id);
        expectApiError(await update(row.id, { status: 'active' }), 409, 'license_revoked');
        expectApiError(await update(row.id, { max_activations: 9 }), 409, 'license_revoked');
        expect(await licenseRow(s, row.id)).toEqual(revokedRow);
      });

      it.each([
        { name: 'no reason', query: '', says: 'reason is required' },
        { name: 'an empty reason', query: '?reason=', says: 'reason is required' },
        { name: 'a blank reason', query: '?reason=%20%20', says: 'reason is required' },
        { name: 'a reason over 500 characters', query: `?reason=${'x'.repeat(501)}`, says: 'at most 500' },
        { name: 'a control character', query: '?reason=a%00b', says: 'control characters' },
      ])('$name → 400 naming the reason, nothing written', async ({ query, says }) => {
        const s = server();
        const { row } = await proLicense();
        const before = await adminTableCounts(s);
        expect(expectValidationError(await revoke(row.id, query))).toContain(says);
        expect(await licenseRow(s, row.id)).toEqual(row);
        expect(await adminTableCounts(s)).toEqual(before);
      });

      it('a reason of exactly 500 characters is kept whole; an unknown license → 404', async () => {
        const { row } = await proLicense();
        const reason = 'r'.repeat(500);
        expect(expectLicense(await revoke(row.id, `?reason=${reason}`)).revoked_reason).toBe(reason);
        expectApiError(await revoke(randomUUID(), '?reason=Gone'), 404, 'license_not_found');
      });
    });

    describe('POST /admin/licenses/{id}/activations/{activationId}/deactivate', () => {
      it('frees the seat; the machine is told an administrator deactivated it', async () => {
        const s = server();
        const { row, hardwareIds } = await proLicense(2);
        const [first, second] = hardwareIds as [string, string];
        const activation = (await activeSeats(s, row.id)).find((seat) => seat.hardware_id === first);
        const license = expectLicense(await deactivate(row.id, activation?.id ?? ''));
        expect(license.activations_used).toBe(1);
        expect(license.activations?.find((item) => item.hardware_id === first)).toMatchObject({
          deactivated_reason: 'admin',
        });
        const refusal = expectRefusal(
          await validate(s, row.license_key, first),
          403,
          'machine_deactivated',
          'deactivated',
        );
        expect(refusal.message).toContain('by an administrator');
        expect((await validate(s, row.license_key, second)).statusCode).toBe(200);

        const [event] = (await eventsAbout(s, 'activation_deactivated', owner.id)).filter(
          (item) => JSON.parse(item.details ?? '{}').activation_id === activation?.id,
        );
        expect(event).toMatchObject({ actor_id: admin.id });
        expect(JSON.parse(event?.details ?? '{}')).toMatchObject({ license_id: row.id, hardware_id: first });

        const before = await adminTableCounts(s);
        expectApiError(await deactivate(row.id, activation?.id ?? ''), 409, 'activation_not_active');
        expect(await adminTableCounts(s)).toEqual(before);
      });

      it('an activation of another license, or none, → 404; nothing changes', async () => {
        const s = server();
        const { row } = await proLicense(1);
        const other = await proLicense(1);
        const [otherSeat] = await activeSeats(s, other.row.id);
        expectApiError(await deactivate(row.id, otherSeat?.id ?? ''), 404, 'activation_not_found');
        expectApiError(await deactivate(row.id, randomUUID()), 404, 'activation_not_found');
        expectApiError(await deactivate(randomUUID(), otherSeat?.id ?? ''), 404, 'license_not_found');
        expect(await activeSeats(s, other.row.id)).toHaveLength(1);
      });

      it('accepts an empty JSON object as the body, and refuses any other body', async () => {
        const s = server();
        const { row } = await proLicense(1);
        const [seat] = await activeSeats(s, row.id);
        const path = `/admin/licenses/${row.id}/activations/${seat?.id}/deactivate`;
        expect(
          expectValidationError(
            await s.api({ method: 'POST', path, token: admin.token, body: { force: true } }),
          ),
        ).toContain('force');
        expect(await activeSeats(s, row.id)).toHaveLength(1);
        expect((await s.api({ method: 'POST', path, token: admin.token, body: {} })).statusCode).toBe(200);
      });
    });
  },
  licenseSuiteOptions,
);
