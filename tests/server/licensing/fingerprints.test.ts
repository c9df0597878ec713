import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import type { AdminActivation } from '../../../src/shared/api/admin.js';
import type { LicenseStatusAnswer } from '../../../src/shared/api/licenses.js';
import type { FingerprintComponents } from '../../../src/shared/fingerprint.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import {
  componentsOf,
  activate,
  activeSeats,
  createPlan,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
} from '../helpers/license-helpers.js';
import { activateSeat, join, seatOrganisation } from '../helpers/organisation-seat-helpers.js';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

const query = (components: FingerprintComponents) =>
  Object.entries(components)
    .map(([name, value]) => `${name}:${value}`)
    .join(',');

const check = (s: TestServer, key: string, hardwareId: string, components?: FingerprintComponents) =>
  s.api({
    path: `/licensing/status?${new URLSearchParams({
      license_key: key,
      hardware_id: hardwareId,
      ...(components ? { components: query(components) } : {}),
    })}`,
  });

async function licenseWithSeats(s: TestServer, seats: number) {
  const owner = await member(s);
  const license = await giveLicense(s, owner, await createPlan(s, { seats, fingerprintThreshold: 3 }));
  return { owner, license };
}

const storedOf = async (s: TestServer, activationId: string) =>
  (
    await s.app.db
      .selectFrom('activations')
      .select(['components', 'hardware_id'])
      .where('id', '=', activationId)
      .executeTakeFirstOrThrow()
  ).components;

const history = (s: TestServer, activationId: string) =>
  s.app.db
    .selectFrom('activation_component_changes')
    .select(['changed', 'matched'])
    .where('activation_id', '=', activationId)
    .orderBy('changed_at')
    .execute();

