import { describe, expect, it } from 'vitest';
import {
  featureUsageSchema,
  licenseFeaturesSchema,
  licenseSchema,
  licenseUsageSchema,
  trackUsageResponseSchema,
} from '../../../src/shared/api/licenses.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activateBase,
  expectActivation,
  featureByKey,
  giveLicense,
  licenseSuiteOptions,
  licensingTables,
  machine,
  member,
  signInAgain,
  trackUsage,
  untilNextMonth,
  usageTotals,
} from '../helpers/license-helpers.js';

/** A signed-in user with their Base license (ai_chat 100/month, document_analysis 10/month). */
async function withBase(s: TestServer) {
  const user = await member(s);
  const base = expectActivation(await activateBase(s, user.token, machine()), 201);
  return { user, licenseId: base.license_id, licenseKey: base.license_key };
}

const monthStart = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

async function featureCheck(s: TestServer, token: string, licenseId: string, feature: string) {
  const response = await s.api({ path: `/licenses/${licenseId}/features/${feature}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return featureUsageSchema.parse(response.json());
}

describeOnEveryDatabase(
  'licenses: features and usage metering',
  (server) => {
    describe('usage_info and features', () => {
      it('a new license reports this month’s totals per metered feature with the license', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const license = licenseSchema.parse(
          (await s.api({ path: `/licenses/${licenseId}`, token: user.token })).json(),
        );
        const byKey = new Map(license.usage_info.features.map((feature) => [feature.key, feature]));
        expect([...byKey.keys()].sort()).toEqual(['ai_chat', 'document_analysis']);
        expect(byKey.get('ai_chat')).toMatchObject({
          kind: 'metered',
          period: 'month',
          limit: 100,
          used: 0,
          remaining: 100,
          available: true,
          period_start: monthStart(s.clock.now()),
        });
        expect(byKey.get('document_analysis')).toMatchObject({ limit: 10, used: 0, remaining: 10 });
      });

      it('GET /licenses/{id}/features lists the plan’s features; on/off ones read as included', async () => {
        const s = server();
        const owner = await member(s);
        const pro = await giveLicense(s, owner, 'pro-monthly');
        const response = await s.api({ path: `/licenses/${pro.id}/features`, token: owner.token });
        expect(response.statusCode).toBe(200);
        const { license_id, features } = licenseFeaturesSchema.parse(response.json());
        expect(license_id).toBe(pro.id);
        expect(features.map((feature) => feature.key).sort()).toEqual([
          'ai_chat',
          'code_assistant',
          'document_analysis',
          'offline_mode',
          'voice_commands',
        ]);
        expect(features.find((feature) => feature.key === 'code_assistant')).toMatchObject({
          kind: 'boolean',
          available: true,
          limit: null,
          message: 'Code assistant is included',
        });
      });

      it('a feature check answers by feature id or key; a feature outside the plan reads as unavailable', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const chat = await featureByKey(s, 'ai_chat');
        const byKey = await featureCheck(s, user.token, licenseId, 'ai_chat');
        const byId = await featureCheck(s, user.token, licenseId, chat.id);
        expect(byId).toEqual(byKey);
        expect(byKey).toMatchObject({ feature_id: chat.id, limit: 100, available: true });

        const voice = await featureCheck(s, user.token, licenseId, 'voice_commands');
        expect(voice).toMatchObject({ available: false, limit: 0 });
        expect(voice.message).toBe('Voice commands is not included in the Base plan. Upgrade to use it.');

        expectApiError(
          await s.api({ path: `/licenses/${licenseId}/features/teleportation`, token: user.token }),
          404,
          'feature_not_found',
        );
      });
    });

    describe('POST /licenses/{id}/usage', () => {
      it('counts use (usageAmount defaults to 1): the total shows in the answer, usage_info, GET usage and the tables', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const chat = await featureByKey(s, 'ai_chat');

        const first = await trackUsage(s, user.token, licenseId, { featureId: 'ai_chat' });
        expect(first.statusCode, first.body).toBe(200);
        expect(trackUsageResponseSchema.parse(first.json())).toMatchObject({
          license_id: licenseId,
          recorded: 1,
          feature: { key: 'ai_chat', used: 1, remaining: 99 },
        });
        const second = await trackUsage(s, user.token, licenseId, {
          featureId: chat.id,
          usageAmount: 5,
          usageData: { model: 'local-7b', tokens: 812 },
        });
        expect(second.statusCode, second.body).toBe(200);
        expect(trackUsageResponseSchema.parse(second.json()).feature).toMatchObject({
          used: 6,
          remaining: 94,
          available: true,
        });
        expect(trackUsageResponseSchema.parse(second.json()).feature.message).toContain(
          '6 of 100 messages used this month',
        );

        expect(await usageTotals(s, licenseId, chat.id)).toEqual({ counter: 6, events: 2, eventSum: 6 });
        const events = await s.app.db
          .selectFrom('usage_events')
          .select(['amount', 'data'])
          .where('license_id', '=', licenseId)
          .orderBy('amount')
          .execute();
        expect(events.map((event) => [Number(event.amount), JSON.parse(event.data)])).toEqual([
          [1, {}],
          [5, { model: 'local-7b', tokens: 812 }],
        ]);

        const license = licenseSchema.parse(
          (await s.api({ path: `/licenses/${licenseId}`, token: user.token })).json(),
        );
        expect(license.usage_info.features.find((feature) => feature.key === 'ai_chat')?.used).toBe(6);

        const usage = await s.api({ path: `/licenses/${licenseId}/usage`, token: user.token });
        expect(usage.statusCode).toBe(200);
        const report = licenseUsageSchema.parse(usage.json());
        expect(report.usage_info).toEqual(license.usage_info);
        expect(report.history).toEqual([
          {
            date: s.clock.now().toISOString().slice(0, 10),
            feature_id: chat.id,
            key: 'ai_chat',
            amount: 6,
          },
        ]);
      });

      it('a metered feature at its limit reads as not available, with a message saying so', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const response = await trackUsage(s, user.token, licenseId, {
          featureId: 'document_analysis',
          usageAmount: 10,
        });
        expect(response.statusCode, response.body).toBe(200);
        const check = await featureCheck(s, user.token, licenseId, 'document_analysis');
        expect(check).toMatchObject({ used: 10, remaining: 0, available: false });
        expect(check.message).toMatch(
          /^Document analysis limit reached: 10 of 10 documents used this month; it resets on 1 /,
        );
      });

      it('tracking that would pass the limit → 409 usage_limit_reached with what is left, and nothing counted', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const documents = await featureByKey(s, 'document_analysis');
        expect(
          (await trackUsage(s, user.token, licenseId, { featureId: 'document_analysis', usageAmount: 8 }))
            .statusCode,
        ).toBe(200);

        const before = await licensingTables(s);
        const over = expectApiError(
          await trackUsage(s, user.token, licenseId, { featureId: 'document_analysis', usageAmount: 3 }),
          409,
          'usage_limit_reached',
        );
        expect(over.message).toContain('Only 2 documents left, fewer than the 3 asked for');
        expect(await licensingTables(s)).toEqual(before);

        expect(
          (await trackUsage(s, user.token, licenseId, { featureId: 'document_analysis', usageAmount: 2 }))
            .statusCode,
        ).toBe(200);
        const full = expectApiError(
          await trackUsage(s, user.token, licenseId, { featureId: 'document_analysis' }),
          409,
          'usage_limit_reached',
        );
        expect(full.message).toContain('Document analysis limit reached: 10 of 10 documents used');
        expect(await usageTotals(s, licenseId, documents.id)).toEqual({
          counter: 10,
          events: 2,
          eventSum: 10,
        });
      });

      it('a first use already over the limit → 409 and no counter or event is written', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const before = await licensingTables(s);
        expectApiError(
          await trackUsage(s, user.token, licenseId, { featureId: 'document_analysis', usageAmount: 11 }),
          409,
          'usage_limit_reached',
        );
        expect(await licensingTables(s)).toEqual(before);
      });

      it('an on/off feature → 400 feature_not_metered; nothing written', async () => {
        const s = server();
        const owner = await member(s);
        const pro = await giveLicense(s, owner, 'pro-monthly');
        const before = await licensingTables(s);
        const body = expectApiError(
          await trackUsage(s, owner.token, pro.id, { featureId: 'code_assistant' }),
          400,
          'feature_not_metered',
        );
        expect(body.message).toBe('Code assistant is an on/off feature; only metered features count usage');
        expect(await licensingTables(s)).toEqual(before);
      });

      it('a feature the plan does not include → 403 feature_not_included; nothing written', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const before = await licensingTables(s);
        const body = expectApiError(
          await trackUsage(s, user.token, licenseId, { featureId: 'voice_commands' }),
          403,
          'feature_not_included',
        );
        expect(body.message).toContain('not included in the Base plan');
        expect(await licensingTables(s)).toEqual(before);
      });

      it('an unknown feature → 404 feature_not_found; nothing written', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const before = await licensingTables(s);
        const body = expectApiError(
          await trackUsage(s, user.token, licenseId, { featureId: 'teleportation' }),
          404,
          'feature_not_found',
        );
        expect(body.message).toBe('Unknown feature: teleportation');
        expect(await licensingTables(s)).toEqual(before);
      });

      it('usage on a revoked or expired license → 403 with its status; nothing written', async () => {
        const s = server();
        const owner = await member(s);
        const revoked = await giveLicense(s, owner, 'pro-monthly');
        const expired = await giveLicense(s, owner, 'pro-monthly');
        await s.app.db
          .updateTable('licenses')
          .set({ status: 'revoked' })
          .where('id', '=', revoked.id)
          .execute();
        await s.app.db
          .updateTable('licenses')
          .set({ expires_at: new Date(s.clock.now().getTime() - 1000).toISOString() })
          .where('id', '=', expired.id)
          .execute();
        const before = await licensingTables(s);
        expectApiError(
          await trackUsage(s, owner.token, revoked.id, { featureId: 'ai_chat' }),
          403,
          'license_revoked',
        );
        expectApiError(
          await trackUsage(s, owner.token, expired.id, { featureId: 'ai_chat' }),
          403,
          'license_expired',
        );
        expect(await licensingTables(s)).toEqual(before);
      });
    });

    describe('usage periods', () => {
      it('the monthly period resets at the start of the next month', async () => {
        const s = server();
        const { user, licenseId } = await withBase(s);
        const documents = await featureByKey(s, 'document_analysis');
        expect(
          (await trackUsage(s, user.token, licenseId, { featureId: 'document_analysis', usageAmount: 10 }))
            .statusCode,
        ).toBe(200);
        expect((await featureCheck(s, user.token, licenseId, 'document_analysis')).available).toBe(false);
        const oldPeriod = monthStart(s.clock.now());

        s.clock.advance(untilNextMonth(s.clock.now()));
        await signInAgain(s, user);
        const reset = await featureCheck(s, user.token, licenseId, 'document_analysis');
        expect(reset).toMatchObject({
          used: 0,
          remaining: 10,
          available: true,
          period_start: monthStart(s.clock.now()),
        });
        expect(reset.period_start).not.toBe(oldPeriod);

        const tracked = await trackUsage(s, user.token, licenseId, { featureId: 'document_analysis' });
        expect(tracked.statusCode, tracked.body).toBe(200);
        expect(trackUsageResponseSchema.parse(tracked.json()).feature.used).toBe(1);
        const counters = await s.app.db
          .selectFrom('usage_counters')
          .select(['period_start', 'total'])
          .where('license_id', '=', licenseId)
          .where('feature_id', '=', documents.id)
          .orderBy('period_start')
          .execute();
        expect(counters.map((row) => [row.period_start, Number(row.total)])).toEqual([
          [oldPeriod, 10],
          [monthStart(s.clock.now()), 1],
        ]);
      });
    });
  },
  // The web's use here is counted against the whole allowance: the machine Base was activated on
  // holds no offline allowance (USAGE_RESERVATION_PERCENT 0). Reservations: usage-reservations.test.ts.
  { env: { ...licenseSuiteOptions.env, USAGE_RESERVATION_PERCENT: '0' } },
);
