import { expect, it } from 'vitest';
import { floatingMemberSeatSchema } from '../../../src/shared/api/floating.js';
import type { PlanRow } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer, uniqueEmail } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { createPlan, licenseSuiteOptions, machine, member, type Member } from '../helpers/license-helpers.js';
import { membershipOf, seatOrganisation } from '../helpers/organisation-seat-helpers.js';
import {
  baseUrlOf,
  createScimToken,
  entraDeactivate,
  entraUser,
  scimClient,
} from '../helpers/scim-helpers.js';

// An identity provider provisioning an organisation whose plan is floating: people join to share
// the pool as they run, so a creation is never refused for want of a named seat, and deactivating
// someone takes them off the pool (their seats back at once, their machines' keys refused).

const floatingPlan = (s: TestServer): Promise<PlanRow> =>
  createPlan(s, {
    price: 99_900,
    interval: 'month',
    features: { ai_chat: 100 },
    floating: { seats: 50, leaseMinutes: 15, borrowDays: 7 },
  });

const checkout = (s: TestServer, who: Member, organisationId: string, hw: string) =>
  s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/floating/checkout`,
    token: who.token,
    body: { hardware_id: hw },
  });

const pool = (s: TestServer, licenseId: string) =>
  s.app.db
    .selectFrom('floating_seats')
    .select(['held_by', 'holds_until'])
    .where('license_id', '=', licenseId)
    .where('holds_until', '>', s.clock.now().toISOString())
    .execute();

describeOnEveryDatabase(
  'SCIM provisioning of an organisation on floating seats',
  (server) => {
    it('creates more people than the pool has seats, none refused; deactivating one gives their seat back and refuses their key; reactivating lets them in again', async () => {
      const s = server();
      s.clock.freeze();
      const owner = await member(s);
      // One floating seat at a time for the whole organisation.
      const org = await seatOrganisation(s, owner, 1, await floatingPlan(s));
      const { token } = await createScimToken(s, owner.token, org.id);
      const scim = scimClient(await baseUrlOf(s), token);

      const bob = await member(s);
      const carol = await member(s);
      const dave = uniqueEmail('dave');
      const created: Record<string, string> = {};
      for (const [who, email] of [
        ['bob', bob.email],
        ['carol', carol.email],
        ['dave', dave],
      ] as const) {
        const answer = await scim('POST', '/Users', entraUser(email, `entra-${who}`));
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        created[who] = answer.body.id!;
      }
      // Accounts join at once, with no named seat: the pool is shared as machines run.
      for (const person of [bob, carol])
        expect(await membershipOf(s, org.id, person.id)).toMatchObject({
          role: 'member',
          seat_assigned_at: null,
        });
      // Dave has no account: he is invited, whatever the pool's size.
      expect((await s.lastMailTo(dave)).subject).toContain(org.name);

      const bobHw = machine('bob');
      const bobSeat = await checkout(s, bob, org.id, bobHw);
      expect(bobSeat.statusCode, bobSeat.body).toBe(201);
      const bobKey = floatingMemberSeatSchema.parse(bobSeat.json()).seat_key;
      expectApiError(await checkout(s, carol, org.id, machine('carol')), 409, 'floating_seats_full');

      // The provider deactivates Bob: the seat he held is back at once, for Carol.
      const deactivated = await scim('PATCH', `/Users/${created.bob}`, entraDeactivate);
      expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
      expect(deactivated.body.active).toBe(false);
      expect(await pool(s, org.license.id)).toEqual([]);
      expect(await membershipOf(s, org.id, bob.id)).toBeUndefined();
      const refused = await s.api({
        method: 'POST',
        path: '/licensing/floating/heartbeat',
        body: { license_key: bobKey, hardware_id: bobHw },
      });
      expectApiError(refused, 403, 'not_a_member');
      expectApiError(await checkout(s, bob, org.id, bobHw), 404, 'organisation_not_found');
      const carolHw = machine('carol');
      const carolSeat = await checkout(s, carol, org.id, carolHw);
      expect(carolSeat.statusCode, carolSeat.body).toBe(201);
      const events = await s.app.db
        .selectFrom('security_events')
        .select(['type', 'user_id'])
        .where('type', '=', 'scim_user_deactivated')
        .execute();
      expect(events).toEqual([{ type: 'scim_user_deactivated', user_id: bob.id }]);

      // Reactivated, Bob is a member again and takes a seat once Carol's is back.
      const reactivated = await scim('PATCH', `/Users/${created.bob}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
      });
      expect(reactivated.status, JSON.stringify(reactivated.body)).toBe(200);
      expect(await membershipOf(s, org.id, bob.id)).toMatchObject({ seat_assigned_at: null });
      expectApiError(await checkout(s, bob, org.id, bobHw), 409, 'floating_seats_full');
      const released = await s.api({
        method: 'POST',
        path: '/licensing/floating/release',
        body: {
          license_key: floatingMemberSeatSchema.parse(carolSeat.json()).seat_key,
          hardware_id: carolHw,
        },
      });
      expect(released.statusCode, released.body).toBe(200);
      expect((await checkout(s, bob, org.id, bobHw)).statusCode).toBe(201);
    });
  },
  licenseSuiteOptions,
);
