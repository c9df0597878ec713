import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { licenseUsageSchema } from '../../../src/shared/api/licenses.js';
import type { Overage } from '../../../src/shared/api/plans.js';
import { type UsageBatchResponse, usageBatchResponseSchema } from '../../../src/shared/api/usage.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  createPlan,
  DAY_MS,
  featureByKey,
  giveLicense,
  member,
  signInAgain,
  usageTotals,
} from '../helpers/license-helpers.js';

interface Event {
  id: string;
  feature: string;
  amount: number;
  occurred_at?: string;
}

const report = (s: TestServer, token: string, licenseId: string, events: unknown) =>
  s.api({ method: 'POST', path: `/licenses/${licenseId}/usage/events`, token, body: { events } });

async function reported(s: TestServer, token: string, licenseId: string, events: Event[]) {
  const response = await report(s, token, licenseId, events);
  expect(response.statusCode, response.body).toBe(200);
  return usageBatchResponseSchema.parse(response.json());
}

const outcomes = (answer: UsageBatchResponse) =>
  answer.results.map((result) => (result.outcome === 'refused' ? `refused:${result.code}` : result.outcome));

const events = (prefix: string, count: number, amount = 1, feature = 'ai_chat'): Event[] =>
  Array.from({ length: count }, (_, index) => ({ id: `${prefix}-${index}`, feature, amount }));

/** A customer with a license of a plan metering AI requests (`ai_chat`) at `allowance` a month. */
async function customerWith(s: TestServer, allowance: number, overage?: Overage) {
  const plan = await createPlan(s, {
    features: { ai_chat: allowance, offline_mode: null },
    ...(overage ? { overage: { ai_chat: overage } } : {}),
  });
  const owner = await member(s);
  const license = await giveLicense(s, owner, plan);
  const feature = await featureByKey(s, 'ai_chat');
  return { owner, license, featureId: feature.id };
}

/** The middle of the current UTC month, so a test's events stay in one month whatever today is. */
function midMonth(s: TestServer) {
  const now = s.clock.now();
  s.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 12) - now.getTime());
}

