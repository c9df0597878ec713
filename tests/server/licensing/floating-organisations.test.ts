import { expect, it } from 'vitest';
import { setSeats } from '../../../src/server/licensing/index.js';
import { floatingSeatAnswerSchema, floatingSeatsFullSchema } from '../../../src/shared/api/floating.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { createPlan, giveLicense, licenseSuiteOptions, machine, member } from '../helpers/license-helpers.js';
import { seatOrganisation } from '../helpers/organisation-seat-helpers.js';

// An organisation on a floating plan holds as many concurrent floating seats as it bought: the
// license's seats, changed by the same call that changes an organisation's named seats (billing's
// seat purchase settles through `setSeats`), in place of the plan's own count.

async function checkout(base: string, key: string, hw: string, name: string) {
  const response = await fetch(`${base}/api/v1/licensing/floating/checkout`, {
    method: 'POST',
    headers: { 'x-api-key': WEB_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ license_key: key, hardware_id: hw, device_name: name }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** An organisation owned by a new account, with a license of `plan` for `seats` bought seats. */
async function organisationOn(s: TestServer, plan: Awaited<ReturnType<typeof createPlan>>, seats: number) {
  return (await seatOrganisation(s, await member(s), seats, plan)).license;
}

describeOnEveryDatabase(
  "an organisation's floating seats",
  (server) => {
    it('its pool is the seats it bought, not the plan’s count; the next machine is told who holds them; buying more seats widens it', async () => {
      const s = server();
      s.clock.freeze();
      const base = await s.listen();
      const plan = await createPlan(s, {
        price: 99_900,
        interval: 'month',
        floating: { seats: 5, leaseMinutes: 15, borrowDays: 0 },
      });
      const license = await organisationOn(s, plan, 2);
      const key = license.license_key;
      const [a, b, c] = [machine('org-a'), machine('org-b'), machine('org-c')];

      const first = await checkout(base, key, a, 'Desk A');
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(floatingSeatAnswerSchema.parse(first.body)).toMatchObject({ seats: 2, in_use: 1 });
      expect((await checkout(base, key, b, 'Desk B')).status).toBe(201);

      // The third machine is refused with who holds the two seats, as on a personal license.
      const full = await checkout(base, key, c, 'Desk C');
      expect(full.status, JSON.stringify(full.body)).toBe(409);
      const refusal = floatingSeatsFullSchema.parse(full.body);
      expect(refusal).toMatchObject({ code: 'floating_seats_full', seats: 2 });
      expect(refusal.holders.map((holder) => holder.device_name).sort()).toEqual(['Desk A', 'Desk B']);

      // A third seat bought (the seat purchase's own change to the license): the pool is three.
      await s.app.db
        .transaction()
        .execute((trx) =>
          setSeats(trx, s.clock, license, { seats: 3, machinesPerSeat: plan.max_activations }),
        );
      const third = await checkout(base, key, c, 'Desk C');
      expect(third.status, JSON.stringify(third.body)).toBe(201);
      expect(floatingSeatAnswerSchema.parse(third.body)).toMatchObject({ seats: 3, in_use: 3 });

      // A personal license of the same plan keeps the plan's count.
      const personal = await giveLicense(s, await member(s), plan);
      const own = await checkout(base, personal.license_key, machine('personal'), 'Laptop');
      expect(floatingSeatAnswerSchema.parse(own.body)).toMatchObject({ seats: 5, in_use: 1 });
    });
  },
  licenseSuiteOptions,
);
