import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import {
  type FloatingMemberSeat,
  floatingMemberSeatSchema,
  floatingReleaseSchema,
  floatingSeatAnswerSchema,
  floatingSeatsFullSchema,
  floatingSeatsSchema,
} from '../../../src/shared/api/floating.js';
import { licenseStatusSchema } from '../../../src/shared/api/licenses.js';
import { organisationSchema } from '../../../src/shared/api/organisations.js';
import { planSchema } from '../../../src/shared/api/plans.js';
import { buildApp } from '../../../src/server/app.js';
import type { PlanRow } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  createPlan,
  licenseSuiteOptions,
  machine,
  member,
  type Member,
  statusOf,
  validate,
} from '../helpers/license-helpers.js';
import { join, seatOrganisation } from '../helpers/organisation-seat-helpers.js';

// Members of an organisation on a floating plan take seats of its pool with their own account:
// signed in, a machine checks a seat out and gets a key of its own (never the organisation's), with
// which it heartbeats, borrows, releases and passes the license check, as a personal license's
// machine does with its key.

const MINUTE_MS = 60_000;

const floatingPlan = (s: TestServer, borrowDays = 7): Promise<PlanRow> =>
  createPlan(s, {
    price: 99_900,
    interval: 'month',
    features: { ai_chat: 100 },
    floating: { seats: 50, leaseMinutes: 15, borrowDays },
  });

/** An organisation with `seats` floating seats bought, its owner and a member without a named seat. */
async function floatingOrganisation(s: TestServer, seats = 2) {
  const owner = await member(s);
  const organisation = await seatOrganisation(s, owner, seats, await floatingPlan(s));
  const colleague = await join(s, organisation, { seat: false });
  return { organisation, owner: owner as Member, colleague };
}