describeOnEveryDatabase(
  'usage: batches of events, each counted once, in its period, within its ceiling',
  (server) => {
    describe('idempotent ingest', () => {
      it('counts a batch once: replayed, every event reads as a duplicate and no counter moves', async () => {
        const s = server();
        const { owner, license, featureId } = await customerWith(s, 1000);
        const batch = events('replay', 40, 3);

        const first = await reported(s, owner.token, license.id, batch);
        expect(first).toMatchObject({ counted: 40, duplicates: 0, refused: 0 });
        expect(first.features).toHaveLength(1);
        expect(first.features[0]).toMatchObject({ key: 'ai_chat', used: 120, remaining: 880 });

        const again = await reported(s, owner.token, license.id, batch);
        expect(again).toMatchObject({ counted: 0, duplicates: 40, refused: 0 });
        expect(again.features[0]?.used).toBe(120);
        expect(await usageTotals(s, license.id, featureId)).toEqual({
          counter: 120,
          events: 40,
          eventSum: 120,
        });

        // The daily chart reads the rollup, which agrees with the counter.
        const usage = licenseUsageSchema.parse(
          (await s.api({ path: `/licenses/${license.id}/usage?days=1`, token: owner.token })).json(),
        );
        expect(usage.history).toEqual([
          {
            date: s.clock.now().toISOString().slice(0, 10),
            feature_id: featureId,
            key: 'ai_chat',
            amount: 120,
          },
        ]);
        // Overage prices are in the plan's currency, which the read names for the portal's money.
        expect(usage.currency).toBe('INR');
      });

      it('refuses an id sent again with another amount, and counts a repeated id within one batch once', async () => {
        const s = server();
        const { owner, license, featureId } = await customerWith(s, 1000);
        await reported(s, owner.token, license.id, [{ id: 'e-1', feature: 'ai_chat', amount: 5 }]);

        const answer = await reported(s, owner.token, license.id, [
          { id: 'e-1', feature: 'ai_chat', amount: 6 },
          { id: 'e-2', feature: 'ai_chat', amount: 2 },
          { id: 'e-2', feature: 'ai_chat', amount: 2 },
          { id: 'e-3', feature: 'ai_chat', amount: 4 },
          { id: 'e-3', feature: 'ai_chat', amount: 9 },
        ]);
        expect(outcomes(answer)).toEqual([
          'refused:event_id_reused',
          'counted',
          'duplicate',
          'counted',
          'refused:event_id_reused',
        ]);
        expect(answer.results[0]?.message).toMatch(/e-1 was already counted/);
        expect(await usageTotals(s, license.id, featureId)).toEqual({ counter: 11, events: 3, eventSum: 11 });
      });

      it('counts an event in the period it happened, refuses one from the future or past the bound, and counts the rest', async () => {
        const s = server();
        midMonth(s);
        const { owner, license, featureId } = await customerWith(s, 1000);
        const now = s.clock.now().getTime();
        const lastMonth = new Date(now - 30 * DAY_MS).toISOString();
        const answer = await reported(s, owner.token, license.id, [
          { id: 'offline-1', feature: 'ai_chat', amount: 7, occurred_at: lastMonth },
          { id: 'now-1', feature: featureId, amount: 2 },
          { id: 'ahead', feature: 'ai_chat', amount: 1, occurred_at: new Date(now + 3600_000).toISOString() },
          {
            id: 'ancient',
            feature: 'ai_chat',
            amount: 1,
            occurred_at: new Date(now - 91 * DAY_MS).toISOString(),
          },
          { id: 'nope', feature: 'no_such_feature', amount: 1 },
          { id: 'switch', feature: 'offline_mode', amount: 1 },
        ]);
        expect(outcomes(answer)).toEqual([
          'counted',
          'counted',
          'refused:event_in_future',
          'refused:event_too_old',
          'refused:feature_not_included',
          'refused:feature_not_metered',
        ]);
        // This month counts only what happened this month.
        expect(answer.features[0]).toMatchObject({ used: 2 });
        const counters = await s.app.db
          .selectFrom('usage_counters')
          .select(['period_start', 'total'])
          .where('license_id', '=', license.id)
          .orderBy('period_start')
          .execute();
        expect(counters.map((row) => [row.period_start.slice(0, 7), Number(row.total)])).toEqual([
          [lastMonth.slice(0, 7), 7],
          [s.clock.now().toISOString().slice(0, 7), 2],
        ]);
        expect((await usageTotals(s, license.id, featureId)).events).toBe(2);
      });
    });

    describe('bad input: the whole batch refused with a clear 400, nothing counted', () => {
      it.each([
        ['a negative amount', [{ id: 'a', feature: 'ai_chat', amount: -1 }], /amount must be at least 1/],
        ['a fractional amount', [{ id: 'a', feature: 'ai_chat', amount: 1.5 }], /whole number/],
        ['an absurd amount', [{ id: 'a', feature: 'ai_chat', amount: 1e12 }], /at most/],
        ['an event without an id', [{ feature: 'ai_chat', amount: 1 }], /id/],
        ['an id with spaces', [{ id: 'a b', feature: 'ai_chat', amount: 1 }], /event id may contain/],
        [
          'a date that is no date',
          [{ id: 'a', feature: 'ai_chat', amount: 1, occurred_at: 'yesterday' }],
          /ISO 8601/,
        ],
        ['an empty batch', [], /at least one event/],
        ['1 001 events', events('big', 1001), /at most 1000 events/],
      ])('%s', async (_, batch, message) => {
        const s = server();
        const { owner, license, featureId } = await customerWith(s, 1000);
        const response = await report(s, owner.token, license.id, batch);
        expectApiError(response, 400, 'validation_error');
        expect(response.json().detail).toMatch(message);
        expect(await usageTotals(s, license.id, featureId)).toEqual({ counter: 0, events: 0, eventSum: 0 });
      });

      it('a batch of 100 000 events is refused whole with a JSON error, not read into memory as events', async () => {
        const s = server();
        const { owner, license, featureId } = await customerWith(s, 1000);
        const response = await report(s, owner.token, license.id, events('flood', 100_000));
        expect([400, 413]).toContain(response.statusCode);
        expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        expect(await usageTotals(s, license.id, featureId)).toEqual({ counter: 0, events: 0, eventSum: 0 });
      });

      it('another account’s license reads as not found', async () => {
        const s = server();
        const { license } = await customerWith(s, 1000);
        const stranger = await member(s);
        expectApiError(await report(s, stranger.token, license.id, events('x', 1)), 404, 'license_not_found');
      });
    });

    describe('the ceiling of each policy', () => {
      it('stop: counts up to the allowance exactly and refuses what would pass it', async () => {
        const s = server();
        const { owner, license, featureId } = await customerWith(s, 10);
        const answer = await reported(s, owner.token, license.id, [
          ...events('a', 3, 3),
          { id: 'one-more', feature: 'ai_chat', amount: 1 },
          { id: 'too-much', feature: 'ai_chat', amount: 1 },
        ]);
        expect(outcomes(answer)).toEqual([
          'counted',
          'counted',
          'counted',
          'counted',
          'refused:allowance_used',
        ]);
        expect(answer.features[0]).toMatchObject({ used: 10, remaining: 0, available: false });
        expect(answer.results[4]?.message).toMatch(/allowance is used up/);
        expect((await usageTotals(s, license.id, featureId)).counter).toBe(10);
      });

      it('bill: counts past the allowance and says how much is over it', async () => {
        const s = server();
        const { owner, license } = await customerWith(s, 10, {
          policy: 'bill',
          price_minor: 200,
          per_units: 1,
          cap: null,
        });
        const answer = await reported(s, owner.token, license.id, events('b', 15));
        expect(answer.counted).toBe(15);
        expect(answer.features[0]).toMatchObject({
          used: 15,
          remaining: 0,
          over_allowance: 5,
          available: true,
        });
        expect(answer.features[0]?.message).toMatch(/5 messages past the allowance are billed/);
      });

      it('cap: counts up to the allowance and the cap, then refuses', async () => {
        const s = server();
        const { owner, license } = await customerWith(s, 10, {
          policy: 'cap',
          price_minor: 200,
          per_units: 1,
          cap: 4,
        });
        const answer = await reported(s, owner.token, license.id, events('c', 16));
        expect(answer.counted).toBe(14);
        expect(outcomes(answer).slice(14)).toEqual([
          'refused:overage_cap_reached',
          'refused:overage_cap_reached',
        ]);
        expect(answer.features[0]).toMatchObject({ used: 14, over_allowance: 4, available: false });
      });

      it('the single-event call counts through the same ceiling: 409 past it, with what is left', async () => {
        const s = server();
        const { owner, license } = await customerWith(s, 10, {
          policy: 'cap',
          price_minor: 200,
          per_units: 1,
          cap: 4,
        });
        await reported(s, owner.token, license.id, events('d', 12));
        const body = { featureId: 'ai_chat', usageAmount: 3 };
        const refused = await s.api({
          method: 'POST',
          path: `/licenses/${license.id}/usage`,
          token: owner.token,
          body,
        });
        expectApiError(refused, 409, 'usage_limit_reached');
        expect(refused.json().message).toMatch(/Only 2 messages left, fewer than the 3 asked for/);
      });
    });

    describe('races: devices draining the last units at once', () => {
      /** Ten units left of 50; 12 batches of 3 units from two sessions at once: exactly 10 count. */
      async function drainAtOnce(
        s: TestServer,
        send: (index: number, token: string, batch: Event[]) => Promise<unknown>,
      ) {
        const { owner, license, featureId } = await customerWith(s, 50);
        const otherDevice = await signInAgain(s, { ...owner });
        await reported(s, owner.token, license.id, events('before', 40));
        const answers = await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            send(index, [owner, otherDevice][index % 2]!.token, events(`race-${index}`, 3)).then((response) =>
              usageBatchResponseSchema.parse(response),
            ),
          ),
        );
        expect(answers.reduce((sum, answer) => sum + answer.counted, 0)).toBe(10);
        expect(await usageTotals(s, license.id, featureId)).toEqual({
          counter: 50,
          events: 50,
          eventSum: 50,
        });
        return license.id;
      }

      it('on one instance the stop ceiling holds exactly', async () => {
        const s = server();
        let licenseId = '';
        const send = async (_: number, token: string, batch: Event[]) => {
          licenseId ||= (
            await s.app.db
              .selectFrom('licenses')
              .select('id')
              .orderBy('created_at', 'desc')
              .executeTakeFirstOrThrow()
          ).id;
          return reported(s, token, licenseId, batch);
        };
        await drainAtOnce(s, send);
      });

      it('on two instances of one database the stop ceiling holds exactly', async () => {
        const s = server();
        // The second instance: its own app and connection pool on the same database and clock.
        const second = await buildApp(s.config, { clock: s.clock, logger: false });
        onTestFinished(() => second.close());
        const send = async (index: number, token: string, batch: Event[]) => {
          const { id } = await s.app.db
            .selectFrom('licenses')
            .select('id')
            .orderBy('created_at', 'desc')
            .executeTakeFirstOrThrow();
          if (index % 2 === 0) return (await reported(s, token, id, batch)) as unknown;
          const response = await second.inject({
            method: 'POST',
            url: `/api/v1/licenses/${id}/usage/events`,
            headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${token}` },
            payload: { events: batch },
          });
          expect(response.statusCode, response.body).toBe(200);
          return response.json() as unknown;
        };
        await drainAtOnce(s, send);
      });
    });
  },
);
