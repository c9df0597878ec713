import { describe, expect, it } from 'vitest';
import { currentPlanSchema, licenseSchema } from '../../../src/shared/api/licenses.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  createPlan,
  expectActivation,
  giveLicense,
  licenseRow,
  licenseSuiteOptions,
  licensingTables,
  machine,
  member,
  planByCode,
} from '../helpers/license-helpers.js';

const activatePlan = (s: TestServer, token: string, body: unknown) =>
  s.api({ method: 'POST', path: '/licenses/activate-plan', token, body });

const changePlan = (s: TestServer, token: string, licenseId: string, planId: string) =>
  s.api({ method: 'PUT', path: `/licenses/${licenseId}/plan`, token, body: { planId } });

const currentPlan = async (s: TestServer, token: string) => {
  const response = await s.api({ path: '/licenses/current-plan', token });
  expect(response.statusCode, response.body).toBe(200);
  return currentPlanSchema.parse(response.json());
};

describeOnEveryDatabase(
  'licenses: plans',
  (server) => {
    describe('POST /licenses/activate-plan', () => {
      it('the free Base plan (by code or id) is activated at once → 201, then 200 with the same license', async () => {
        const s = server();
        const user = await member(s);
        const base = await planByCode(s, 'base');
        const first = await activatePlan(s, user.token, { planId: 'base', userInfo: { name: 'Ada' } });
        expect(first.statusCode, first.body).toBe(201);
        const license = licenseSchema.parse(first.json());
        expect(license).toMatchObject({
          user_id: user.id,
          plan_id: base.id,
          status: 'active',
          max_activations: 1,
        });

        const again = await activatePlan(s, user.token, { planId: base.id });
        expect(again.statusCode, again.body).toBe(200);
        expect(licenseSchema.parse(again.json()).license_id).toBe(license.license_id);
        const rows = await s.app.db
          .selectFrom('licenses')
          .select('id')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toEqual([{ id: license.license_id }]);
      });

      it('another free plan issues a license with the userInfo kept → 201; again → 200, no second license', async () => {
        const s = server();
        const user = await member(s);
        const plan = await createPlan(s, { seats: 2, features: { ai_chat: 50 } });
        const first = await activatePlan(s, user.token, { planId: plan.code, userInfo: { company: 'Acme' } });
        expect(first.statusCode, first.body).toBe(201);
        const license = licenseSchema.parse(first.json());
        expect(license).toMatchObject({ plan_id: plan.id, max_activations: 2 });
        expect(JSON.parse((await licenseRow(s, license.license_id)).metadata ?? 'null')).toEqual({
          company: 'Acme',
        });

        const again = await activatePlan(s, user.token, { planId: plan.id, userInfo: {} });
        expect(again.statusCode).toBe(200);
        expect(licenseSchema.parse(again.json()).license_id).toBe(license.license_id);
      });

      it('a paid plan → 402 payment_required naming the plan; no license written', async () => {
        const s = server();
        const user = await member(s);
        const before = await licensingTables(s);
        const body = expectApiError(
          await activatePlan(s, user.token, { planId: 'pro-monthly', userInfo: {} }),
          402,
          'payment_required',
        );
        expect(body.message).toBe('Pro is a paid plan: buy it on the Purchase page to activate it.');
        expect(await licensingTables(s)).toEqual(before);
      });

      it('an unknown, inactive or archived plan → 404 plan_not_found', async () => {
        const s = server();
        const user = await member(s);
        const inactive = await createPlan(s);
        const archived = await createPlan(s);
        await s.app.db.updateTable('plans').set({ is_active: 0 }).where('id', '=', inactive.id).execute();
        await s.app.db
          .updateTable('plans')
          .set({ archived_at: s.clock.now().toISOString() })
          .where('id', '=', archived.id)
          .execute();
        for (const planId of ['no-such-plan', inactive.id, archived.code]) {
          expectApiError(await activatePlan(s, user.token, { planId }), 404, 'plan_not_found');
        }
        const rows = await s.app.db
          .selectFrom('licenses')
          .select('id')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toEqual([]);
      });

      it('a missing planId or an oversized userInfo → 400 validation_error', async () => {
        const s = server();
        const user = await member(s);
        expectApiError(await activatePlan(s, user.token, { userInfo: {} }), 400, 'validation_error');
        const huge = { notes: 'x'.repeat(2100) };
        const body = expectApiError(
          await activatePlan(s, user.token, { planId: 'base', userInfo: huge }),
          400,
          'validation_error',
        );
        expect(body.message).toContain('userInfo must be at most 2048 bytes');
      });
    });

    describe('GET /licenses/current-plan', () => {
      it('no license → plan and license null', async () => {
        const s = server();
        const user = await member(s);
        expect(await currentPlan(s, user.token)).toEqual({ plan: null, license: null });
      });

      it('answers the plan of the best active license: the priciest, ignoring expired ones', async () => {
        const s = server();
        const user = await member(s);
        expect((await activatePlan(s, user.token, { planId: 'base' })).statusCode).toBe(201);
        expect((await currentPlan(s, user.token)).plan?.code).toBe('base');

        const pro = await giveLicense(s, user, 'pro-yearly');
        const withPro = await currentPlan(s, user.token);
        expect(withPro.plan).toMatchObject({ code: 'pro-yearly', max_activations: 3 });
        expect(withPro.plan?.features.map((feature) => feature.key)).toContain('code_assistant');
        expect(withPro.license?.license_id).toBe(pro.id);

        await s.app.db
          .updateTable('licenses')
          .set({ expires_at: new Date(s.clock.now().getTime() - 1000).toISOString() })
          .where('id', '=', pro.id)
          .execute();
        expect((await currentPlan(s, user.token)).plan?.code).toBe('base');
      });
    });

    describe('PUT /licenses/{id}/plan', () => {
      it('moves a license to a free plan: plan_id, subscription_id and seats change', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly', { subscriptionId: 'sub_123' });
        expect(license.subscription_id).toBe('sub_123');
        const target = await createPlan(s, { seats: 2, interval: 'lifetime', features: { ai_chat: 20 } });

        const response = await changePlan(s, owner.token, license.id, target.id);
        expect(response.statusCode, response.body).toBe(200);
        const changed = licenseSchema.parse(response.json());
        expect(changed).toMatchObject({
          license_id: license.id,
          license_key: license.license_key,
          plan_id: target.id,
          plan: { code: target.code },
          subscription_id: null,
          max_activations: 2,
          expires_at: null,
        });
        expect(changed.usage_info.features.map((feature) => [feature.key, feature.limit])).toEqual([
          ['ai_chat', 20],
        ]);
        expect(await licenseRow(s, license.id)).toMatchObject({
          plan_id: target.id,
          subscription_id: null,
          max_activations: 2,
        });
      });

      it('to a paid plan → 402 and the license is unchanged', async () => {
        const s = server();
        const owner = await member(s);
        const free = await createPlan(s, { seats: 1 });
        const license = await giveLicense(s, owner, free);
        const before = await licenseRow(s, license.id);
        expectApiError(await changePlan(s, owner.token, license.id, 'team-yearly'), 402, 'payment_required');
        expect(await licenseRow(s, license.id)).toEqual(before);
      });

      it('to a plan with fewer seats than machines in use → 409 naming both; the license is unchanged', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        for (const label of ['a', 'b', 'c']) {
          expectActivation(await activate(s, owner.token, license.license_key, machine(label)), 201);
        }
        const single = await createPlan(s, { seats: 1 });
        const before = await licenseRow(s, license.id);
        const body = expectApiError(
          await changePlan(s, owner.token, license.id, single.id),
          409,
          'too_many_activations',
        );
        expect(body.message).toContain(
          'allows 1 machine, but this license is active on 3. Deactivate 2 first.',
        );
        expect(await licenseRow(s, license.id)).toEqual(before);
      });

      it('the free Base license stays on Base → 409 base_license_fixed; an unknown plan → 404', async () => {
        const s = server();
        const user = await member(s);
        const base = licenseSchema.parse((await activatePlan(s, user.token, { planId: 'base' })).json());
        const free = await createPlan(s);
        expectApiError(await changePlan(s, user.token, base.license_id, free.id), 409, 'base_license_fixed');
        expectApiError(
          await changePlan(s, user.token, base.license_id, 'no-such-plan'),
          404,
          'plan_not_found',
        );
        expect((await licenseRow(s, base.license_id)).plan_id).toBe(base.plan_id);
      });
    });
  },
  licenseSuiteOptions,
);