const signedInCheckout = (s: TestServer, who: Member, organisationId: string, hw: string, name?: string) =>
  s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/floating/checkout`,
    token: who.token,
    body: { hardware_id: hw, ...(name ? { device_name: name } : {}) },
  });

const post = (s: TestServer, path: string, body: unknown) =>
  s.api({ method: 'POST', path: `/licensing/floating/${path}`, body });

function expectMemberSeat(response: LightMyRequestResponse, status = 201): FloatingMemberSeat {
  expect(response.statusCode, response.body).toBe(status);
  return floatingMemberSeatSchema.parse(response.json());
}

const seatRows = (s: TestServer, licenseId: string) =>
  s.app.db.selectFrom('floating_seats').selectAll().where('license_id', '=', licenseId).execute();

describeOnEveryDatabase(
  "members on an organisation's floating seats",
  (server) => {
    it('a member without a named seat checks out signed in and runs on the machine’s own key: heartbeat, license check, borrow, release', async () => {
      const s = server();
      s.clock.freeze();
      const { organisation, colleague } = await floatingOrganisation(s);
      const hw = machine('member');

      const seat = expectMemberSeat(await signedInCheckout(s, colleague, organisation.id, hw, 'Desk'));
      expect(seat).toMatchObject({ seats: 2, in_use: 1, organisation_id: organisation.id });
      expect(seat.organisation_name).toBe(organisation.name);
      // The machine's own key, never the organisation's.
      expect(seat.seat_key).not.toBe(organisation.license.license_key);
      const rows = await seatRows(s, organisation.license.id);
      expect(rows.map((row) => row.held_by)).toEqual([colleague.id]);

      // The same machine signed in again renews its seat, and the new key replaces the old one.
      const again = expectMemberSeat(await signedInCheckout(s, colleague, organisation.id, hw), 200);
      expect(again.seat_id).toBe(seat.seat_id);
      expectApiError(
        await post(s, 'heartbeat', { license_key: seat.seat_key, hardware_id: hw }),
        404,
        'license_not_found',
      );
      const key = again.seat_key;

      s.clock.advance(10 * MINUTE_MS);
      const beat = await post(s, 'heartbeat', { license_key: key, hardware_id: hw });
      expect(beat.statusCode, beat.body).toBe(200);
      expect(floatingSeatAnswerSchema.parse(beat.json()).seat_id).toBe(seat.seat_id);
      // The key works from its machine alone.
      expectApiError(
        await post(s, 'heartbeat', { license_key: key, hardware_id: machine('other') }),
        404,
        'license_not_found',
      );

      // The license check accepts the key on the machine that holds the seat.
      const check = await validate(s, key, hw);
      expect(check.statusCode, check.body).toBe(200);
      const status = licenseStatusSchema.parse(check.json());
      expect(status).toMatchObject({ valid: true, activation_id: null });
      expect(status.floating_seat?.seat_id).toBe(seat.seat_id);
      expect(status.seat).toEqual({
        organisation_id: organisation.id,
        organisation_name: organisation.name,
        user_id: colleague.id,
      });
      // The desktop's background check too, and its update check.
      expect((await statusOf(s, key, hw)).statusCode).toBe(200);
      const update = (hardware_id: string) =>
        s.api({
          method: 'POST',
          path: '/updates/check',
          body: { license_key: key, hardware_id, platform: 'linux' },
        });
      const updates = await update(hw);
      expect(updates.statusCode, updates.body).toBe(200);
      expect((await update(machine('elsewhere'))).statusCode).toBe(403);

      const borrowed = await post(s, 'borrow', { license_key: key, hardware_id: hw, days: 3 });
      expect(borrowed.statusCode, borrowed.body).toBe(200);
      expect(floatingSeatAnswerSchema.parse(borrowed.json()).borrowed_until).not.toBeNull();
      const returned = await post(s, 'return', { license_key: key, hardware_id: hw });
      expect(floatingReleaseSchema.parse(returned.json()).released).toBe(true);
      expect(await seatRows(s, organisation.license.id)).toHaveLength(0);

      // Released, the check refuses the machine again.
      const after = await validate(s, key, hw);
      expect(after.statusCode).toBe(403);
    });

    it('all seats out: the next member is told who holds them; the organisation’s managers see and free them', async () => {
      const s = server();
      const { organisation, owner, colleague } = await floatingOrganisation(s, 1);
      expectMemberSeat(await signedInCheckout(s, owner, organisation.id, machine('owner'), 'Owner desk'));

      const full = await signedInCheckout(s, colleague, organisation.id, machine('late'), 'Late');
      expectApiError(full, 409, 'floating_seats_full');
      const refusal = floatingSeatsFullSchema.parse(full.json());
      expect(refusal.holders.map((holder) => holder.device_name)).toEqual(['Owner desk']);

      const seats = await s.api({
        path: `/licenses/${organisation.license.id}/floating/seats`,
        token: owner.token,
      });
      const held = floatingSeatsSchema.parse(seats.json());
      expect(held.in_use.map((holder) => holder.device_name)).toEqual(['Owner desk']);
      // A plain member may not read or free them.
      expectApiError(
        await s.api({ path: `/licenses/${organisation.license.id}/floating/seats`, token: colleague.token }),
        404,
        'license_not_found',
      );
      const freed = await s.api({
        method: 'DELETE',
        path: `/licenses/${organisation.license.id}/floating/seats/${held.in_use[0]?.seat_id ?? ''}`,
        token: owner.token,
      });
      expect(freed.statusCode, freed.body).toBe(200);
      expectMemberSeat(await signedInCheckout(s, colleague, organisation.id, machine('late'), 'Late'));
    });

    it('holders name their member only to those allowed: the member themself, the owner and admins, platform administrators; others see machines alone', async () => {
      const s = server();
      const { organisation, owner, colleague } = await floatingOrganisation(s, 2);
      await s.app.db
        .updateTable('users')
        .set({ full_name: 'Ada Lovelace' })
        .where('id', '=', owner.id)
        .execute();
      const manager = await join(s, organisation, { role: 'admin' });
      const plain = await join(s, organisation);
      const administrator = await member(s, 'admin');
      expectMemberSeat(await signedInCheckout(s, owner, organisation.id, machine('owner'), 'Owner desk'));
      expectMemberSeat(await signedInCheckout(s, colleague, organisation.id, machine('col'), 'Colleague pc'));
      const names = (holders: { device_name: string | null; member?: { name: string; user_id: string } }[]) =>
        Object.fromEntries(holders.map((holder) => [holder.device_name, holder.member ?? null]));

      // A plain member told all seats are out sees the machines and since when, no one's name.
      const refused = await signedInCheckout(s, plain, organisation.id, machine('plain'), 'Plain');
      expectApiError(refused, 409, 'floating_seats_full');
      expect(names(floatingSeatsFullSchema.parse(refused.json()).holders)).toEqual({
        'Owner desk': null,
        'Colleague pc': null,
      });
      expect(refused.body).not.toContain(owner.email);
      expect(refused.body).not.toContain(colleague.email);
      // The member themself, from another machine of theirs: their own seat named, the other not.
      const own = await signedInCheckout(s, colleague, organisation.id, machine('col2'), 'Colleague laptop');
      expect(names(floatingSeatsFullSchema.parse(own.json()).holders)).toEqual({
        'Owner desk': null,
        'Colleague pc': { user_id: colleague.id, name: colleague.email },
      });
      // The organisation's admin told so sees every member (full name, else e-mail).
      const told = await signedInCheckout(s, manager, organisation.id, machine('mgr'), 'Manager pc');
      const everyone = {
        'Owner desk': { user_id: owner.id, name: 'Ada Lovelace' },
        'Colleague pc': { user_id: colleague.id, name: colleague.email },
      };
      expect(names(floatingSeatsFullSchema.parse(told.json()).holders)).toEqual(everyone);
      // The pool on the organisation's page: its owner, admins and platform administrators see names.
      for (const who of [owner, manager, administrator]) {
        const seats = await s.api({
          path: `/licenses/${organisation.license.id}/floating/seats`,
          token: who.token,
        });
        expect(names(floatingSeatsSchema.parse(seats.json()).in_use)).toEqual(everyone);
      }
    });

    it('who may check out: a member of another organisation and an outsider get 404, a platform administrator outside it 403, a named-seat plan 409', async () => {
      const s = server();
      const a = await floatingOrganisation(s);
      const b = await floatingOrganisation(s);
      const hw = machine('cross');
      expectApiError(
        await signedInCheckout(s, a.colleague, b.organisation.id, hw),
        404,
        'organisation_not_found',
      );
      expectApiError(
        await signedInCheckout(s, await member(s), a.organisation.id, hw),
        404,
        'organisation_not_found',
      );
      expectApiError(
        await signedInCheckout(s, await member(s, 'admin'), a.organisation.id, hw),
        403,
        'not_a_member',
      );
      expectApiError(
        await signedInCheckout(s, a.colleague, 'no-such-organisation', hw),
        400,
        'validation_error',
      );
      expect(await seatRows(s, b.organisation.license.id)).toHaveLength(0);

      // A floating pool has no activations: activating on a seat is refused, seat or none.
      for (const who of [a.colleague, a.owner])
        expectApiError(
          await s.api({
            method: 'POST',
            path: `/organisations/${a.organisation.id}/seat/activate`,
            token: who.token,
            body: { hardware_id: hw },
          }),
          409,
          'license_floating',
        );

      // A's member's key takes nothing of B's: it names A's license alone.
      const seat = expectMemberSeat(await signedInCheckout(s, a.colleague, a.organisation.id, hw));
      expect(seat.license_id).toBe(a.organisation.license.id);

      const named = await seatOrganisation(s, await member(s), 3);
      const namedMember = await join(s, named, { seat: true });
      expectApiError(await signedInCheckout(s, namedMember, named.id, hw), 409, 'license_not_floating');

      // Bad input is a 400 with its detail, never a 500.
      const bad = await s.api({
        method: 'POST',
        path: `/organisations/${a.organisation.id}/floating/checkout`,
        token: a.colleague.token,
        body: { hardware_id: '', extra: 1 },
      });
      expectApiError(bad, 400, 'validation_error');
      expect(
        (
          await s.api({
            method: 'POST',
            path: `/organisations/${a.organisation.id}/floating/checkout`,
            body: { hardware_id: hw },
          })
        ).statusCode,
      ).toBe(401);
    });

    it('a removed member’s seats come back at once, and their machine’s key is refused from then on', async () => {
      const s = server();
      const { organisation, owner, colleague } = await floatingOrganisation(s);
      const hw = machine('leaver');
      const { seat_key: key } = expectMemberSeat(await signedInCheckout(s, colleague, organisation.id, hw));

      const removed = await s.api({
        method: 'DELETE',
        path: `/organisations/${organisation.id}/members/${colleague.id}`,
        token: owner.token,
      });
      expect(removed.statusCode, removed.body).toBe(204);
      expect(await seatRows(s, organisation.license.id)).toHaveLength(0);

      expectApiError(await post(s, 'checkout', { license_key: key, hardware_id: hw }), 403, 'not_a_member');
      expectApiError(await post(s, 'heartbeat', { license_key: key, hardware_id: hw }), 403, 'not_a_member');
      expectApiError(
        await signedInCheckout(s, colleague, organisation.id, hw),
        404,
        'organisation_not_found',
      );
      const check = await validate(s, key, hw);
      expect(check.statusCode).toBe(404);
      expect(await seatRows(s, organisation.license.id)).toHaveLength(0);
    });

    it('an erased member’s seats come back at once, in the erasure’s transaction, and their machine’s key is refused', async () => {
      const s = server();
      const { organisation, owner, colleague } = await floatingOrganisation(s);
      const administrator = await member(s, 'admin');
      const hw = machine('erased');
      const { seat_key: key } = expectMemberSeat(await signedInCheckout(s, colleague, organisation.id, hw));
      expectMemberSeat(await signedInCheckout(s, owner, organisation.id, machine('stays')));
      // Borrowed for days: only the erasure, not a lapse, can give it back now.
      expect((await post(s, 'borrow', { license_key: key, hardware_id: hw, days: 7 })).statusCode).toBe(200);

      const erased = await s.api({
        method: 'POST',
        path: `/admin/users/${colleague.id}/erase`,
        token: administrator.token,
        body: { reason: 'asked by the organisation' },
      });
      expect(erased.statusCode, erased.body).toBeLessThan(300);
      const left = await seatRows(s, organisation.license.id);
      expect(left.map((row) => row.held_by)).toEqual([owner.id]);
      expectApiError(await post(s, 'heartbeat', { license_key: key, hardware_id: hw }), 403, 'not_a_member');
      expect((await validate(s, key, hw)).statusCode).toBe(404);
    });

    it('a floating organisation invites past its seats and members join without a named seat; its seats read as floating', async () => {
      const s = server();
      const { organisation, owner } = await floatingOrganisation(s, 1);
      for (const address of ['one@example.com', 'two@example.com', 'three@example.com']) {
        const invited = await s.api({
          method: 'POST',
          path: `/organisations/${organisation.id}/invitations`,
          token: owner.token,
          body: { email: address, role: 'member' },
        });
        expect(invited.statusCode, invited.body).toBe(201);
      }
      const view = organisationSchema.parse(
        (await s.api({ path: `/organisations/${organisation.id}`, token: owner.token })).json(),
      );
      expect(view.seats?.floating).toEqual({ concurrent: 1, lease_minutes: 15, max_borrow_days: 7 });
    });

    it('an administrator makes the organisations’ per-seat plan floating in the plan editor’s API, with bad values refused, and back', async () => {
      const s = server();
      const admin = await member(s, 'admin');
      const owner = await member(s);
      const organisation = await seatOrganisation(s, owner, 4);
      const plan = organisation.license.plan_id;
      const put = (body: unknown) =>
        s.api({ method: 'PUT', path: `/plans/${plan}`, token: admin.token, body });
      const seatsOf = async () =>
        organisationSchema.parse(
          (await s.api({ path: `/organisations/${organisation.id}`, token: owner.token })).json(),
        ).seats;
      expect((await seatsOf())?.floating).toBeNull();

      for (const bad of [
        { seats: 0 },
        { seats: 2, lease_minutes: 0 },
        { seats: 2, max_borrow_days: 91 },
        { seats: 'two' },
        { seats: 2, extra: true },
      ]) {
        const refused = await put({ floating: bad });
        expectApiError(refused, 400, 'validation_error');
      }
      const made = await put({ floating: { seats: 1, lease_minutes: 30, max_borrow_days: 2 } });
      expect(made.statusCode, made.body).toBe(200);
      expect(planSchema.parse(made.json())).toMatchObject({ seat_based: true });
      // The organisation's pool is the seats it bought, whatever the plan's own count.
      expect((await seatsOf())?.floating).toEqual({ concurrent: 4, lease_minutes: 30, max_borrow_days: 2 });

      expect((await put({ floating: null })).statusCode).toBe(200);
      expect((await seatsOf())?.floating).toBeNull();
    });

    it('N + 1 members’ machines at once on the last seats: exactly N hold one', async () => {
      const s = server();
      for (const seats of [1, 3]) {
        const owner = await member(s);
        const organisation = await seatOrganisation(s, owner, seats, await floatingPlan(s));
        const people = await Promise.all(
          Array.from({ length: seats + 1 }, () => join(s, organisation, { seat: false })),
        );
        const answers = await Promise.all(
          people.map((who, index) => signedInCheckout(s, who, organisation.id, machine(`rush${index}`))),
        );
        expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(seats);
        expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(1);
        expect(await seatRows(s, organisation.license.id)).toHaveLength(seats);
      }
    });

    it('two instances on one database, N + 1 members’ machines split between them for the last seats: exactly N hold one', async () => {
      const s = server();
      const second = await buildApp(s.config, { clock: s.clock, logger: false });
      try {
        for (const seats of [1, 4]) {
          const owner = await member(s);
          const organisation = await seatOrganisation(s, owner, seats, await floatingPlan(s));
          const people = await Promise.all(
            Array.from({ length: seats + 1 }, () => join(s, organisation, { seat: false })),
          );
          const answers = await Promise.all(
            people.map((who, index) => {
              const hw = machine(`pair${index}`);
              return index % 2 === 0
                ? signedInCheckout(s, who, organisation.id, hw)
                : second.inject({
                    method: 'POST',
                    url: `/api/v1/organisations/${organisation.id}/floating/checkout`,
                    headers: { authorization: `Bearer ${who.token}`, 'x-api-key': WEB_API_KEY },
                    payload: { hardware_id: hw },
                  });
            }),
          );
          expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(seats);
          expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(1);
          expect(await seatRows(s, organisation.license.id)).toHaveLength(seats);
          // Each seat is a different member's, with a key of its machine's own.
          const keys = await s.app.db
            .selectFrom('floating_member_keys')
            .select('user_id')
            .where('license_id', '=', organisation.license.id)
            .execute();
          expect(new Set(keys.map((row) => row.user_id)).size).toBe(seats);
        }
      } finally {
        await second.close();
      }
    });

    it('a checkout racing the member’s removal: either the removal frees the seat or the checkout is refused, never a seat left', async () => {
      const s = server();
      for (let round = 0; round < 4; round++) {
        const { organisation, owner, colleague } = await floatingOrganisation(s);
        const hw = machine('racer');
        const { seat_key: key } = expectMemberSeat(await signedInCheckout(s, colleague, organisation.id, hw));
        await post(s, 'release', { license_key: key, hardware_id: hw });
        const [checkedOut, removed] = await Promise.all([
          post(s, 'checkout', { license_key: key, hardware_id: hw }),
          s.api({
            method: 'DELETE',
            path: `/organisations/${organisation.id}/members/${colleague.id}`,
            token: owner.token,
          }),
        ]);
        expect(removed.statusCode, removed.body).toBe(204);
        expect([201, 403]).toContain(checkedOut.statusCode);
        expect(await seatRows(s, organisation.license.id)).toHaveLength(0);
      }
    });
  },
  licenseSuiteOptions,
);
