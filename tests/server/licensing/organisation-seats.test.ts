import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  leaseSigningKeysSchema,
  licenseListSchema,
  licenseSchema,
  licenseStatusSchema,
  MASKED_LICENSE_KEY,
} from '../../../src/shared/api/licenses.js';
import { verifyLease } from '../../../src/shared/lease.js';
import { LICENSE_KEY_PATTERN } from '../../../src/shared/license-key.js';
import { keyFingerprint } from '../../../src/main/licensing.js';
import { issueLicense } from '../../../src/server/licensing/licenses/issue.js';
import { countAssignedSeats } from '../../../src/server/licensing/organisations/seats-repository.js';
import { buildApp } from '../../../src/server/app.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  activationRow,
  deactivate,
  expectActivation,
  expectRefusal,
  licenseSuiteOptions,
  machine,
  type Member,
  member,
  planByCode,
  statusOf,
  validate,
} from '../helpers/license-helpers.js';
import {
  activateSeat,
  addMember,
  join,
  PER_SEAT,
  type SeatOrganisation,
  seatOrganisation,
  takeSeatBack,
} from '../helpers/organisation-seat-helpers.js';

/** An organisation with a new signed-in owner. */
async function organisation(s: TestServer, seats = 3) {
  const owner = await member(s);
  return { ...(await seatOrganisation(s, owner, seats)), owner } satisfies SeatOrganisation;
}

async function publicKeys(s: TestServer) {
  const response = await s.api({ path: '/licensing/public-key' });
  expect(response.statusCode).toBe(200);
  return leaseSigningKeysSchema.parse(response.json());
}

const nowSeconds = (s: TestServer) => Math.floor(s.clock.now().getTime() / 1000);

