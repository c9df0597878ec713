import { expect, it } from 'vitest';
import type { License } from '../../../src/shared/api/licenses.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { eventsAbout } from '../helpers/admin-helpers.js';
import {
  activate,
  activeSeats,
  createPlan,
  DAY_MS,
  deactivate,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
  signInAgain,
} from '../helpers/license-helpers.js';

interface Refusal {
  code: string;
  message: string;
  detail: string;
  next_possible_at: string | null;
  limit: number;
  used: number;
}

/** A member with a license of a 6-machine plan that caps deactivations at `cap`, on `count` machines. */
async function licenseOnMachines(s: TestServer, count: number, cap = 3) {
  const owner = await member(s);
  const plan = await createPlan(s, { seats: 6, deactivationsPer30Days: cap });
  const license = await giveLicense(s, owner, plan);
  const machines = Array.from({ length: count }, (_, index) => machine(`m${index}`));
  for (const hw of machines) expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
  return { owner, license, machines };
}

const detailOf = async (s: TestServer, token: string, id: string) =>
  (await s.api({ path: `/licenses/${id}`, token })).json<License>();

describeOnEveryDatabase(
  'machine deactivations capped per rolling 30 days',
  (server) => {
    it('the fourth deactivation in 30 days is refused with the date the next becomes possible', async () => {
      const s = server();
      s.clock.freeze();
      const { owner: signedIn, license, machines } = await licenseOnMachines(s, 4);
      let owner = signedIn;
      // Access tokens are short-lived: sign in again after the clock moves.
      const later = async (milliseconds: number) => {
        s.clock.advance(milliseconds);
        owner = await signInAgain(s, owner);
      };
      const first = s.clock.now();
      expect((await deactivate(s, owner.token, license.id, machines[0] as string)).statusCode).toBe(200);
      await later(2 * DAY_MS);
      expect((await deactivate(s, owner.token, license.id, machines[1] as string)).statusCode).toBe(200);
      await later(DAY_MS);
      expect((await deactivate(s, owner.token, license.id, machines[2] as string)).statusCode).toBe(200);

      const refused = await deactivate(s, owner.token, license.id, machines[3] as string);
      expect(refused.statusCode).toBe(409);
      const body = refused.json<Refusal>();
      const nextAt = new Date(first.getTime() + 30 * DAY_MS).toISOString();
      expect(body).toMatchObject({
        code: 'deactivation_limit_reached',
        limit: 3,
        used: 3,
        next_possible_at: nextAt,
      });
      const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(nextAt),
      );
      expect(body.message).toContain(`The next deactivation is possible on ${date}`);
      expect(body.detail).toBe(body.message);
      // Refused: the machine keeps its seat.
      expect((await activeSeats(s, license.id)).map((row) => row.hardware_id)).toEqual([machines[3]]);
      // The portal reads the same date from the license's detail view.
      expect((await detailOf(s, owner.token, license.id)).machine_changes).toEqual({
        limit: 3,
        used: 3,
        window_days: 30,
        next_possible_at: nextAt,
      });
      expect(await eventsAbout(s, 'deactivation_limit_reached', owner.id)).toHaveLength(1);

      // Just short of the date it is still refused; at the date the first has left the window.
      await later(27 * DAY_MS - 1000);
      expect((await deactivate(s, owner.token, license.id, machines[3] as string)).statusCode).toBe(409);
      await later(1000);
      expect((await deactivate(s, owner.token, license.id, machines[3] as string)).statusCode).toBe(200);
      expect(await activeSeats(s, license.id)).toEqual([]);
    });

    it('deactivating a machine already freed, or activating again, counts nothing more', async () => {
      const s = server();
      const { owner, license, machines } = await licenseOnMachines(s, 2, 1);
      const hw = machines[0] as string;
      expect((await deactivate(s, owner.token, license.id, hw)).statusCode).toBe(200);
      expect((await deactivate(s, owner.token, license.id, hw)).statusCode).toBe(200);
      expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
      expect((await detailOf(s, owner.token, license.id)).machine_changes?.used).toBe(1);
      expect((await deactivate(s, owner.token, license.id, machines[1] as string)).statusCode).toBe(409);
    });

    it('an administrator’s deactivation does not count; a reset with a reason forgives the count', async () => {
      const s = server();
      const admin = await member(s, 'admin');
      const { owner, license, machines } = await licenseOnMachines(s, 3, 1);
      const rows = await activeSeats(s, license.id);
      const byAdmin = rows.find((row) => row.hardware_id === machines[0]);
      const adminFreed = await s.api({
        method: 'POST',
        path: `/admin/licenses/${license.id}/activations/${byAdmin?.id}/deactivate`,
        token: admin.token,
      });
      expect(adminFreed.statusCode).toBe(200);
      expect((await deactivate(s, owner.token, license.id, machines[1] as string)).statusCode).toBe(200);
      expect((await deactivate(s, owner.token, license.id, machines[2] as string)).statusCode).toBe(409);

      // A reset needs a reason.
      for (const body of [{}, { reason: '   ' }, { reason: 'x', extra: 1 }]) {
        const bad = await s.api({
          method: 'POST',
          path: `/admin/licenses/${license.id}/deactivations/reset`,
          token: admin.token,
          body,
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json<{ code: string }>().code).toBe('validation_error');
      }
      expect(await eventsAbout(s, 'deactivations_reset', owner.id)).toEqual([]);
      const missing = await s.api({
        method: 'POST',
        path: `/admin/licenses/00000000-0000-4000-8000-000000000000/deactivations/reset`,
        token: admin.token,
        body: { reason: 'Stolen laptop' },
      });
      expect(missing.statusCode).toBe(404);
      const notAdmin = await s.api({
        method: 'POST',
        path: `/admin/licenses/${license.id}/deactivations/reset`,
        token: owner.token,
        body: { reason: 'Let me' },
      });
      expect(notAdmin.statusCode).toBe(403);

      const reset = await s.api({
        method: 'POST',
        path: `/admin/licenses/${license.id}/deactivations/reset`,
        token: admin.token,
        body: { reason: 'Stolen laptop, reported to support' },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const [event] = await eventsAbout(s, 'deactivations_reset', owner.id);
      expect(event?.actor_id).toBe(admin.id);
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
        license_id: license.id,
        reason: 'Stolen laptop, reported to support',
        forgiven: 1,
      });
      expect((await deactivate(s, owner.token, license.id, machines[2] as string)).statusCode).toBe(200);
    });

    it('two deactivations at once when one is left: exactly one succeeds (over a real socket)', async () => {
      const s = server();
      const { owner, license, machines } = await licenseOnMachines(s, 5, 3);
      expect((await deactivate(s, owner.token, license.id, machines[0] as string)).statusCode).toBe(200);
      expect((await deactivate(s, owner.token, license.id, machines[1] as string)).statusCode).toBe(200);
      const base = await s.listen();
      const answers = await Promise.all(
        machines.slice(2).map(async (hw) => {
          const response = await fetch(`${base}/api/v1/licenses/${license.id}/deactivate`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-api-key': WEB_API_KEY,
              authorization: `Bearer ${owner.token}`,
            },
            body: JSON.stringify({ hardware_id: hw }),
          });
          return { status: response.status, body: (await response.json()) as { code?: string } };
        }),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 409, 409]);
      expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.code)).toEqual([
        'deactivation_limit_reached',
        'deactivation_limit_reached',
      ]);
      expect(await activeSeats(s, license.id)).toHaveLength(2);
      const counted = await s.app.db
        .selectFrom('machine_deactivations')
        .select('id')
        .where('license_id', '=', license.id)
        .execute();
      expect(counted).toHaveLength(3);
    });

    it('administrators set the cap on a plan; bad values are refused', async () => {
      const s = server();
      const admin = await member(s, 'admin');
      const plan = await createPlan(s, { seats: 2 });
      const update = (body: unknown) =>
        s.api({ method: 'PUT', path: `/plans/${plan.id}`, token: admin.token, body });
      const changed = await update({ deactivations_per_30_days: 5 });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json<{ deactivations_per_30_days: number }>().deactivations_per_30_days).toBe(5);
      for (const value of [-1, 1.5, 1001, 'three']) {
        const bad = await update({ deactivations_per_30_days: value });
        expect(bad.statusCode).toBe(400);
        expect(bad.json<{ code: string }>().code).toBe('validation_error');
      }
      const row = await s.app.db
        .selectFrom('plans')
        .select('deactivations_per_30_days')
        .where('id', '=', plan.id)
        .executeTakeFirstOrThrow();
      expect(row.deactivations_per_30_days).toBe(5);
    });
  },
  licenseSuiteOptions,
);
