import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { licenseUsageSchema } from '../../../src/shared/api/licenses.js';
import { memberUsageSchema } from '../../../src/shared/api/member-usage.js';
import { organisationUsageSchema } from '../../../src/shared/api/organisation-usage.js';
import type { OrganisationRole } from '../../../src/shared/api/organisations.js';
import type { Overage } from '../../../src/shared/api/plans.js';
import { type UsageBatchResponse, usageBatchResponseSchema } from '../../../src/shared/api/usage.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { createPlan, featureByKey, member, signInAgain, usageTotals } from '../helpers/license-helpers.js';
import { addMember, seatOrganisation } from '../helpers/organisation-seat-helpers.js';

interface Event {
  id: string;
  feature: string;
  amount: number;
}

const events = (prefix: string, count: number, amount = 1): Event[] =>
  Array.from({ length: count }, (_, index) => ({ id: `${prefix}-${index}`, feature: 'ai_chat', amount }));

const outcomes = (answer: UsageBatchResponse) =>
  answer.results.map((result) => (result.outcome === 'refused' ? `refused:${result.code}` : result.outcome));

/**
 * An organisation whose license meters AI requests (`ai_chat`) at `allowance` a month for all its
 * members together: its owner, an admin and two members, each holding a seat.
 */
async function pooledOrganisation(s: TestServer, allowance: number | null, overage?: Overage) {
  const plan = await createPlan(s, {
    seats: 10,
    features: { ai_chat: allowance, offline_mode: null },
    ...(overage ? { overage: { ai_chat: overage } } : {}),
  });
  const owner = await member(s);
  const { id, license } = await seatOrganisation(s, owner, 10, plan);
  const joined = async (role: OrganisationRole) => {
    const account = await member(s);
    await addMember(s, { id }, account, { role });
    return account;
  };
  return {
    id,
    license,
    owner,
    admin: await joined('admin'),
    alice: await joined('member'),
    bob: await joined('member'),
    featureId: (await featureByKey(s, 'ai_chat')).id,
  };
}
type Pool = Awaited<ReturnType<typeof pooledOrganisation>>;

async function reported(s: TestServer, token: string, licenseId: string, batch: Event[]) {
  const response = await s.api({
    method: 'POST',
    path: `/licenses/${licenseId}/usage/events`,
    token,
    body: { events: batch },
  });
  expect(response.statusCode, response.body).toBe(200);
  return usageBatchResponseSchema.parse(response.json());
}

const setCaps = (s: TestServer, token: string, org: Pool, userId: string, caps: unknown) =>
  s.api({
    method: 'PUT',
    path: `/organisations/${org.id}/members/${userId}/usage-caps`,
    token,
    body: { caps },
  });

async function capped(s: TestServer, org: Pool, userId: string, cap: number | null) {
  const response = await setCaps(s, org.owner.token, org, userId, [{ feature: 'ai_chat', cap }]);
  expect(response.statusCode, response.body).toBe(200);
  return memberUsageSchema.parse(response.json());
}

const capsOf = (s: TestServer, org: Pool) =>
  s.app.db.selectFrom('usage_member_caps').selectAll().where('organisation_id', '=', org.id).execute();

async function memberTotal(s: TestServer, licenseId: string, userId: string) {
  const rows = await s.app.db
    .selectFrom('usage_member_counters')
    .select('total')
    .where('license_id', '=', licenseId)
    .where('user_id', '=', userId)
    .execute();
  return rows.reduce((sum, row) => sum + Number(row.total), 0);
}

/** The middle of the current UTC month, so a test's events stay in one month whatever today is. */
function midMonth(s: TestServer) {
  const now = s.clock.now();
  s.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 12) - now.getTime());
}

