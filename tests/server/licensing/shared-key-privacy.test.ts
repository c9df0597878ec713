import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { licenseListSchema, licenseSchema } from '../../../src/shared/api/licenses.js';
import type { LicenseRow } from '../../../src/server/platform/db/tables.js';
import * as activationOwner from '../../../src/server/platform/db/migrations/0007-activation-owner.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  activationRow,
  activeSeats,
  deactivate,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  licensingTables,
  machine,
  type Member,
  member,
  statusOf,
  validate,
} from '../helpers/license-helpers.js';

const OWNER_DEVICE = 'Ada’s office workstation';

/** A team license whose owner uses it on two named machines, and a teammate who was given its key. */
async function sharedKey(s: TestServer) {
  const owner = await member(s);
  const teammate = await member(s);
  const license = await giveLicense(s, owner, 'team-yearly', { subscriptionId: 'sub_owner_billing' });
  const ownerMachines = [machine('owner-a'), machine('owner-b')];
  for (const hw of ownerMachines) {
    expectActivation(
      await activate(s, owner.token, license.license_key, hw, { device_name: OWNER_DEVICE }),
      201,
    );
  }
  return { owner, teammate, license, ownerMachines };
}

/** The owner's account, machines and billing never appear anywhere in an answer to someone else. */
function expectNothingOfTheOwner(
  body: string,
  { owner, ownerMachines }: { owner: Member; ownerMachines: string[] },
): void {
  for (const secret of [owner.id, owner.email, OWNER_DEVICE, 'sub_owner_billing', ...ownerMachines]) {
    expect(body).not.toContain(secret);
  }
}

const deactivateById = (s: TestServer, token: string, license: LicenseRow, activationId: string) =>
  s.api({
    method: 'POST',
    path: `/licenses/${license.id}/deactivate`,
    token,
    body: { activation_id: activationId },
  });

