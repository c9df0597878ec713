import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { licenseStatusSchema } from '../../../src/shared/api/licenses.js';
import type { Overage } from '../../../src/shared/api/plans.js';
import { type UsageBatchResponse, usageBatchResponseSchema } from '../../../src/shared/api/usage.js';
import type { LeaseClaims } from '../../../src/shared/lease.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  createPlan,
  DAY_MS,
  deactivate,
  expectActivation,
  featureByKey,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
  signInAgain,
  untilNextMonth,
  usageTotals,
  validate,
} from '../helpers/license-helpers.js';

interface Event {
  id: string;
  feature: string;
  amount: number;
  occurred_at?: string;
}

const events = (prefix: string, count: number, extra: Partial<Event> = {}): Event[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}`,
    feature: 'ai_chat',
    amount: 1,
    ...extra,
  }));

const report = (s: TestServer, token: string, licenseId: string, batch: Event[], from?: string) =>
  s.api({
    method: 'POST',
    path: `/licenses/${licenseId}/usage/events`,
    token,
    body: { events: batch, ...(from === undefined ? {} : { machine: from }) },
  });

async function reported(s: TestServer, token: string, licenseId: string, batch: Event[], from?: string) {
  const response = await report(s, token, licenseId, batch, from);
  expect(response.statusCode, response.body).toBe(200);
  return usageBatchResponseSchema.parse(response.json());
}

const usageOf = (lease: string) => (decodeJwt(lease) as unknown as LeaseClaims).usage;

/** The middle of the current UTC month, so a test's events stay in one month whatever today is. */
function midMonth(s: TestServer) {
  const now = s.clock.now();
  s.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 12) - now.getTime());
}

/** A customer with a license metering AI requests at `allowance` a month on `seats` machines. */
async function customerWith(s: TestServer, allowance: number, seats = 3, overage?: Overage) {
  midMonth(s);
  const plan = await createPlan(s, {
    seats,
    features: { ai_chat: allowance, offline_mode: null },
    ...(overage ? { overage: { ai_chat: overage } } : {}),
  });
  const owner = await member(s);
  const license = await giveLicense(s, owner, plan);
  const feature = await featureByKey(s, 'ai_chat');
  /** Activates a new machine: its first lease reserves. */
  const newMachine = async (label: string) => {
    const hw = machine(label);
    const activation = expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
    return { hw, lease: activation.lease, activationId: activation.activation.activation_id };
  };
  return { owner, license, featureId: feature.id, newMachine };
}

/** The machine's next check: a fresh lease, answered by POST /licenses/validate. */
async function check(s: TestServer, licenseKey: string, hw: string) {
  const response = await validate(s, licenseKey, hw);
  expect(response.statusCode, response.body).toBe(200);
  return licenseStatusSchema.parse(response.json());
}

const heldRows = (s: TestServer, licenseId: string) =>
  s.app.db
    .selectFrom('usage_reservations')
    .select(['activation_id', 'units', 'used', 'period_start', 'expires_at'])
    .where('license_id', '=', licenseId)
    .orderBy('activation_id')
    .execute();

const counted = (answer: UsageBatchResponse) => answer.counted;

describeOnEveryDatabase(
  'usage reservations: the offline allowance a lease carries',
  (server) => {
    it('a lease reserves 10 % of the allowance from what is left, and the store says until when', async () => {
      const s = server();
      const { license, newMachine } = await customerWith(s, 1000);
      const first = await newMachine('a');
      const usage = usageOf(first.lease);
      expect(usage).toHaveLength(1);
      const now = s.clock.now();
      const periodStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
      const periodEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
      expect(usage?.[0]).toEqual({
        key: 'ai_chat',
        period_start: periodStart,
        period_end: periodEnd,
        reserved: 100,
      });
      const rows = await heldRows(s, license.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        activation_id: first.activationId,
        units: 100,
        period_start: periodStart,
      });
      // The lease (7 days by default) ends before the month does: the reservation ends with it.
      const exp = (decodeJwt(first.lease).exp ?? 0) * 1000;
      expect(rows[0]?.expires_at).toBe(new Date(exp).toISOString());
    });

    it('units another machine holds are not counted for anyone else; its own machine uses them', async () => {
      const s = server();
      const { owner, license, featureId, newMachine } = await customerWith(s, 100);
      const a = await newMachine('a');
      expect(usageOf(a.lease)?.[0]?.reserved).toBe(10);

      // The portal or a machine that does not say which: 90 count, the 10 held by A do not.
      const others = await reported(s, owner.token, license.id, events('web', 95));
      expect(counted(others)).toBe(90);
      expect(others.results.at(-1)).toMatchObject({ outcome: 'refused', code: 'allowance_used' });

      // A, by hardware id, uses what it holds; past it, its allowance is used up too.
      const fromA = await reported(s, owner.token, license.id, events('a', 12), a.hw);
      expect(counted(fromA)).toBe(10);
      expect(await usageTotals(s, license.id, featureId)).toEqual({
        counter: 100,
        events: 100,
        eventSum: 100,
      });
    });

    it('what a machine reports of its use draws its reservation down: those units are not held twice', async () => {
      const s = server();
      const { owner, license, newMachine } = await customerWith(s, 100);
      const a = await newMachine('a');
      await newMachine('b');
      expect(counted(await reported(s, owner.token, license.id, events('a', 4), a.hw))).toBe(4);
      expect((await heldRows(s, license.id)).map((row) => row.units - row.used)).toEqual(
        expect.arrayContaining([6, 10]),
      );
      // 100 less A's 4 used, the 6 A still holds and B's 10: 80 for everyone else.
      expect(counted(await reported(s, owner.token, license.id, events('web', 100)))).toBe(80);
      // Use made before a reservation was taken never drew on it.
      const before = new Date(s.clock.now().getTime() - DAY_MS).toISOString();
      expect(
        counted(
          await reported(s, owner.token, license.id, events('a-old', 6, { occurred_at: before }), a.hw),
        ),
      ).toBe(6);
      expect((await heldRows(s, license.id)).map((row) => row.units - row.used)).toEqual(
        expect.arrayContaining([6, 10]),
      );
    });

    it('a machine named by its activation id counts as the machine; another license’s or an unknown one is refused with 404', async () => {
      const s = server();
      const { owner, license, newMachine } = await customerWith(s, 100);
      const a = await newMachine('a');
      const byId = await reported(s, owner.token, license.id, events('by-id', 2), a.activationId);
      expect(counted(byId)).toBe(2);

      // The same owner's other license, with a machine of its own.
      const plan = await createPlan(s, { features: { ai_chat: 100 } });
      const otherLicense = await giveLicense(s, owner, plan);
      const stranger = machine('other');
      expectActivation(await activate(s, owner.token, otherLicense.license_key, stranger), 201);
      const before = await usageTotals(s, license.id, (await featureByKey(s, 'ai_chat')).id);
      for (const named of [stranger, 'hw-never-seen']) {
        const refused = await report(s, owner.token, license.id, events(`x-${named}`, 1), named);
        expectApiError(refused, 404, 'machine_not_found');
      }
      expectApiError(
        await report(s, owner.token, license.id, events('empty', 1), ''),
        400,
        'validation_error',
      );
      // Nothing of the refused batches counted.
      expect(await usageTotals(s, license.id, (await featureByKey(s, 'ai_chat')).id)).toEqual(before);
    });

    it('with nothing left the lease is signed all the same and reserves 0 units', async () => {
      const s = server();
      const { owner, license, newMachine } = await customerWith(s, 20);
      expect(counted(await reported(s, owner.token, license.id, events('all', 20)))).toBe(20);
      const a = await newMachine('a');
      expect(usageOf(a.lease)).toEqual([expect.objectContaining({ key: 'ai_chat', reserved: 0 })]);
      expect(await heldRows(s, license.id)).toEqual([]);
    });

    it('a small allowance reserves at least one unit, and no more than is left', async () => {
      const s = server();
      const { owner, license, newMachine } = await customerWith(s, 5);
      expect(usageOf((await newMachine('a')).lease)?.[0]?.reserved).toBe(1);
      expect(counted(await reported(s, owner.token, license.id, events('most', 10)))).toBe(4);
      expect(usageOf((await newMachine('b')).lease)?.[0]?.reserved).toBe(0);
    });

    it('under cap the cap counts as left; under bill a share is reserved though the allowance is used', async () => {
      const s = server();
      const capped = await customerWith(s, 100, 3, { policy: 'cap', price_minor: 100, per_units: 1, cap: 5 });
      expect(counted(await reported(s, capped.owner.token, capped.license.id, events('cap', 100)))).toBe(100);
      expect(usageOf((await capped.newMachine('cap')).lease)?.[0]?.reserved).toBe(5);

      const billed = await customerWith(s, 100, 3, {
        policy: 'bill',
        price_minor: 100,
        per_units: 1,
        cap: null,
      });
      expect(counted(await reported(s, billed.owner.token, billed.license.id, events('bill', 150)))).toBe(
        150,
      );
      expect(usageOf((await billed.newMachine('bill')).lease)?.[0]?.reserved).toBe(10);
    });

    it('with the allowance used up, units left in credit packs are reserved, and others draw the packs around them', async () => {
      const s = server();
      const { owner, license, featureId, newMachine } = await customerWith(s, 100);
      const admin = await signInAsAdmin(s);
      const grant = await s.api({
        method: 'POST',
        path: `/admin/licenses/${license.id}/usage/grants`,
        token: admin.token,
        body: { feature: 'ai_chat', units: 25, reason: 'Goodwill' },
      });
      expect(grant.statusCode, grant.body).toBe(201);
      expect(counted(await reported(s, owner.token, license.id, events('all', 100)))).toBe(100);

      // The allowance is used; the pack's 25 are left: A holds its share of them for use offline.
      const a = await newMachine('a');
      expect(usageOf(a.lease)?.[0]?.reserved).toBe(10);
      // The machine's check says so too: what the desktop shows as left counts the pack.
      const status = await check(s, license.license_key, a.hw);
      expect(status.features.find((item) => item.key === 'ai_chat')).toMatchObject({
        used: 100,
        packs_left: 25,
        remaining: 25,
        available: true,
      });
      expect(usageOf(status.lease)?.[0]?.reserved).toBe(10);
      // Everyone else draws the pack but for what A holds, which held past the allowance does not stop.
      const web = await reported(s, owner.token, license.id, events('web', 20));
      expect(counted(web)).toBe(15);
      expect(web.results[15]).toMatchObject({ outcome: 'refused', code: 'allowance_used' });
      // A uses what it holds, from the pack; then nothing is left for a new lease.
      expect(counted(await reported(s, owner.token, license.id, events('a', 12), a.hw))).toBe(10);
      expect(usageOf((await newMachine('b')).lease)?.[0]?.reserved).toBe(0);
      expect(await usageTotals(s, license.id, featureId)).toEqual({
        counter: 125,
        events: 125,
        eventSum: 125,
      });
      const packs = await s.app.db
        .selectFrom('usage_packs')
        .select(['units', 'used'])
        .where('license_id', '=', license.id)
        .execute();
      expect(packs.map((row) => Number(row.used))).toEqual([25]);
    });

    it('a pack partly drawn: the lease reserves no more than the pack has left', async () => {
      const s = server();
      const { owner, license, newMachine } = await customerWith(s, 100);
      const admin = await signInAsAdmin(s);
      const grant = await s.api({
        method: 'POST',
        path: `/admin/licenses/${license.id}/usage/grants`,
        token: admin.token,
        body: { feature: 'ai_chat', units: 8, reason: 'Goodwill' },
      });
      expect(grant.statusCode, grant.body).toBe(201);
      expect(counted(await reported(s, owner.token, license.id, events('all', 105)))).toBe(105);
      const a = await newMachine('a');
      expect(usageOf(a.lease)?.[0]?.reserved).toBe(3);
      expect(counted(await reported(s, owner.token, license.id, events('web', 5)))).toBe(0);
      expect(counted(await reported(s, owner.token, license.id, events('a', 5), a.hw))).toBe(3);
    });

    it('the next check frees what the machine held and reserves anew from what is left', async () => {
      const s = server();
      const { owner, license, newMachine } = await customerWith(s, 100);
      const a = await newMachine('a');
      const b = await newMachine('b');
      expect(usageOf(b.lease)?.[0]?.reserved).toBe(10);
      // A used 4 offline and reports them; its next lease frees the 6 unused and takes 10 again.
      expect(counted(await reported(s, owner.token, license.id, events('a', 4), a.hw))).toBe(4);
      const next = await check(s, license.license_key, a.hw);
      expect(usageOf(next.lease)?.[0]?.reserved).toBe(10);
      expect((await heldRows(s, license.id)).map((row) => row.units)).toEqual([10, 10]);
      // What A held and did not use is free again at its next check: the rest use up all but B's.
      expect(counted(await reported(s, owner.token, license.id, events('web', 100)))).toBe(76);
      expect(usageOf((await check(s, license.license_key, a.hw)).lease)?.[0]?.reserved).toBe(10);
      expect(counted(await reported(s, owner.token, license.id, events('a-again', 10), a.hw))).toBe(10);
      // A used all it held and nothing is left: its next lease holds 0, and only B's row remains.
      const last = await check(s, license.license_key, a.hw);
      expect(usageOf(last.lease)?.[0]?.reserved).toBe(0);
      expect(await heldRows(s, license.id)).toEqual([expect.objectContaining({ units: 10 })]);
    });

    it('deactivating a machine frees what it held', async () => {
      const s = server();
      const { owner, license, newMachine } = await customerWith(s, 100);
      const a = await newMachine('a');
      expect(counted(await reported(s, owner.token, license.id, events('web', 100)))).toBe(90);
      expect((await deactivate(s, owner.token, license.id, a.hw)).statusCode).toBe(200);
      expect(counted(await reported(s, owner.token, license.id, events('freed', 20)))).toBe(10);
      // A deactivated machine no longer reports as a machine of the license.
      expectApiError(
        await report(s, owner.token, license.id, events('gone', 1), a.hw),
        404,
        'machine_not_found',
      );
    });

    it('at the period’s end reservations lapse: use made offline before it counts in that period, new leases reserve from the next', async () => {
      const s = server();
      const { owner, license, featureId, newMachine } = await customerWith(s, 100);
      const a = await newMachine('a');
      const b = await newMachine('b');
      const lastMonth = s.clock.now().toISOString();
      expect(counted(await reported(s, owner.token, license.id, events('web', 100)))).toBe(80);

      s.clock.advance(untilNextMonth(s.clock.now()));
      const { token } = await signInAgain(s, owner);
      // Both machines were offline over the month's end and upload what they used before it.
      const late = { occurred_at: lastMonth };
      expect(counted(await reported(s, token, license.id, events('a', 10, late), a.hw))).toBe(10);
      expect(counted(await reported(s, token, license.id, events('b', 10, late), b.hw))).toBe(10);
      expect((await usageTotals(s, license.id, featureId)).counter).toBe(100);
      // Past the month's ceiling nothing more counts in it, from anyone.
      const over = await reported(s, token, license.id, events('a-more', 1, late), a.hw);
      expect(over.results[0]).toMatchObject({ outcome: 'refused', code: 'allowance_used' });

      // The held rows of the ended month hold nothing now; A's next lease reserves from this month.
      const next = await check(s, license.license_key, a.hw);
      expect(usageOf(next.lease)?.[0]).toMatchObject({ reserved: 10 });
      expect(usageOf(next.lease)?.[0]?.period_start).not.toBe(usageOf(a.lease)?.[0]?.period_start);
      expect(counted(await reported(s, token, license.id, events('new-month', 100)))).toBe(90);
    });

    it('a lease of a plan without an allowance carries no usage, as leases did before', async () => {
      const s = server();
      const plan = await createPlan(s, { features: { ai_chat: null, offline_mode: null } });
      const owner = await member(s);
      const license = await giveLicense(s, owner, plan);
      const activation = expectActivation(
        await activate(s, owner.token, license.license_key, machine('u')),
        201,
      );
      expect(usageOf(activation.lease)).toBeUndefined();
    });

    describe('races', () => {
      it('one machine holding units while others drain the rest at once: the ceiling holds exactly', async () => {
        const s = server();
        const { owner, license, featureId, newMachine } = await customerWith(s, 50);
        const a = await newMachine('a');
        expect(usageOf(a.lease)?.[0]?.reserved).toBe(5);
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            reported(s, owner.token, license.id, events(`race-${index}`, 3)),
          ),
        );
        expect(answers.reduce((sum, answer) => sum + answer.counted, 0)).toBe(45);
        expect(counted(await reported(s, owner.token, license.id, events('a', 5), a.hw))).toBe(5);
        expect(await usageTotals(s, license.id, featureId)).toEqual({
          counter: 50,
          events: 50,
          eventSum: 50,
        });
      });

      it('the allowance used up, one machine holding pack units while others drain the pack at once: the pack holds exactly', async () => {
        const s = server();
        const { owner, license, featureId, newMachine } = await customerWith(s, 20);
        const admin = await signInAsAdmin(s);
        const grant = await s.api({
          method: 'POST',
          path: `/admin/licenses/${license.id}/usage/grants`,
          token: admin.token,
          body: { feature: 'ai_chat', units: 20, reason: 'Race' },
        });
        expect(grant.statusCode, grant.body).toBe(201);
        expect(counted(await reported(s, owner.token, license.id, events('all', 20)))).toBe(20);
        const a = await newMachine('a');
        expect(usageOf(a.lease)?.[0]?.reserved).toBe(2);
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, index) =>
            reported(s, owner.token, license.id, events(`race-${index}`, 3)),
          ),
        );
        expect(answers.reduce((sum, answer) => sum + answer.counted, 0)).toBe(18);
        expect(counted(await reported(s, owner.token, license.id, events('a', 3), a.hw))).toBe(2);
        expect(await usageTotals(s, license.id, featureId)).toEqual({
          counter: 40,
          events: 40,
          eventSum: 40,
        });
        const [pack] = await s.app.db
          .selectFrom('usage_packs')
          .select(['units', 'used'])
          .where('license_id', '=', license.id)
          .execute();
        expect(Number(pack?.used)).toBe(20);
      });

      it('a machine reserving while others drain at once: used and held never pass the allowance', async () => {
        const s = server();
        const { owner, license, featureId, newMachine } = await customerWith(s, 50);
        const a = await newMachine('a');
        const b = await newMachine('b');
        expect(counted(await reported(s, owner.token, license.id, events('b-first', 2), b.hw))).toBe(2);
        const [lease] = await Promise.all([
          check(s, license.license_key, b.hw),
          ...Array.from({ length: 20 }, (_, index) =>
            reported(s, owner.token, license.id, events(`race-${index}`, 3), a.hw),
          ),
        ]);
        const reserved = usageOf(lease.lease)?.[0]?.reserved ?? 0;
        const used = (await usageTotals(s, license.id, featureId)).counter;
        const held = (await heldRows(s, license.id)).filter((row) => row.activation_id !== a.activationId);
        expect(held.reduce((sum, row) => sum + row.units, 0)).toBe(reserved);
        expect(used + reserved).toBeLessThanOrEqual(50);
        // B may use at least what it was told it holds; A's own holding stays A's.
        const heldByA = (await heldRows(s, license.id))
          .filter((row) => row.activation_id === a.activationId)
          .reduce((sum, row) => sum + row.units - row.used, 0);
        const fromB = counted(await reported(s, owner.token, license.id, events('b', 10), b.hw));
        expect(fromB).toBe(Math.min(10, 50 - used - heldByA));
        expect(fromB).toBeGreaterThanOrEqual(reserved);
      });
    });

    it('an event older than the day it counts for is untouched by reservations of another period', async () => {
      const s = server();
      const { owner, license, newMachine } = await customerWith(s, 100);
      await newMachine('a');
      const earlier = new Date(s.clock.now().getTime() - 40 * DAY_MS).toISOString();
      // Last month has no reservations: all 100 of its allowance count.
      expect(
        counted(await reported(s, owner.token, license.id, events('old', 100, { occurred_at: earlier }))),
      ).toBe(100);
    });
  },
  licenseSuiteOptions,
);
