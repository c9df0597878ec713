import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminLicenseSchema } from '../../../src/shared/api/admin.js';
import { type License, licenseSchema } from '../../../src/shared/api/licenses.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { eventsAbout, expectValidationError } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  activationRow,
  deactivate,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
  type Member,
} from '../helpers/license-helpers.js';

const rename = (s: TestServer, token: string, licenseId: string, activationId: string, body: unknown) =>
  s.api({ method: 'PATCH', path: `/licenses/${licenseId}/activations/${activationId}`, token, body });

const adminRename = (s: TestServer, token: string, licenseId: string, activationId: string, body: unknown) =>
  s.api({ method: 'PATCH', path: `/admin/licenses/${licenseId}/activations/${activationId}`, token, body });

/** The owner's license with one machine that reported itself as "Chrome on Linux". */
async function namedMachineSetup(s: TestServer) {
  const owner = await member(s);
  const license = await giveLicense(s, owner, 'pro-monthly');
  const hw = machine('laptop');
  const result = expectActivation(
    await activate(s, owner.token, license.license_key, hw, { device_name: 'Chrome on Linux' }),
    201,
  );
  return { owner, license, hw, activationId: result.activation.activation_id };
}

function machineOf(license: License, activationId: string) {
  const found = license.activations?.find((item) => item.activation_id === activationId);
  if (!found) throw new Error(`no activation ${activationId} in the answer`);
  return found;
}