describeOnEveryDatabase(
  'a shared license key does not reveal its owner or the owner’s machines',
  (server) => {
    describe('POST /licenses/activate by someone who is not the owner', () => {
      it('answers with their own machine only: no owner id, no other hardware ids or names, no subscription', async () => {
        const s = server();
        const shared = await sharedKey(s);
        const { teammate, license } = shared;
        const hw = machine('teammate');

        const response = await activate(s, teammate.token, license.license_key, hw, {
          device_name: 'Bob’s laptop',
        });
        const result = expectActivation(response, 201);
        expectNothingOfTheOwner(response.body, shared);
        expect(result).toMatchObject({ license_id: license.id, user_id: null, subscription_id: null });
        expect(result.activations?.map((item) => [item.hardware_id, item.device_name])).toEqual([
          [hw, 'Bob’s laptop'],
        ]);
        expect(result.activation.hardware_id).toBe(hw);
        // The seat count stays: it tells how full the license is, not whose machines fill it.
        expect(result.activations_used).toBe(3);

        // Activating again (200) answers the same way.
        const again = await activate(s, teammate.token, license.license_key, hw);
        expect(expectActivation(again, 200).activations?.map((item) => item.hardware_id)).toEqual([hw]);
        expectNothingOfTheOwner(again.body, shared);
      });

      it('the machine’s own checks (validate, licensing status) carry nothing of the owner either', async () => {
        const s = server();
        const shared = await sharedKey(s);
        const hw = machine('teammate');
        expectActivation(await activate(s, shared.teammate.token, shared.license.license_key, hw), 201);
        for (const check of [validate, statusOf]) {
          const response = await check(s, shared.license.license_key, hw);
          expect(response.statusCode, response.body).toBe(200);
          expectNothingOfTheOwner(response.body, shared);
        }
      });

      it('the owner still sees every machine, the teammate’s included, and their own account', async () => {
        const s = server();
        const { owner, teammate, license, ownerMachines } = await sharedKey(s);
        const hw = machine('teammate');
        expectActivation(await activate(s, teammate.token, license.license_key, hw), 201);

        const detail = licenseSchema.parse(
          (await s.api({ path: `/licenses/${license.id}`, token: owner.token })).json(),
        );
        expect(detail.user_id).toBe(owner.id);
        expect(detail.subscription_id).toBe('sub_owner_billing');
        expect(detail.activations?.map((item) => item.hardware_id).sort()).toEqual(
          [...ownerMachines, hw].sort(),
        );
        // The teammate's own list and detail stay as they were: the license is not theirs.
        const list = licenseListSchema.parse(
          (await s.api({ path: '/licenses', token: teammate.token })).json(),
        );
        expect(list.map((item) => item.license_id)).not.toContain(license.id);
        expectApiError(
          await s.api({ path: `/licenses/${license.id}`, token: teammate.token }),
          404,
          'license_not_found',
        );
      });

      it('cannot take over a machine another account holds: 409, and the seat stays theirs', async () => {
        const s = server();
        const shared = await sharedKey(s);
        const { owner, teammate, license, ownerMachines } = shared;
        const sameMachine = ownerMachines[0] as string;
        const response = await activate(s, teammate.token, license.license_key, sameMachine);
        expectApiError(response, 409, 'machine_activated_by_another_account');
        expect(response.body).not.toContain(ownerMachines[1]);
        expect((await activationRow(s, license.id, sameMachine))?.activated_by).toBe(owner.id);
      });
    });

    describe('POST /licenses/{id}/deactivate by someone who is not the owner', () => {
      it('frees the seat they took (by hardware id or activation id) and answers with their machines only', async () => {
        const s = server();
        const shared = await sharedKey(s);
        const { teammate, license, ownerMachines } = shared;
        const [first, second] = [machine('teammate-1'), machine('teammate-2')];
        expectActivation(await activate(s, teammate.token, license.license_key, first), 201);
        const { activation } = expectActivation(
          await activate(s, teammate.token, license.license_key, second),
          201,
        );

        const byHardware = await deactivate(s, teammate.token, license.id, first);
        expect(byHardware.statusCode, byHardware.body).toBe(200);
        expectNothingOfTheOwner(byHardware.body, shared);
        const after = licenseSchema.parse(byHardware.json());
        expect(after.user_id).toBeNull();
        expect(after.activations?.map((item) => [item.hardware_id, item.deactivated_reason]).sort()).toEqual(
          [
            [first, 'user'],
            [second, null],
          ].sort(),
        );

        const byId = await deactivateById(s, teammate.token, license, activation.activation_id);
        expect(byId.statusCode, byId.body).toBe(200);
        expect((await activeSeats(s, license.id)).map((row) => row.hardware_id).sort()).toEqual(
          [...ownerMachines].sort(),
        );
      });

      it('cannot free the owner’s machine: it reads as not activated, exactly like a machine that is not there', async () => {
        const s = server();
        const { owner, teammate, license, ownerMachines } = await sharedKey(s);
        expectActivation(await activate(s, teammate.token, license.license_key, machine('teammate')), 201);
        const ownerActivation = await activationRow(s, license.id, ownerMachines[0] as string);
        const before = await licensingTables(s);

        const unknown = expectApiError(
          await deactivate(s, teammate.token, license.id, machine('nowhere')),
          404,
          'activation_not_found',
        );
        expect(
          expectApiError(
            await deactivate(s, teammate.token, license.id, ownerMachines[0] as string),
            404,
            'activation_not_found',
          ),
        ).toEqual(unknown);
        expect(
          expectApiError(
            await deactivateById(s, teammate.token, license, ownerActivation?.id as string),
            404,
            'activation_not_found',
          ),
        ).toEqual(unknown);
        expect(await licensingTables(s)).toEqual(before);

        // The owner frees any machine on the license, the teammate's as well.
        const teammateSeat = (await activeSeats(s, license.id)).find(
          (row) => row.activated_by === teammate.id,
        );
        const freed = await deactivate(s, owner.token, license.id, teammateSeat?.hardware_id as string);
        expect(freed.statusCode, freed.body).toBe(200);
      });

      it('someone who never activated on the license still gets 404 license_not_found, nothing written', async () => {
        const s = server();
        const { license, ownerMachines } = await sharedKey(s);
        const stranger = await member(s);
        const before = await licensingTables(s);
        expectApiError(
          await deactivate(s, stranger.token, license.id, ownerMachines[0] as string),
          404,
          'license_not_found',
        );
        expect(await licensingTables(s)).toEqual(before);
      });
    });

    describe('the migration that records who took each seat', () => {
      it('counts seats taken before it as the license owner’s', async () => {
        const s = server();
        const { owner, license, ownerMachines } = await sharedKey(s);
        // Migrations are written against an untyped schema, as they run before the tables exist.
        const untyped = s.app.db as unknown as Kysely<unknown>;
        await activationOwner.down(untyped);
        try {
          const columns = await s.app.db.introspection.getTables();
          const activations = columns.find((table) => table.name === 'activations');
          expect(activations?.columns.map((column) => column.name)).not.toContain('activated_by');
        } finally {
          await activationOwner.up(untyped);
        }
        const rows = await s.app.db
          .selectFrom('activations')
          .select(['hardware_id', 'activated_by'])
          .where('license_id', '=', license.id)
          .execute();
        expect(rows.map((row) => [row.hardware_id, row.activated_by]).sort()).toEqual(
          ownerMachines.map((hw) => [hw, owner.id]).sort(),
        );
      });
    });
  },
  licenseSuiteOptions,
);
