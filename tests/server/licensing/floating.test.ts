import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import {
  type FloatingSeatAnswer,
  floatingPeaksSchema,
  floatingReleaseSchema,
  floatingSeatAnswerSchema,
  floatingSeatsFullSchema,
  floatingSeatsSchema,
} from '../../../src/shared/api/floating.js';
import { leaseSigningKeysSchema } from '../../../src/shared/api/licenses.js';
import { planSchema } from '../../../src/shared/api/plans.js';
import { verifyLease } from '../../../src/shared/lease.js';
import type { PlanRow } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  activateBase,
  createPlan,
  DAY_MS,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
  signInAgain,
} from '../helpers/license-helpers.js';

const MINUTE_MS = 60_000;

/** A floating plan on offer: `seats` at once, a lease of `lease` minutes, borrows up to `borrow` days. */
const floatingPlan = (s: TestServer, seats = 2, lease = 15, borrow = 7): Promise<PlanRow> =>
  createPlan(s, {
    price: 99_900,
    interval: 'month',
    features: { ai_chat: 100 },
    floating: { seats, leaseMinutes: lease, borrowDays: borrow },
  });

async function floatingLicense(s: TestServer, seats = 2, lease = 15, borrow = 7) {
  const owner = await member(s);
  const license = await giveLicense(s, owner, await floatingPlan(s, seats, lease, borrow));
  return { owner, license, key: license.license_key };
}

const post = (s: TestServer, path: string, body: unknown) =>
  s.api({ method: 'POST', path: `/licensing/floating/${path}`, body });
const checkout = (s: TestServer, key: string, hw: string, name?: string) =>
  post(s, 'checkout', { license_key: key, hardware_id: hw, ...(name ? { device_name: name } : {}) });
const heartbeat = (s: TestServer, key: string, hw: string) =>
  post(s, 'heartbeat', { license_key: key, hardware_id: hw });

function expectSeat(response: LightMyRequestResponse, status = 201): FloatingSeatAnswer {
  expect(response.statusCode, response.body).toBe(status);
  return floatingSeatAnswerSchema.parse(response.json());
}

function expectFull(response: LightMyRequestResponse) {
  expectApiError(response, 409, 'floating_seats_full');
  return floatingSeatsFullSchema.parse(response.json());
}

const seatRows = (s: TestServer, licenseId: string) =>
  s.app.db.selectFrom('floating_seats').selectAll().where('license_id', '=', licenseId).execute();

const securityEvents = (s: TestServer, type: string) =>
  s.app.db.selectFrom('security_events').selectAll().where('type', '=', type).execute();

async function publicKeys(s: TestServer) {
  return leaseSigningKeysSchema.parse((await s.api({ path: '/licensing/public-key' })).json());
}