describeOnEveryDatabase('organisations: one pool of metered use, with caps per member', (server) => {
  describe('setting caps', () => {
    it('owners and admins set and clear a member’s cap; the answer and the security log say so', async () => {
      const s = server();
      const org = await pooledOrganisation(s, 100);
      const set = await capped(s, org, org.alice.id, 30);
      expect(set.features).toEqual([
        expect.objectContaining({ key: 'ai_chat', used: 0, cap: 30, remaining: 30, period: 'month' }),
      ]);
      const byAdmin = await setCaps(s, org.admin.token, org, org.bob.id, [
        { feature: org.featureId, cap: 0 },
      ]);
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
      expect(memberUsageSchema.parse(byAdmin.json()).features[0]).toMatchObject({ cap: 0, remaining: 0 });
      const cleared = await capped(s, org, org.alice.id, null);
      expect(cleared.features[0]).toMatchObject({ cap: null, remaining: null });
      const logged = await s.app.db
        .selectFrom('security_events')
        .select(['actor_id', 'details'])
        .where('type', '=', 'organisation_usage_caps_changed')
        .where('user_id', '=', org.alice.id)
        .orderBy('created_at')
        .execute();
      expect(logged.map((row) => [row.actor_id, JSON.parse(row.details ?? '{}').caps])).toEqual([
        [org.owner.id, { ai_chat: 30 }],
        [org.owner.id, { ai_chat: null }],
      ]);
    });

    it('refuses members, outsiders, non-members, unknown or on/off features and bad caps with a clear 4xx', async () => {
      const s = server();
      const org = await pooledOrganisation(s, 100);
      const outsider = await member(s);
      const cap = [{ feature: 'ai_chat', cap: 5 }];
      expectApiError(
        await setCaps(s, org.alice.token, org, org.bob.id, cap),
        403,
        'organisation_admin_required',
      );
      expectApiError(
        await setCaps(s, org.alice.token, org, org.alice.id, cap),
        403,
        'organisation_admin_required',
      );
      expectApiError(await setCaps(s, outsider.token, org, org.bob.id, cap), 404, 'organisation_not_found');
      expectApiError(await setCaps(s, org.owner.token, org, outsider.id, cap), 404, 'member_not_found');
      const unknown = [{ feature: 'no_such_feature', cap: 5 }];
      expectApiError(
        await setCaps(s, org.owner.token, org, org.bob.id, unknown),
        400,
        'feature_not_included',
      );
      const onOff = [{ feature: 'offline_mode', cap: 5 }];
      expectApiError(await setCaps(s, org.owner.token, org, org.bob.id, onOff), 400, 'feature_not_metered');
      // One bad feature refuses the whole change: the good one is not half-applied.
      const mixed = [{ feature: 'ai_chat', cap: 5 }, ...onOff];
      expectApiError(await setCaps(s, org.owner.token, org, org.bob.id, mixed), 400, 'feature_not_metered');
      for (const bad of [-1, 2.5, 1e12, '10', true]) {
        const response = await setCaps(s, org.owner.token, org, org.bob.id, [
          { feature: 'ai_chat', cap: bad },
        ]);
        expect(response.statusCode, `${String(bad)}: ${response.body}`).toBe(400);
        expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
      const twice = [
        { feature: 'ai_chat', cap: 1 },
        { feature: 'ai_chat', cap: 2 },
      ];
      expect((await setCaps(s, org.owner.token, org, org.bob.id, twice)).statusCode).toBe(400);
      expect((await setCaps(s, org.owner.token, org, org.bob.id, [])).statusCode).toBe(400);
      const caps = await capsOf(s, org);
      expect(caps).toEqual([]);
    });

    it('a member who leaves loses their caps', async () => {
      const s = server();
      const org = await pooledOrganisation(s, 100);
      await capped(s, org, org.alice.id, 10);
      const left = await s.api({
        method: 'POST',
        path: `/organisations/${org.id}/leave`,
        token: org.alice.token,
      });
      expect(left.statusCode, left.body).toBe(204);
      expect(await capsOf(s, org)).toEqual([]);
    });
  });

  describe('counting within the pool and each member’s cap', () => {
    it('refuses what would pass the reporter’s cap with member_cap_reached; others draw on the pool as before', async () => {
      const s = server();
      midMonth(s);
      const org = await pooledOrganisation(s, 100);
      await capped(s, org, org.alice.id, 5);
      const alice = await reported(s, org.alice.token, org.license.id, [
        ...events('a', 4),
        { id: 'a-big', feature: 'ai_chat', amount: 2 },
        { id: 'a-last', feature: 'ai_chat', amount: 1 },
        { id: 'a-over', feature: 'ai_chat', amount: 1 },
      ]);
      expect(outcomes(alice)).toEqual([
        'counted',
        'counted',
        'counted',
        'counted',
        'refused:member_cap_reached',
        'counted',
        'refused:member_cap_reached',
      ]);
      expect(alice.results[4]?.message).toMatch(/caps your use at 5/);
      const bob = await reported(s, org.bob.token, org.license.id, events('b', 7));
      expect(bob.counted).toBe(7);
      expect(await usageTotals(s, org.license.id, org.featureId)).toEqual({
        counter: 12,
        events: 12,
        eventSum: 12,
      });
      expect(await memberTotal(s, org.license.id, org.alice.id)).toBe(5);
      expect(await memberTotal(s, org.license.id, org.bob.id)).toBe(7);
      // The single-event call says the member's cap stopped it, not the pool.
      const single = await s.api({
        method: 'POST',
        path: `/licenses/${org.license.id}/usage`,
        token: org.alice.token,
        body: { featureId: 'ai_chat', usageAmount: 1 },
      });
      expectApiError(single, 409, 'member_cap_reached');

      // Replayed: duplicates, and no counter moves, the members' included.
      const again = await reported(s, org.alice.token, org.license.id, events('a', 4));
      expect(again.duplicates).toBe(4);
      expect(await memberTotal(s, org.license.id, org.alice.id)).toBe(5);

      // A raised cap lets the member go on; the pool's allowance still holds for all.
      await capped(s, org, org.alice.id, 1000);
      const more = await reported(s, org.alice.token, org.license.id, events('a2', 100));
      expect(more.counted).toBe(88);
      expect(more.results.at(-1)).toMatchObject({ outcome: 'refused', code: 'allowance_used' });
      expect(await usageTotals(s, org.license.id, org.featureId)).toMatchObject({ counter: 100 });
    });

    it('the AI backend’s events carry no member and are not held to a member’s cap', async () => {
      const s = server();
      midMonth(s);
      const org = await pooledOrganisation(s, 100);
      await capped(s, org, org.owner.id, 0);
      const admin = await signInAsAdmin(s);
      const tokenResponse = await s.api({
        method: 'POST',
        path: '/admin/api-tokens',
        token: admin.token,
        body: { name: 'AI backend', scopes: ['usage:write'], expires_in_days: 30 },
      });
      const token = tokenResponse.json<{ token: string }>().token;
      const response = await s.api({
        method: 'POST',
        path: '/usage/events',
        token,
        body: { events: [{ license_id: org.license.id, id: 'backend-1', feature: 'ai_chat', amount: 3 }] },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ counted: number }>().counted).toBe(1);
      expect(await memberTotal(s, org.license.id, org.owner.id)).toBe(0);
      // The owner's own app is held to the owner's cap.
      const own = await reported(s, org.owner.token, org.license.id, events('owner', 1));
      expect(outcomes(own)).toEqual(['refused:member_cap_reached']);
    });
  });

  describe('what members and managers see', () => {
    it('the usage report shows the caller their own use and cap beside the pool; managers see every member', async () => {
      const s = server();
      midMonth(s);
      const org = await pooledOrganisation(s, 100);
      await capped(s, org, org.alice.id, 20);
      await reported(s, org.alice.token, org.license.id, events('a', 6));
      await reported(s, org.bob.token, org.license.id, events('b', 9));

      const report = await s.api({ path: `/licenses/${org.license.id}/usage`, token: org.alice.token });
      expect(report.statusCode, report.body).toBe(200);
      const usage = licenseUsageSchema.parse(report.json());
      expect(usage.usage_info.features.find((feature) => feature.key === 'ai_chat')).toMatchObject({
        used: 15,
        limit: 100,
      });
      expect(usage.member_usage?.user_id).toBe(org.alice.id);
      expect(usage.member_usage?.features).toEqual([
        expect.objectContaining({ key: 'ai_chat', used: 6, cap: 20, remaining: 14 }),
      ]);

      const pool = await s.api({ path: `/organisations/${org.id}/usage`, token: org.admin.token });
      expect(pool.statusCode, pool.body).toBe(200);
      const answer = organisationUsageSchema.parse(pool.json());
      expect(answer.pool.map((feature) => [feature.key, feature.used, feature.limit])).toEqual([
        ['ai_chat', 15, 100],
      ]);
      const byUser = new Map(answer.members.map((each) => [each.user_id, each.features[0]]));
      expect(byUser.get(org.alice.id)).toMatchObject({ used: 6, cap: 20 });
      expect(byUser.get(org.bob.id)).toMatchObject({ used: 9, cap: null });
      expect(byUser.get(org.owner.id)).toMatchObject({ used: 0, cap: null });
      expectApiError(
        await s.api({ path: `/organisations/${org.id}/usage`, token: org.bob.token }),
        403,
        'organisation_admin_required',
      );

      // The owner holds the license and is a member too: their report shows their own share.
      const owners = await s.api({ path: `/licenses/${org.license.id}/usage`, token: org.owner.token });
      expect(licenseUsageSchema.parse(owners.json()).member_usage?.features[0]).toMatchObject({ used: 0 });
    });
  });

  describe('races: members’ devices draining the last units at once', () => {
    /** Sends through the first instance, or every other batch through a second one when given. */
    function sender(s: TestServer, second?: Awaited<ReturnType<typeof buildApp>>) {
      return async (index: number, token: string, licenseId: string, batch: Event[]) => {
        if (!second || index % 2 === 0) return reported(s, token, licenseId, batch);
        const response = await second.inject({
          method: 'POST',
          url: `/api/v1/licenses/${licenseId}/usage/events`,
          headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${token}` },
          payload: { events: batch },
        });
        expect(response.statusCode, response.body).toBe(200);
        return usageBatchResponseSchema.parse(response.json());
      };
    }

    /** Ten units left of the pool's 50; two members, two devices each, 12 batches of 3 at once. */
    async function poolHolds(s: TestServer, send: ReturnType<typeof sender>) {
      midMonth(s);
      const org = await pooledOrganisation(s, 50);
      await reported(s, org.owner.token, org.license.id, events('before', 40));
      const devices = [
        org.alice,
        org.bob,
        await signInAgain(s, { ...org.alice }),
        await signInAgain(s, { ...org.bob }),
      ];
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          send(index, devices[index % 4]!.token, org.license.id, events(`race-${index}`, 3)),
        ),
      );
      expect(answers.reduce((sum, answer) => sum + answer.counted, 0)).toBe(10);
      expect(await usageTotals(s, org.license.id, org.featureId)).toEqual({
        counter: 50,
        events: 50,
        eventSum: 50,
      });
      const members =
        (await memberTotal(s, org.license.id, org.alice.id)) +
        (await memberTotal(s, org.license.id, org.bob.id));
      expect(members).toBe(10);
    }

    /** A member capped at 7 of a pool with plenty: their two devices send 8 batches of two 2-unit events at once. */
    async function capHolds(s: TestServer, send: ReturnType<typeof sender>) {
      midMonth(s);
      const org = await pooledOrganisation(s, 1000);
      await capped(s, org, org.alice.id, 7);
      const devices = [org.alice, await signInAgain(s, { ...org.alice })];
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          send(index, devices[index % 2]!.token, org.license.id, events(`cap-${index}`, 2, 2)),
        ),
      );
      expect(answers.reduce((sum, answer) => sum + answer.counted, 0)).toBe(3);
      expect(
        answers.flatMap((answer) => answer.results).filter((result) => result.outcome === 'counted'),
      ).toHaveLength(3);
      expect(await memberTotal(s, org.license.id, org.alice.id)).toBe(6);
      expect(await usageTotals(s, org.license.id, org.featureId)).toMatchObject({ counter: 6, eventSum: 6 });
    }

    it('on one instance the pool’s stop ceiling holds exactly', async () => {
      const s = server();
      await poolHolds(s, sender(s));
    });

    it('on one instance a member’s cap holds exactly', async () => {
      const s = server();
      await capHolds(s, sender(s));
    });

    it('on two instances of one database the pool’s ceiling and a member’s cap hold exactly', async () => {
      const s = server();
      // The second instance: its own app and connection pool on the same database and clock.
      const second = await buildApp(s.config, { clock: s.clock, logger: false });
      onTestFinished(() => second.close());
      await poolHolds(s, sender(s, second));
      await capHolds(s, sender(s, second));
    });
  });
});