describeOnEveryDatabase(
  'organisation seats: members activate by signing in',
  (server) => {
    it('a member activates this machine on their seat: a seat key for the app, a lease naming the seat, idempotent', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      const hw = machine('alice');

      const activated = await activateSeat(s, alice.token, org.id, hw, {
        device_name: 'Alice laptop',
        platform: 'linux',
      });
      // The organisation's key is nowhere in the answer: the app checks with this machine's seat key.
      expect(activated.body).not.toContain(org.license.license_key);
      const result = expectActivation(activated, 201);
      expect(result.license_key).toMatch(LICENSE_KEY_PATTERN);
      expect(result).toMatchObject({
        license_id: org.license.id,
        user_id: null,
        subscription_id: null,
        organisation: { id: org.id, name: org.name },
        activation: { hardware_id: hw, device_name: 'Alice laptop', deactivated_at: null },
      });
      expect(result.activations?.map((item) => item.hardware_id)).toEqual([hw]);
      expect(await activationRow(s, org.license.id, hw)).toMatchObject({ activated_by: alice.id });

      const verified = await verifyLease(result.lease, {
        keys: await publicKeys(s),
        hardwareId: hw,
        nowSeconds: nowSeconds(s),
      });
      expect(verified.ok).toBe(true);
      if (verified.ok) {
        expect(verified.claims.seat).toEqual({
          organisation_id: org.id,
          organisation_name: org.name,
          user_id: alice.id,
        });
      }

      const repeated = await activateSeat(s, alice.token, org.id, hw);
      expect(repeated.body).not.toContain(org.license.license_key);
      const again = expectActivation(repeated, 200);
      expect(again.activation.activation_id).toBe(result.activation.activation_id);
      expect(again.message).toBe('This machine was already activated');
    });

    it('the machine checks its seat with its seat key, bound to it; every answer a member gets leaves the organisation’s key out', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      const hw = machine('alice');
      const { license_key: seatKey } = expectActivation(await activateSeat(s, alice.token, org.id, hw), 201);
      expect(seatKey).not.toBe(org.license.license_key);

      // Both checks the app makes answer with the seat and a lease bound to the seat key, as the
      // desktop verifies it (src/main/licensing.ts), and nothing of the organisation's key.
      for (const response of [await validate(s, seatKey, hw), await statusOf(s, seatKey, hw)]) {
        expect(response.statusCode, response.body).toBe(200);
        expect(response.body).not.toContain(org.license.license_key);
        const answer = licenseStatusSchema.parse(response.json());
        expect(answer).toMatchObject({
          valid: true,
          license_id: org.license.id,
          seat: { organisation_id: org.id, user_id: alice.id },
        });
        const lease = await verifyLease(answer.lease ?? '', {
          keys: await publicKeys(s),
          hardwareId: hw,
          nowSeconds: nowSeconds(s),
        });
        expect(lease.ok && lease.claims.kfp).toBe(keyFingerprint(seatKey));
      }
      // The key is this machine's: with another hardware id it is no key at all.
      expectRefusal(await validate(s, seatKey, machine('elsewhere')), 404, 'license_not_found', 'not_found');

      // Every other answer a member reads: licences, the organisation, its members, the current plan.
      for (const path of [
        '/licenses',
        `/licenses/${org.license.id}`,
        `/licenses/${org.license.id}/features`,
        `/licenses/${org.license.id}/usage`,
        '/licenses/current-plan',
        '/organisations',
        `/organisations/${org.id}`,
        `/organisations/${org.id}/members`,
      ]) {
        const read = await s.api({ path, token: alice.token });
        expect(read.statusCode, `${path}: ${read.body}`).toBe(200);
        expect(read.body, path).not.toContain(org.license.license_key);
        expect(read.body, path).not.toContain(seatKey);
      }

      // Activating again hands out a fresh seat key; the one before stops working.
      const { license_key: freshKey } = expectActivation(await activateSeat(s, alice.token, org.id, hw), 200);
      expect(freshKey).not.toBe(seatKey);
      expectRefusal(await validate(s, seatKey, hw), 404, 'license_not_found', 'not_found');
      expect((await validate(s, freshKey, hw)).statusCode).toBe(200);

      // The app asks for updates with the same key.
      const updates = await s.api({
        method: 'POST',
        path: '/updates/check',
        body: { license_key: freshKey, hardware_id: hw, platform: 'linux' },
      });
      expect(updates.statusCode, updates.body).toBe(200);
      expect(updates.json<{ feed_url: string }>().feed_url).toContain('/update-feed/');

      // Her seat taken back, the seat key's check is refused with the reason, as the key's is.
      await takeSeatBack(s, org, alice);
      const refused = await validate(s, freshKey, hw);
      expect(expectRefusal(refused, 403, 'machine_deactivated', 'deactivated').detail).toContain(
        'taken back',
      );
      expect(refused.body).not.toContain(org.license.license_key);
    });

    it('the member sees the licence as provided by the organisation, with their own machines and no key', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      const bob = await join(s, org);
      const aliceHw = machine('alice');
      expectActivation(await activateSeat(s, alice.token, org.id, aliceHw), 201);
      expectActivation(await activateSeat(s, bob.token, org.id, machine('bob')), 201);

      const list = licenseListSchema.parse((await s.api({ path: '/licenses', token: alice.token })).json());
      const provided = list.find((item) => item.license_id === org.license.id);
      expect(provided).toMatchObject({
        license_key: MASKED_LICENSE_KEY,
        user_id: null,
        organisation: { id: org.id, name: org.name },
      });
      expect(provided?.activations?.map((item) => item.hardware_id)).toEqual([aliceHw]);
      const detail = await s.api({ path: `/licenses/${org.license.id}`, token: alice.token });
      expect(detail.statusCode, detail.body).toBe(200);
      const license = licenseSchema.parse(detail.json());
      expect(license.license_key).toBe(MASKED_LICENSE_KEY);
      expect(license.activations?.map((item) => item.hardware_id)).toEqual([aliceHw]);
      expect(detail.body).not.toContain(org.license.license_key);
      // The license's features and usage are hers to read as well; nobody else's.
      for (const path of ['features', 'usage']) {
        const read = await s.api({ path: `/licenses/${org.license.id}/${path}`, token: alice.token });
        expect(read.statusCode, read.body).toBe(200);
        expect(read.body).not.toContain(org.license.license_key);
      }

      // Her seat gives her the plan, as a license of her own would.
      const current = await s.api({ path: '/licenses/current-plan', token: alice.token });
      expect(current.json()).toMatchObject({
        plan: { code: 'business-monthly' },
        license: { license_id: org.license.id, license_key: MASKED_LICENSE_KEY },
      });

      // The owner sees the license whole; a member without a seat does not see it at all.
      const owners = licenseListSchema.parse(
        (await s.api({ path: '/licenses', token: org.owner.token })).json(),
      );
      expect(owners.find((item) => item.license_id === org.license.id)).toMatchObject({
        license_key: org.license.license_key,
        organisation: { id: org.id, name: org.name },
      });
      const seatless = await join(s, org, { seat: false });
      const none = licenseListSchema.parse(
        (await s.api({ path: '/licenses', token: seatless.token })).json(),
      );
      expect(none.some((item) => item.license_id === org.license.id)).toBe(false);
      expectApiError(
        await s.api({ path: `/licenses/${org.license.id}`, token: seatless.token }),
        404,
        'license_not_found',
      );
      expectApiError(
        await s.api({ path: `/licenses/${org.license.id}/features`, token: seatless.token }),
        404,
        'license_not_found',
      );
    });

    it('each member may use the machines a seat allows: the next is 409 seat_machine_limit, freeing one makes room', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      const bob = await join(s, org);
      const machines = Array.from({ length: PER_SEAT }, (_, index) => machine(`a${index}`));
      for (const hw of machines) expectActivation(await activateSeat(s, alice.token, org.id, hw), 201);

      const extra = machine('extra');
      const refused = await activateSeat(s, alice.token, org.id, extra);
      expectApiError(refused, 409, 'seat_machine_limit');
      expect(refused.json().message).toContain(org.name);
      expect(await activationRow(s, org.license.id, extra)).toBeUndefined();
      // The same machine again is still fine, and another member's seat is their own.
      expectActivation(await activateSeat(s, alice.token, org.id, machines[0] as string), 200);
      expectActivation(await activateSeat(s, bob.token, org.id, machine('bob')), 201);
      // Another member's machine stays theirs.
      expectApiError(
        await activateSeat(s, bob.token, org.id, machines[0] as string),
        409,
        'machine_activated_by_another_account',
      );

      // Freeing one of her machines (the license page's deactivate) makes room for the new one.
      const freed = await deactivate(s, alice.token, org.license.id, machines[1] as string);
      expect(freed.statusCode, freed.body).toBe(200);
      expectActivation(await activateSeat(s, alice.token, org.id, extra), 201);
    });

    it('without a seat → 403 no_seat; outsiders and unknown organisations → 404; bad input → 400', async () => {
      const s = server();
      const org = await organisation(s);
      const seatless = await join(s, org, { seat: false });
      const noSeat = await activateSeat(s, seatless.token, org.id, machine());
      expectApiError(noSeat, 403, 'no_seat');
      expect(noSeat.json().message).toContain(`${org.name}'s administrators`);

      const outsider = await member(s);
      expectApiError(await activateSeat(s, outsider.token, org.id, machine()), 404, 'organisation_not_found');
      expectApiError(
        await activateSeat(s, outsider.token, randomUUID(), machine()),
        404,
        'organisation_not_found',
      );
      // A platform administrator sees the organisation, but holds no seat in it.
      const admin = await member(s, 'admin');
      expectApiError(await activateSeat(s, admin.token, org.id, machine()), 403, 'no_seat');

      const alice = await join(s, org);
      expectApiError(await activateSeat(s, alice.token, org.id, 'bad id!'), 400, 'validation_error');
      expectApiError(await activateSeat(s, alice.token, 'not-a-uuid', machine()), 400, 'validation_error');
      expect(
        (
          await s.api({
            method: 'POST',
            path: `/organisations/${org.id}/seat/activate`,
            body: { hardware_id: machine() },
          })
        ).statusCode,
      ).toBe(401);
      const none = await s.app.db
        .selectFrom('activations')
        .select('id')
        .where('license_id', '=', org.license.id)
        .execute();
      expect(none).toHaveLength(0);
    });

    it('by organisation role: owner, admin and member activate on their seats; outsider 404; platform admin 403 until a member', async () => {
      const s = server();
      const org = await organisation(s, 4);
      const admin = await join(s, org, { role: 'admin' });
      const plain = await join(s, org);
      const outsider = await member(s);
      const platformAdmin = await member(s, 'admin');
      const expected: [Member, number, string | null][] = [
        [org.owner, 201, null],
        [admin, 201, null],
        [plain, 201, null],
        [outsider, 404, 'organisation_not_found'],
        [platformAdmin, 403, 'no_seat'],
      ];
      for (const [who, status, code] of expected) {
        const response = await activateSeat(s, who.token, org.id, machine());
        if (code === null) expectActivation(response, status as 201);
        else expectApiError(response, status, code);
      }
      await addMember(s, org, platformAdmin);
      expectActivation(await activateSeat(s, platformAdmin.token, org.id, machine()), 201);
    });

    it('an inactive licence is refused as ever', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      await s.app.db
        .updateTable('licenses')
        .set({ status: 'suspended' })
        .where('id', '=', org.license.id)
        .execute();
      expectApiError(await activateSeat(s, alice.token, org.id, machine()), 403, 'license_suspended');
    });

    it('the organisation’s key typed into /licenses/activate → 403 activate_by_sign_in, for anyone', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      for (const who of [org.owner, alice, await member(s)]) {
        const refused = await activate(s, who.token, org.license.license_key, machine());
        expectApiError(refused, 403, 'activate_by_sign_in');
        expect(refused.json().message).toBe(
          `This is ${org.name}'s license: sign in with the account you were invited with and choose Activate on this machine.`,
        );
      }
      const none = await s.app.db
        .selectFrom('activations')
        .select('id')
        .where('license_id', '=', org.license.id)
        .execute();
      expect(none).toHaveLength(0);
    });

    it('checks name the organisation and the seat; a renamed organisation gets a fresh answer', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      const hw = machine('alice');
      expectActivation(await activateSeat(s, alice.token, org.id, hw), 201);
      const keys = await publicKeys(s);

      for (const check of [validate, statusOf]) {
        const response = await check(s, org.license.license_key, hw);
        expect(response.statusCode, response.body).toBe(200);
        const answer = licenseStatusSchema.parse(response.json());
        const seat = { organisation_id: org.id, organisation_name: org.name, user_id: alice.id };
        expect(answer.seat).toEqual(seat);
        const verified = await verifyLease(answer.lease, { keys, hardwareId: hw, nowSeconds: nowSeconds(s) });
        expect(verified.ok && verified.claims.seat).toEqual(seat);
      }

      await s.app.db
        .updateTable('organisations')
        .set({ name: 'Renamed Ltd' })
        .where('id', '=', org.id)
        .execute();
      const renamed = licenseStatusSchema.parse((await statusOf(s, org.license.license_key, hw)).json());
      expect(renamed.seat?.organisation_name).toBe('Renamed Ltd');
      const verified = await verifyLease(renamed.lease, { keys, hardwareId: hw, nowSeconds: nowSeconds(s) });
      expect(verified.ok && verified.claims.seat?.organisation_name).toBe('Renamed Ltd');

      // The machine passing to another member's seat changes the answer as well.
      const bob = await join(s, org);
      expect((await deactivate(s, alice.token, org.license.id, hw)).statusCode).toBe(200);
      expectActivation(await activateSeat(s, bob.token, org.id, hw), 201);
      const moved = licenseStatusSchema.parse((await statusOf(s, org.license.license_key, hw)).json());
      expect(moved.seat).toEqual({
        organisation_id: org.id,
        organisation_name: 'Renamed Ltd',
        user_id: bob.id,
      });

      // A personal license's answer and lease name no seat.
      const personal = await member(s);
      const own = await issueLicense(s.app.db, s.clock, s.app.events, {
        userId: personal.id,
        plan: await planByCode(s, 'pro-monthly'),
      });
      const ownHw = machine('own');
      expectActivation(await activate(s, personal.token, own.license_key, ownHw), 201);
      const plain = licenseStatusSchema.parse((await statusOf(s, own.license_key, ownHw)).json());
      expect(plain.seat).toBeNull();
      const plainLease = await verifyLease(plain.lease, {
        keys,
        hardwareId: ownHw,
        nowSeconds: nowSeconds(s),
      });
      expect(plainLease.ok && 'seat' in plainLease.claims).toBe(false);
    });

    it('a removed member’s next check is refused naming the organisation, and the seat is free', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      const hw = machine('alice');
      expectActivation(await activateSeat(s, alice.token, org.id, hw), 201);
      expect((await statusOf(s, org.license.license_key, hw)).statusCode).toBe(200);
      const assigned = await countAssignedSeats(s.app.db, org.id);

      await takeSeatBack(s, org, alice);
      for (const check of [statusOf, validate]) {
        const refusal = expectRefusal(
          await check(s, org.license.license_key, hw),
          403,
          'machine_deactivated',
          'deactivated',
        );
        expect(refusal.message).toContain(`Your seat in ${org.name} was taken back`);
        expect(refusal.message).toContain(`Ask ${org.name}'s administrators`);
      }
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(assigned - 1);
      expectApiError(await activateSeat(s, alice.token, org.id, hw), 403, 'no_seat');
      // Her machines are free: a new member's machines fit on the license.
      const carol = await join(s, org);
      expectActivation(await activateSeat(s, carol.token, org.id, hw), 201);
    });

    it('removed through the organisation’s own route: the member’s machine is refused at its next check, the seat free', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      const hw = machine('alice');
      expectActivation(await activateSeat(s, alice.token, org.id, hw), 201);
      const before = await countAssignedSeats(s.app.db, org.id);

      const removed = await s.api({
        method: 'DELETE',
        path: `/organisations/${org.id}/members/${alice.id}`,
        token: org.owner.token,
      });
      expect([200, 204], removed.body).toContain(removed.statusCode);
      const refusal = expectRefusal(
        await statusOf(s, org.license.license_key, hw),
        403,
        'machine_deactivated',
        'deactivated',
      );
      expect(refusal.message).toContain(`Your seat in ${org.name} was taken back`);
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(before - 1);
      expectApiError(await activateSeat(s, alice.token, org.id, machine()), 404, 'organisation_not_found');
    });

    it('a removed member’s offline machine keeps working on its lease until the lease expires', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      const hw = machine('alice');
      expectActivation(await activateSeat(s, alice.token, org.id, hw), 201);
      const answer = licenseStatusSchema.parse((await statusOf(s, org.license.license_key, hw)).json());
      const keys = await publicKeys(s);
      const lastCheck = nowSeconds(s);

      // Removed while the machine is offline: it never hears of it.
      await takeSeatBack(s, org, alice);
      const expiresAt = Date.parse(answer.lease_expires_at);
      s.clock.advance(expiresAt - s.clock.now().getTime() - 60_000);
      const stillValid = await verifyLease(answer.lease, {
        keys,
        hardwareId: hw,
        nowSeconds: nowSeconds(s),
        lastSeenSeconds: lastCheck,
      });
      expect(stillValid).toMatchObject({ ok: true, claims: { seat: { user_id: alice.id } } });

      s.clock.advance(120_000);
      expect(
        await verifyLease(answer.lease, {
          keys,
          hardwareId: hw,
          nowSeconds: nowSeconds(s),
          lastSeenSeconds: lastCheck,
        }),
      ).toMatchObject({ ok: false, problem: 'expired' });
      // Back online, its check is refused with the reason.
      expectRefusal(
        await statusOf(s, org.license.license_key, hw),
        403,
        'machine_deactivated',
        'deactivated',
      );
    });

    it('the same member activating two machines at once for their last place: exactly one gets it', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      for (let round = 0; round < 3; round += 1) {
        // One place left on her seat, two machines racing for it.
        await s.app.db
          .updateTable('activations')
          .set({ deactivated_at: s.clock.now().toISOString(), deactivated_reason: 'user' })
          .where('activated_by', '=', alice.id)
          .where('deactivated_at', 'is', null)
          .execute();
        expectActivation(await activateSeat(s, alice.token, org.id, machine(`first${round}`)), 201);
        const racing = [machine(`x${round}`), machine(`y${round}`)];
        const answers = await Promise.all(racing.map((hw) => activateSeat(s, alice.token, org.id, hw)));
        const statuses = answers.map((response) => response.statusCode).sort();
        expect(statuses).toEqual([201, 409]);
        const active = await s.app.db
          .selectFrom('activations')
          .select('hardware_id')
          .where('activated_by', '=', alice.id)
          .where('deactivated_at', 'is', null)
          .execute();
        expect(active).toHaveLength(PER_SEAT);
      }
    });

    it('two instances on one database, the same member’s two machines at once for the last place: exactly one', async () => {
      const s = server();
      const org = await organisation(s);
      const alice = await join(s, org);
      expectActivation(await activateSeat(s, alice.token, org.id, machine('first')), 201);
      // The second instance: its own app and connection pool on the same database and clock.
      const second = await buildApp(s.config, { clock: s.clock, logger: false });
      try {
        const racing = [machine('x'), machine('y')];
        const [one, other] = await Promise.all([
          activateSeat(s, alice.token, org.id, racing[0] as string),
          second.inject({
            method: 'POST',
            url: `/api/v1/organisations/${org.id}/seat/activate`,
            headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${alice.token}` },
            payload: { hardware_id: racing[1] },
          }),
        ]);
        expect([one.statusCode, other.statusCode].sort()).toEqual([201, 409]);
        const active = await s.app.db
          .selectFrom('activations')
          .select('hardware_id')
          .where('activated_by', '=', alice.id)
          .where('deactivated_at', 'is', null)
          .execute();
        expect(active).toHaveLength(PER_SEAT);
      } finally {
        await second.close();
      }
    });
  },
  licenseSuiteOptions,
);