describeOnEveryDatabase(
  'machine fingerprints with components',
  (server) => {
    it('a machine whose disk component changes keeps its seat; the change is in its history', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 1);
      const hw = machine('desk');
      const before = componentsOf('desk');
      const first = expectActivation(
        await activate(s, owner.token, license.license_key, hw, { components: before }),
        201,
      );
      const after = componentsOf('desk', { disk: hash('a new disk') });
      // The app checks with its new disk: still this machine, still valid.
      const checked = await check(s, license.license_key, hw, after);
      expect(checked.statusCode, checked.body).toBe(200);
      expect(checked.json<LicenseStatusAnswer>().activation_id).toBe(first.activation.activation_id);
      // Activating again (the 1-seat license is full) is the same machine, not a second one.
      const again = expectActivation(
        await activate(s, owner.token, license.license_key, hw, { components: after }),
        200,
      );
      expect(again.activation.activation_id).toBe(first.activation.activation_id);
      expect(await activeSeats(s, license.id)).toHaveLength(1);
      expect(await history(s, first.activation.activation_id)).toEqual([
        { changed: JSON.stringify(['disk']), matched: 4 },
      ]);
      // Administrators see it in the machine's history.
      const admin = await member(s, 'admin');
      const machines = await s.api({ path: `/admin/licenses/${license.id}/activations`, token: admin.token });
      expect(machines.statusCode).toBe(200);
      expect(machines.json<AdminActivation[]>()).toEqual([
        expect.objectContaining({
          activation_id: first.activation.activation_id,
          component_changes: [{ changed: ['disk'], matched: 4, changed_at: expect.any(String) }],
        }),
      ]);
    });

    it('a reinstalled OS (new machine id and install) keeps its seat under the new hardware id', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 1);
      const hw = machine('laptop');
      const first = expectActivation(
        await activate(s, owner.token, license.license_key, hw, {
          components: componentsOf('laptop'),
        }),
        201,
      );
      const reinstalled = componentsOf('laptop', {
        machine_id: hash('fresh machine id'),
        os_install: hash('fresh install'),
      });
      const newHw = machine('laptop-reinstalled');
      // Before activating again, its check is already answered as the known machine.
      const checked = await check(s, license.license_key, newHw, reinstalled);
      expect(checked.statusCode, checked.body).toBe(200);
      expect(decodeJwt(checked.json<LicenseStatusAnswer>().lease).hwid).toBe(newHw);
      const again = expectActivation(
        await activate(s, owner.token, license.license_key, newHw, { components: reinstalled }),
        200,
      );
      expect(again.activation.activation_id).toBe(first.activation.activation_id);
      expect(again.activation.hardware_id).toBe(newHw);
      expect(await history(s, first.activation.activation_id)).toEqual([
        { changed: JSON.stringify(['machine_id', 'os_install']), matched: 3 },
      ]);
    });

    it('a cloned machine id with other components takes a new seat, and each is checked as itself', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 2);
      const hw = machine('vm');
      const original = componentsOf('vm');
      const clone = componentsOf('clone', { machine_id: original.machine_id });
      const first = expectActivation(
        await activate(s, owner.token, license.license_key, hw, { components: original }),
        201,
      );
      // Not activated yet: the clone's check is refused, though its hardware id is known.
      const refused = await check(s, license.license_key, hw, clone);
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(500);
      expect(refused.json<{ valid: boolean }>().valid).toBe(false);

      const second = expectActivation(
        await activate(s, owner.token, license.license_key, hw, { components: clone }),
        201,
      );
      expect(second.activation.activation_id).not.toBe(first.activation.activation_id);
      expect(await activeSeats(s, license.id)).toHaveLength(2);
      // Each machine's check names its own activation; both leases bind to the id they present.
      for (const [components, id] of [
        [original, first.activation.activation_id],
        [clone, second.activation.activation_id],
      ] as const) {
        const answer = (await check(s, license.license_key, hw, components)).json<LicenseStatusAnswer>();
        expect(answer.activation_id).toBe(id);
        expect(decodeJwt(answer.lease).hwid).toBe(hw);
      }
      expect(decodeJwt(second.lease).hwid).toBe(hw);
    });

    it('a clone on a full license is refused a seat instead of sharing the original’s', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 1);
      const hw = machine('vm');
      const original = componentsOf('vm');
      expectActivation(
        await activate(s, owner.token, license.license_key, hw, { components: original }),
        201,
      );
      const clone = componentsOf('clone', { machine_id: original.machine_id });
      const refused = await activate(s, owner.token, license.license_key, hw, { components: clone });
      expect(refused.statusCode).toBe(409);
      expect(refused.json<{ code: string }>().code).toBe('activation_limit_reached');
    });

    it('older clients sending no components keep today’s behaviour', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 1);
      const hw = machine('old');
      const first = expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
      expect((await check(s, license.license_key, hw)).statusCode).toBe(200);
      const again = expectActivation(await activate(s, owner.token, license.license_key, hw), 200);
      expect(again.activation.activation_id).toBe(first.activation.activation_id);
      // A newer app on the same machine later: its components are adopted, its seat kept.
      expectActivation(
        await activate(s, owner.token, license.license_key, hw, { components: componentsOf('old') }),
        200,
      );
      expect((await check(s, license.license_key, hw, componentsOf('old'))).statusCode).toBe(200);
    });

    it('a check that sees changed components within tolerance writes them at once, with the change in the history; beyond it, refused and nothing written', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 1);
      const hw = machine('checked');
      const first = expectActivation(
        await activate(s, owner.token, license.license_key, hw, { components: componentsOf('checked') }),
        201,
      );
      const id = first.activation.activation_id;
      const newDisk = componentsOf('checked', { disk: hash('replacement disk') });
      expect((await check(s, license.license_key, hw, newDisk)).statusCode).toBe(200);
      // No activation since: the check itself kept them.
      expect(JSON.parse((await storedOf(s, id)) ?? '{}')).toEqual(newDisk);
      expect(await history(s, id)).toEqual([{ changed: JSON.stringify(['disk']), matched: 4 }]);
      // The same components again change nothing; the next change is judged against the new ones.
      expect((await check(s, license.license_key, hw, newDisk)).statusCode).toBe(200);
      expect(await history(s, id)).toHaveLength(1);
      const newBoard = { ...newDisk, board: hash('replacement board') };
      expect((await check(s, license.license_key, hw, newBoard)).statusCode).toBe(200);
      expect(await history(s, id)).toEqual([
        { changed: JSON.stringify(['disk']), matched: 4 },
        { changed: JSON.stringify(['board']), matched: 4 },
      ]);
      // Three of five changed, under a threshold of 3: another machine, refused, nothing written.
      const stranger = {
        ...newBoard,
        cpu: hash('other cpu'),
        disk: hash('other disk'),
        os_install: hash('other install'),
      };
      const refused = await check(s, license.license_key, hw, stranger);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<{ valid: boolean }>().valid).toBe(false);
      expect(JSON.parse((await storedOf(s, id)) ?? '{}')).toEqual(newBoard);
      expect(await history(s, id)).toHaveLength(2);
    });

    it('a machine that never sent components has its first ones kept by a check, without a history entry', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 1);
      const hw = machine('upgraded');
      const first = expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
      expect((await check(s, license.license_key, hw, componentsOf('upgraded'))).statusCode).toBe(200);
      expect(JSON.parse((await storedOf(s, first.activation.activation_id)) ?? '{}')).toEqual(
        componentsOf('upgraded'),
      );
      expect(await history(s, first.activation.activation_id)).toEqual([]);
    });

    it('checks racing with the same change write it once', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 1);
      const hw = machine('racing');
      const first = expectActivation(
        await activate(s, owner.token, license.license_key, hw, { components: componentsOf('racing') }),
        201,
      );
      const changed = componentsOf('racing', { cpu: hash('new cpu') });
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => check(s, license.license_key, hw, changed)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
      expect(await history(s, first.activation.activation_id)).toEqual([
        { changed: JSON.stringify(['cpu']), matched: 4 },
      ]);
    });

    it('organisation seats: a member’s machine is known by its components as a personal license’s is', async () => {
      const s = server();
      const owner = await member(s);
      const org = await seatOrganisation(s, owner, 3);
      const alice = await join(s, org);
      const hw = machine('member');
      const original = componentsOf('member');
      const first = expectActivation(
        await activateSeat(s, alice.token, org.id, hw, { components: original }),
        201,
      );
      const id = first.activation.activation_id;
      expect(JSON.parse((await storedOf(s, id)) ?? '{}')).toEqual(original);

      // A replaced disk, activated again: the same machine, the change in its history.
      const newDisk = componentsOf('member', { disk: hash('member disk 2') });
      const again = expectActivation(
        await activateSeat(s, alice.token, org.id, hw, { components: newDisk }),
        200,
      );
      expect(again.activation.activation_id).toBe(id);
      expect(await history(s, id)).toEqual([{ changed: JSON.stringify(['disk']), matched: 4 }]);
      const seatKey = again.license_key;

      // Its seat key's check sees a new board: kept at once, as for a personal license.
      const newBoard = { ...newDisk, board: hash('member board 2') };
      expect((await check(s, seatKey, hw, newBoard)).statusCode).toBe(200);
      expect(await history(s, id)).toHaveLength(2);

      // A reinstalled OS under a new hardware id keeps the key and takes the new id.
      const reinstalled = { ...newBoard, machine_id: hash('member fresh id'), os_install: hash('fresh') };
      const newHw = machine('member-reinstalled');
      const reinstalledCheck = await check(s, seatKey, newHw, reinstalled);
      expect(reinstalledCheck.statusCode, reinstalledCheck.body).toBe(200);
      expect(reinstalledCheck.json<LicenseStatusAnswer>().activation_id).toBe(id);
      expect(
        (
          await s.app.db
            .selectFrom('activations')
            .select('hardware_id')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).hardware_id,
      ).toBe(newHw);

      // A cloned VM with the same machine id and its own parts is another machine: its own place.
      const clone = componentsOf('member clone', { machine_id: reinstalled.machine_id });
      // With the original's seat key copied along, it is refused.
      const copied = await check(s, seatKey, newHw, clone);
      expect(copied.statusCode).toBe(403);
      expect(copied.json<{ code: string }>().code).toBe('machine_not_activated');
      const cloned = expectActivation(
        await activateSeat(s, alice.token, org.id, newHw, { components: clone }),
        201,
      );
      expect(cloned.activation.activation_id).not.toBe(id);
      const cloneCheck = await check(s, cloned.license_key, newHw, clone);
      expect(cloneCheck.statusCode, cloneCheck.body).toBe(200);
      expect(cloneCheck.json<LicenseStatusAnswer>().activation_id).toBe(cloned.activation.activation_id);
      // The original still checks as itself; a seat key from an unrelated machine is no key.
      expect((await check(s, seatKey, newHw, reinstalled)).json<LicenseStatusAnswer>().activation_id).toBe(
        id,
      );
      expect((await check(s, seatKey, machine('elsewhere'))).statusCode).toBe(404);
    });

    it('components that are not hashes, unknown ones, or without the machine id are a 400', async () => {
      const s = server();
      const { owner, license } = await licenseWithSeats(s, 1);
      const hw = machine('bad');
      for (const components of [
        { machine_id: 'WD-WCC4N0123456' },
        { ...componentsOf('x'), serial: hash('y') },
        { cpu: hash('cpu') },
      ]) {
        const refused = await activate(s, owner.token, license.license_key, hw, { components });
        expect(refused.statusCode).toBe(400);
        expect(refused.json<{ code: string }>().code).toBe('validation_error');
      }
      for (const text of ['machine_id:nothex', 'serial:' + hash('x'), 'cpu:' + hash('x')]) {
        const refused = await s.api({
          path: `/licensing/status?${new URLSearchParams({ license_key: license.license_key, hardware_id: hw, components: text })}`,
        });
        expect(refused.statusCode, text).toBe(400);
      }
      expect(await activeSeats(s, license.id)).toEqual([]);
    });
  },
  licenseSuiteOptions,
);