describe('floating licenses', () => {
  describeOnEveryDatabase(
    'seats checked out, held and freed',
    (server) => {
      it('two machines hold the two seats; the third is told who holds them and when one may come back; a release lets it in', async () => {
        const s = server();
        s.clock.freeze();
        const { license, key } = await floatingLicense(s);
        const [a, b, c] = [machine('a'), machine('b'), machine('c')];
        const first = expectSeat(await checkout(s, key, a, 'Ann’s laptop'));
        expect(first).toMatchObject({ license_id: license.id, seats: 2, in_use: 1, heartbeat_seconds: 300 });
        expect(Date.parse(first.held_until) - s.clock.now().getTime()).toBe(15 * MINUTE_MS);
        s.clock.advance(MINUTE_MS);
        expectSeat(await checkout(s, key, b, 'Bob’s desktop'));
        // The same machine again renews its seat, it does not take another.
        s.clock.advance(MINUTE_MS);
        expect(expectSeat(await checkout(s, key, a), 200)).toMatchObject({
          seat_id: first.seat_id,
          in_use: 2,
        });

        const full = await checkout(s, key, c, 'Cat’s PC');
        const refused = expectFull(full);
        expect(refused.holders.map((holder) => holder.device_name).sort()).toEqual([
          'Ann’s laptop',
          'Bob’s desktop',
        ]);
        // Bob's seat ends first: Ann's was renewed a minute after he took his.
        expect(refused.retry_at).toBe(new Date(s.clock.now().getTime() + 14 * MINUTE_MS).toISOString());
        expect(refused.retry_after_seconds).toBe(14 * 60);
        expect(full.headers['retry-after']).toBe(String(14 * 60));

        const released = floatingReleaseSchema.parse(
          (await post(s, 'release', { license_key: key, hardware_id: b })).json(),
        );
        expect(released.released).toBe(true);
        expect(
          floatingReleaseSchema.parse((await post(s, 'release', { license_key: key, hardware_id: b })).json())
            .released,
        ).toBe(false);
        expectSeat(await checkout(s, key, c, 'Cat’s PC'));
        expect(await seatRows(s, license.id)).toHaveLength(2);
        // Taking the last seat was announced once per time it happened: Bob's, then Cat's.
        expect(
          (await securityEvents(s, 'floating_seats_exhausted')).filter((event) =>
            event.details?.includes(license.id),
          ),
        ).toHaveLength(2);
      });

      it('answers a lease signed for the machine, lasting the seat’s lease, marked with its seat', async () => {
        const s = server();
        s.clock.freeze();
        const { license, key } = await floatingLicense(s);
        const hw = machine('lease');
        const seat = expectSeat(await checkout(s, key, hw));
        const keys = await publicKeys(s);
        const nowSeconds = Math.floor(s.clock.now().getTime() / 1000);
        const verified = await verifyLease(seat.lease, { keys, hardwareId: hw, nowSeconds });
        expect(verified.ok).toBe(true);
        if (!verified.ok) return;
        expect(verified.claims).toMatchObject({
          sub: license.id,
          floating: { seat_id: seat.seat_id, borrowed_until: null },
        });
        expect(verified.claims.exp - nowSeconds).toBe(15 * 60);
        const elsewhere = await verifyLease(seat.lease, { keys, hardwareId: machine('other'), nowSeconds });
        expect(elsewhere).toMatchObject({ ok: false, problem: 'wrong_hardware' });
      });

      it('a seat whose heartbeats stop comes back after the lease; its heartbeat then is refused, and the lapse is announced once', async () => {
        const s = server();
        s.clock.freeze();
        const { license, key } = await floatingLicense(s, 1, 10);
        const [a, b] = [machine('quiet'), machine('next')];
        expectSeat(await checkout(s, key, a, 'Quiet'));
        s.clock.advance(9 * MINUTE_MS);
        expectSeat(await heartbeat(s, key, a), 200);
        s.clock.advance(10 * MINUTE_MS - 1);
        expectFull(await checkout(s, key, b));
        s.clock.advance(1);
        expectSeat(await checkout(s, key, b));
        expectApiError(await heartbeat(s, key, a), 409, 'floating_seat_lapsed');
        const stopped = (await securityEvents(s, 'floating_heartbeats_stopped')).filter((event) =>
          event.details?.includes(license.id),
        );
        expect(stopped).toHaveLength(1);
        expect(JSON.parse(stopped[0]?.details ?? '{}')).toMatchObject({ device_name: 'Quiet' });
      });

      it('maintenance frees lapsed seats nobody asked for since, and announces each once', async () => {
        const s = server();
        s.clock.freeze();
        const { license, key } = await floatingLicense(s, 3, 5);
        for (const label of ['m1', 'm2']) expectSeat(await checkout(s, key, machine(label)));
        s.clock.advance(5 * MINUTE_MS);
        const { pruneLapsedSeats } = await import('../../../src/server/licensing/floating/lapses.js');
        await pruneLapsedSeats(s.app.db, s.clock, s.app.events);
        await pruneLapsedSeats(s.app.db, s.clock, s.app.events);
        expect(await seatRows(s, license.id)).toEqual([]);
        const stopped = (await securityEvents(s, 'floating_heartbeats_stopped')).filter((event) =>
          event.details?.includes(license.id),
        );
        expect(stopped).toHaveLength(2);
      });

      it('borrows a seat for up to the plan’s days: counted out while offline, back when the borrow ends, announced as not returned', async () => {
        const s = server();
        s.clock.freeze();
        const { license, key } = await floatingLicense(s, 1, 15, 5);
        const [trip, desk] = [machine('trip'), machine('desk')];
        expectApiError(
          await post(s, 'borrow', { license_key: key, hardware_id: trip, days: 6 }),
          400,
          'floating_borrow_too_long',
        );
        const borrowed = expectSeat(
          await post(s, 'borrow', { license_key: key, hardware_id: trip, days: 3 }),
          201,
        );
        expect(Date.parse(borrowed.borrowed_until ?? '') - s.clock.now().getTime()).toBe(3 * DAY_MS);
        const keys = await publicKeys(s);
        const verified = await verifyLease(borrowed.lease, {
          keys,
          hardwareId: trip,
          nowSeconds: Math.floor(s.clock.now().getTime() / 1000) + 2 * 86_400,
        });
        expect(verified).toMatchObject({
          ok: true,
          claims: { floating: { borrowed_until: borrowed.borrowed_until } },
        });
        s.clock.advance(DAY_MS);
        expectFull(await checkout(s, key, desk));
        s.clock.advance(2 * DAY_MS);
        expectSeat(await checkout(s, key, desk));
        expect(
          (await securityEvents(s, 'floating_borrow_overdue')).filter((event) =>
            event.details?.includes(license.id),
          ),
        ).toHaveLength(1);
      });

      it('a borrowed seat returned early is free at once; a plan without borrowing refuses', async () => {
        const s = server();
        const { key } = await floatingLicense(s, 1, 15, 3);
        const [trip, desk] = [machine('trip'), machine('desk')];
        expectSeat(await post(s, 'borrow', { license_key: key, hardware_id: trip, days: 2 }), 201);
        expectFull(await checkout(s, key, desk));
        const returned = floatingReleaseSchema.parse(
          (await post(s, 'return', { license_key: key, hardware_id: trip })).json(),
        );
        expect(returned).toMatchObject({ released: true });
        expectSeat(await checkout(s, key, desk));
        const noBorrow = await floatingLicense(s, 1, 15, 0);
        expectApiError(
          await post(s, 'borrow', { license_key: noBorrow.key, hardware_id: trip, days: 1 }),
          409,
          'floating_borrow_not_allowed',
        );
      });

      it('refuses a node-locked license, an unknown key and bad input with clear errors, writing nothing', async () => {
        const s = server();
        const owner = await member(s);
        const locked = await giveLicense(s, owner, await createPlan(s, { features: { ai_chat: 1 } }));
        expectApiError(await checkout(s, locked.license_key, machine()), 409, 'license_not_floating');
        const { key, license } = await floatingLicense(s);
        expectApiError(
          await checkout(s, 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', machine()),
          400,
          'invalid_license_key',
        );
        expectApiError(await checkout(s, key, 'short'), 400, 'validation_error');
        expectApiError(
          await post(s, 'borrow', { license_key: key, hardware_id: machine(), days: 0 }),
          400,
          'validation_error',
        );
        expectApiError(
          await post(s, 'borrow', { license_key: key, hardware_id: machine(), days: 'x' }),
          400,
          'validation_error',
        );
        expectApiError(
          await post(s, 'checkout', { license_key: key, hardware_id: machine(), extra: 1 }),
          400,
          'validation_error',
        );
        expect(await seatRows(s, license.id)).toEqual([]);
        await s.app.db
          .updateTable('licenses')
          .set({ status: 'revoked' })
          .where('id', '=', license.id)
          .execute();
        expectApiError(await checkout(s, key, machine()), 403, 'license_revoked');
      });

      it('a personal floating license refuses a node-locked activation beside its pool, by the owner and by a shared key’s holder; a node-locked one still activates', async () => {
        const s = server();
        const { owner, license, key } = await floatingLicense(s, 2);
        const colleague = await member(s);
        const hw = machine('desk');
        for (const who of [owner, colleague]) {
          const refused = await activate(s, who.token, key, hw, { device_name: 'Desk' });
          expectApiError(refused, 409, 'license_floating');
          expect(refused.json<{ detail: string }>().detail).toBe(
            'This license has floating seats: this machine takes one when the app runs, with no activation.',
          );
        }
        // The owner's Base license on the same machine is no floating license: it still activates.
        expectActivation(await activateBase(s, owner.token, hw), 201);
        expect(
          await s.app.db.selectFrom('activations').selectAll().where('license_id', '=', license.id).execute(),
        ).toEqual([]);
        // The seat is taken by checking out, as the app does, and a later activation is still refused.
        expectSeat(await checkout(s, key, hw, 'Desk'));
        expectApiError(await activate(s, owner.token, key, hw), 409, 'license_floating');
        expect(await seatRows(s, license.id)).toHaveLength(1);

        // A plan made floating after a machine was activated: that machine's activation again is refused too.
        const locked = await giveLicense(s, owner, await createPlan(s, { features: { ai_chat: 1 } }));
        const old = machine('old');
        expectActivation(await activate(s, owner.token, locked.license_key, old), 201);
        await s.app.db
          .updateTable('plans')
          .set({ floating_seats: 1, floating_lease_minutes: 15, floating_borrow_days: 0 })
          .where('id', '=', locked.plan_id)
          .execute();
        expectApiError(
          await activate(s, owner.token, locked.license_key, machine('new')),
          409,
          'license_floating',
        );
      });

      it('the owner and administrators see the holders and free a seat by hand; others cannot; peaks per day', async () => {
        const s = server();
        s.clock.freeze();
        const { owner, license, key } = await floatingLicense(s, 3);
        const admin = await member(s, 'admin');
        const stranger = await member(s);
        const a = expectSeat(await checkout(s, key, machine('a'), 'A'));
        expectSeat(await checkout(s, key, machine('b'), 'B'));
        const seatsPath = `/licenses/${license.id}/floating/seats`;
        const seen = floatingSeatsSchema.parse((await s.api({ path: seatsPath, token: owner.token })).json());
        expect(seen).toMatchObject({ seats: 3, lease_minutes: 15, max_borrow_days: 7 });
        expect(seen.in_use.map((holder) => holder.device_name).sort()).toEqual(['A', 'B']);
        expectApiError(await s.api({ path: seatsPath, token: stranger.token }), 404, 'license_not_found');
        expectApiError(
          await s.api({ method: 'DELETE', path: `${seatsPath}/${a.seat_id}`, token: stranger.token }),
          404,
          'license_not_found',
        );
        const afterRelease = floatingSeatsSchema.parse(
          (await s.api({ method: 'DELETE', path: `${seatsPath}/${a.seat_id}`, token: admin.token })).json(),
        );
        expect(afterRelease.in_use.map((holder) => holder.device_name)).toEqual(['B']);
        expectApiError(
          await s.api({ method: 'DELETE', path: `${seatsPath}/${a.seat_id}`, token: owner.token }),
          404,
          'floating_seat_not_found',
        );
        expect(
          (await securityEvents(s, 'floating_seat_released')).filter((event) => event.actor_id === admin.id),
        ).toHaveLength(1);

        // Peaks: two at once today; tomorrow (yesterday's seats lapsed) three.
        s.clock.advance(DAY_MS);
        for (const label of ['c', 'd', 'e']) expectSeat(await checkout(s, key, machine(label)));
        await signInAgain(s, owner);
        const peaks = floatingPeaksSchema.parse(
          (await s.api({ path: `/licenses/${license.id}/floating/peaks?days=3`, token: owner.token })).json(),
        );
        expect(peaks.days.map((day) => day.peak)).toEqual([0, 2, 3]);
        expect(peaks.days[2]?.day).toBe(s.clock.now().toISOString().slice(0, 10));
        expectApiError(
          await s.api({ path: `/licenses/${license.id}/floating/peaks?days=0`, token: owner.token }),
          400,
          'validation_error',
        );
      });

      it('an administrator makes a plan floating in the plan editor’s API, and back', async () => {
        const s = server();
        const admin = await member(s, 'admin');
        const plan = await createPlan(s, { price: 100, interval: 'month', features: { ai_chat: 1 } });
        const made = await s.api({
          method: 'PUT',
          path: `/plans/${plan.id}`,
          token: admin.token,
          body: { floating: { seats: 5, lease_minutes: 20 } },
        });
        expect(made.statusCode, made.body).toBe(200);
        expect(planSchema.parse(made.json()).floating).toEqual({
          seats: 5,
          lease_minutes: 20,
          max_borrow_days: 7,
        });
        expectApiError(
          await s.api({
            method: 'PUT',
            path: `/plans/${plan.id}`,
            token: admin.token,
            body: { floating: { seats: 0 } },
          }),
          400,
          'validation_error',
        );
        const back = await s.api({
          method: 'PUT',
          path: `/plans/${plan.id}`,
          token: admin.token,
          body: { floating: null },
        });
        expect(planSchema.parse(back.json()).floating).toBeNull();
      });
    },
    licenseSuiteOptions,
  );

  describeOnEveryDatabase(
    'races',
    (server) => {
      it('N + 1 machines checking out the last seats at once: exactly N hold one', async () => {
        const s = server();
        for (const seats of [1, 3, 5]) {
          const { license, key } = await floatingLicense(s, seats);
          const machines = Array.from({ length: seats + 1 }, (_, index) => machine(`rush${index}`));
          const answers = await Promise.all(machines.map((hw) => checkout(s, key, hw)));
          expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(seats);
          expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(1);
          expect(await seatRows(s, license.id)).toHaveLength(seats);
        }
      });

      it('a heartbeat racing its lease’s end against another machine’s checkout: one of them holds the seat, never both', async () => {
        const s = server();
        s.clock.freeze();
        for (const late of [false, true]) {
          const { license, key } = await floatingLicense(s, 1, 5);
          const [held, waiting] = [machine('held'), machine('waiting')];
          expectSeat(await checkout(s, key, held));
          // Just before the end the heartbeat keeps it; at the end the seat is free to the other.
          s.clock.advance(5 * MINUTE_MS - (late ? 0 : 1));
          const [beat, other] = await Promise.all([heartbeat(s, key, held), checkout(s, key, waiting)]);
          const rows = await seatRows(s, license.id);
          expect(rows).toHaveLength(1);
          if (late) {
            expectApiError(beat, 409, 'floating_seat_lapsed');
            expectSeat(other);
            expect(rows[0]?.hardware_id).toBe(waiting);
          } else {
            expectSeat(beat, 200);
            expectFull(other);
            expect(rows[0]?.hardware_id).toBe(held);
          }
        }
      });

      it('a borrow racing a checkout for the last seat: exactly one gets it', async () => {
        const s = server();
        for (let round = 0; round < 4; round++) {
          const { license, key } = await floatingLicense(s, 1);
          const [trip, desk] = [machine('trip'), machine('desk')];
          const [borrowed, checkedOut] = await Promise.all([
            post(s, 'borrow', { license_key: key, hardware_id: trip, days: 2 }),
            checkout(s, key, desk),
          ]);
          expect([borrowed.statusCode, checkedOut.statusCode].sort()).toEqual([201, 409]);
          expect(await seatRows(s, license.id)).toHaveLength(1);
        }
      });

      it('two instances on one database, N + 1 machines split between them for the last seats: exactly N hold one', async () => {
        const s = server();
        const second = await buildApp(s.config, { clock: s.clock, logger: false });
        try {
          for (const seats of [1, 4]) {
            const { license, key } = await floatingLicense(s, seats);
            const machines = Array.from({ length: seats + 1 }, (_, index) => machine(`pair${index}`));
            const answers = await Promise.all(
              machines.map((hw, index) =>
                index % 2 === 0
                  ? checkout(s, key, hw)
                  : second.inject({
                      method: 'POST',
                      url: '/api/v1/licensing/floating/checkout',
                      headers: { 'x-api-key': WEB_API_KEY },
                      payload: { license_key: key, hardware_id: hw },
                    }),
              ),
            );
            expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(seats);
            expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(1);
            expect(await seatRows(s, license.id)).toHaveLength(seats);
          }
        } finally {
          await second.close();
        }
      });
    },
    licenseSuiteOptions,
  );
});