describeOnEveryDatabase(
  'machine names: the owner names a machine, and activating it again keeps the name',
  (server) => {
    describe('PATCH /licenses/:id/activations/:activationId', () => {
      it('names the machine (trimmed) and shows it beside the name the device reported', async () => {
        const s = server();
        const { owner, license, activationId } = await namedMachineSetup(s);

        const response = await rename(s, owner.token, license.id, activationId, {
          label: '  Office laptop  ',
        });
        expect(response.statusCode, response.body).toBe(200);
        const answer = licenseSchema.parse(response.json());
        expect(machineOf(answer, activationId)).toMatchObject({
          label: 'Office laptop',
          device_name: 'Chrome on Linux',
        });

        const detail = licenseSchema.parse(
          (await s.api({ path: `/licenses/${license.id}`, token: owner.token })).json(),
        );
        expect(machineOf(detail, activationId).label).toBe('Office laptop');
      });

      it('activating the same hardware again refreshes the reported name but keeps the owner’s name', async () => {
        const s = server();
        const { owner, license, hw, activationId } = await namedMachineSetup(s);
        expect(
          (await rename(s, owner.token, license.id, activationId, { label: 'Office laptop' })).statusCode,
        ).toBe(200);

        const again = expectActivation(
          await activate(s, owner.token, license.license_key, hw, { device_name: 'Chromium on Linux' }),
          200,
        );
        expect(again.activation).toMatchObject({
          activation_id: activationId,
          label: 'Office laptop',
          device_name: 'Chromium on Linux',
        });

        // Freed and activated again: the same record, the name still there.
        expect((await deactivate(s, owner.token, license.id, hw)).statusCode).toBe(200);
        const back = expectActivation(
          await activate(s, owner.token, license.license_key, hw, { device_name: 'Chrome on Linux' }),
          201,
        );
        expect(back.activation).toMatchObject({ activation_id: activationId, label: 'Office laptop' });
        expect(await activationRow(s, license.id, hw)).toMatchObject({
          label: 'Office laptop',
          device_name: 'Chrome on Linux',
        });
      });

      it('null drops the name: the machine goes by the name its device reports again', async () => {
        const s = server();
        const { owner, license, hw, activationId } = await namedMachineSetup(s);
        await rename(s, owner.token, license.id, activationId, { label: 'Office laptop' });
        const response = await rename(s, owner.token, license.id, activationId, { label: null });
        expect(response.statusCode, response.body).toBe(200);
        expect(machineOf(licenseSchema.parse(response.json()), activationId).label).toBeNull();
        expect((await activationRow(s, license.id, hw))?.label).toBeNull();
      });

      it('refuses bad names with a 400 JSON error and keeps the old name', async () => {
        const s = server();
        const { owner, license, hw, activationId } = await namedMachineSetup(s);
        await rename(s, owner.token, license.id, activationId, { label: 'Office laptop' });

        const bad: [unknown, RegExp][] = [
          [{ label: '' }, /name for the machine/],
          [{ label: '    ' }, /name for the machine/],
          [{ label: 'x'.repeat(65) }, /at most 64/],
          [{ label: 'Office\nlaptop' }, /control characters/],
          [{ label: 'Tab\there' }, /control characters/],
          [{ label: 42 }, /label/],
          [{}, /label/],
          [{ label: 'Fine', extra: true }, /extra/],
        ];
        for (const [body, message] of bad) {
          expect(expectValidationError(await rename(s, owner.token, license.id, activationId, body))).toMatch(
            message,
          );
        }
        // 64 characters exactly is a name.
        expect(
          (await rename(s, owner.token, license.id, activationId, { label: 'y'.repeat(64) })).statusCode,
        ).toBe(200);
        expect((await activationRow(s, license.id, hw))?.label).toBe('y'.repeat(64));

        // A malformed machine or license id is a 400 too, never a 500.
        expectValidationError(await rename(s, owner.token, license.id, 'not-a-uuid', { label: 'A' }));
        expectValidationError(await rename(s, owner.token, 'not-a-uuid', activationId, { label: 'A' }));
      });

      it('another account’s machine reads as not found (404, not 403) and is left as it was', async () => {
        const s = server();
        const { license, hw, activationId } = await namedMachineSetup(s);
        const stranger = await member(s);

        expectApiError(
          await rename(s, stranger.token, license.id, activationId, { label: 'Mine now' }),
          404,
          'license_not_found',
        );
        // An activation of another license, through the stranger's own license: not found either.
        const own = await giveLicense(s, stranger, 'pro-monthly');
        expectApiError(
          await rename(s, stranger.token, own.id, activationId, { label: 'Mine now' }),
          404,
          'activation_not_found',
        );
        expectApiError(
          await rename(s, stranger.token, own.id, randomUUID(), { label: 'Mine now' }),
          404,
          'activation_not_found',
        );
        expect((await activationRow(s, license.id, hw))?.label).toBeNull();
        // Without a session: 401.
        expect((await rename(s, '', license.id, activationId, { label: 'A' })).statusCode).toBe(401);
      });

      it('someone using a shared key names only the machines they activated themselves', async () => {
        const s = server();
        const { owner, license, activationId: ownersMachine } = await namedMachineSetup(s);
        const colleague: Member = await member(s);
        const theirs = expectActivation(
          await activate(s, colleague.token, license.license_key, machine('colleague'), {
            device_name: 'Chrome on Linux',
          }),
          201,
        );
        const theirId = theirs.activation.activation_id;

        expect((await rename(s, colleague.token, license.id, theirId, { label: 'Desk PC' })).statusCode).toBe(
          200,
        );
        expectApiError(
          await rename(s, colleague.token, license.id, ownersMachine, { label: 'Taken' }),
          404,
          'activation_not_found',
        );
        // The owner sees and names every machine of the license.
        const byOwner = await rename(s, owner.token, license.id, theirId, { label: 'Priya’s desk PC' });
        expect(byOwner.statusCode, byOwner.body).toBe(200);
        expect(machineOf(licenseSchema.parse(byOwner.json()), theirId).label).toBe('Priya’s desk PC');
      });
    });

    describe('PATCH /admin/licenses/:id/activations/:activationId', () => {
      it('an administrator names any machine; it is recorded as an admin action', async () => {
        const s = server();
        const { owner, license, activationId } = await namedMachineSetup(s);
        const admin = await member(s, 'admin');

        const response = await adminRename(s, admin.token, license.id, activationId, { label: 'Front desk' });
        expect(response.statusCode, response.body).toBe(200);
        const answer = adminLicenseSchema.parse(response.json());
        expect(machineOf(answer, activationId).label).toBe('Front desk');

        const [event] = await eventsAbout(s, 'activation_renamed', owner.id);
        expect(event).toMatchObject({ actor_id: admin.id, severity: 'info' });
        expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
          license_id: license.id,
          activation_id: activationId,
          from: null,
          to: 'Front desk',
        });

        // The owner sees the administrator's name.
        const detail = licenseSchema.parse(
          (await s.api({ path: `/licenses/${license.id}`, token: owner.token })).json(),
        );
        expect(machineOf(detail, activationId).label).toBe('Front desk');
      });

      it('refuses bad names (400), unknown machines (404) and non-administrators (403)', async () => {
        const s = server();
        const { owner, license, activationId } = await namedMachineSetup(s);
        const admin = await member(s, 'admin');
        expectValidationError(
          await adminRename(s, admin.token, license.id, activationId, { label: 'a\u0007b' }),
        );
        expectValidationError(await adminRename(s, admin.token, license.id, activationId, { label: '' }));
        expectApiError(
          await adminRename(s, admin.token, license.id, randomUUID(), { label: 'A' }),
          404,
          'activation_not_found',
        );
        expectApiError(
          await adminRename(s, admin.token, randomUUID(), activationId, { label: 'A' }),
          404,
          'license_not_found',
        );
        expect((await adminRename(s, owner.token, license.id, activationId, { label: 'A' })).statusCode).toBe(
          403,
        );
        expect(await eventsAbout(s, 'activation_renamed', owner.id)).toEqual([]);
      });
    });
  },
  licenseSuiteOptions,
);
