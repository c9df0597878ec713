import { describe, expect, it } from 'vitest';
import { adminLicenseSchema } from '../../../src/shared/api/admin.js';
import { licenseSchema } from '../../../src/shared/api/licenses.js';
import type { PlanRow } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import {
  createPlan,
  giveLicense,
  licenseRow,
  licenseSuiteOptions,
  licensingTables,
  member,
} from '../helpers/license-helpers.js';
import { createOrder, paymentTables } from '../helpers/payment-helpers.js';

/** A plan kept off the catalogue, such as an internal staff plan that only administrators grant. */
async function hiddenPlan(s: TestServer, input: Parameters<typeof createPlan>[1] = {}): Promise<PlanRow> {
  const plan = await createPlan(s, input);
  await s.app.db.updateTable('plans').set({ is_public: 0 }).where('id', '=', plan.id).execute();
  return { ...plan, is_public: 0 };
}

const activatePlan = (s: TestServer, token: string, planId: string) =>
  s.api({ method: 'POST', path: '/licenses/activate-plan', token, body: { planId } });

const changePlan = (s: TestServer, token: string, licenseId: string, planId: string) =>
  s.api({ method: 'PUT', path: `/licenses/${licenseId}/plan`, token, body: { planId } });

/** The answer to a plan that does not exist, which a hidden plan must match byte for byte. */
async function unknownPlanAnswer(send: (planId: string) => ReturnType<TestServer['api']>) {
  const response = await send('no-such-plan');
  expect(response.statusCode, response.body).toBe(404);
  expect(response.json()).toMatchObject({ code: 'plan_not_found' });
  return { statusCode: response.statusCode, body: response.json() as unknown };
}

async function expectAnsweredAsUnknown(
  send: (planId: string) => ReturnType<TestServer['api']>,
  plan: PlanRow,
): Promise<void> {
  const unknown = await unknownPlanAnswer(send);
  for (const planId of [plan.id, plan.code]) {
    const response = await send(planId);
    expect({ statusCode: response.statusCode, body: response.json() as unknown }, planId).toEqual(unknown);
  }
}

describeOnEveryDatabase(
  'plans that are not public cannot be taken by customers',
  (server) => {
    describe('POST /licenses/activate-plan', () => {
      it('a hidden free plan (by id or code) answers as an unknown plan → 404 plan_not_found, nothing written', async () => {
        const s = server();
        const user = await member(s);
        const staff = await hiddenPlan(s, { seats: 25 });
        const before = await licensingTables(s);
        await expectAnsweredAsUnknown((planId) => activatePlan(s, user.token, planId), staff);
        expect(await licensingTables(s)).toEqual(before);
      });

      it('a hidden paid plan answers 404 as well, not 402: its price would tell it exists', async () => {
        const s = server();
        const user = await member(s);
        const paid = await hiddenPlan(s, { price: 99_900, interval: 'year' });
        await expectAnsweredAsUnknown((planId) => activatePlan(s, user.token, planId), paid);
      });

      it('the same plan once public is activated → 201 (the 404 above is about being hidden)', async () => {
        const s = server();
        const user = await member(s);
        const staff = await hiddenPlan(s, { seats: 25 });
        await s.app.db.updateTable('plans').set({ is_public: 1 }).where('id', '=', staff.id).execute();
        const response = await activatePlan(s, user.token, staff.code);
        expect(response.statusCode, response.body).toBe(201);
        expect(licenseSchema.parse(response.json())).toMatchObject({
          plan_id: staff.id,
          max_activations: 25,
        });
      });
    });

    describe('PUT /licenses/{id}/plan', () => {
      it('to a hidden free or paid plan answers as an unknown plan; the license is unchanged', async () => {
        const s = server();
        const owner = await member(s);
        const license = await giveLicense(s, owner, await createPlan(s, { seats: 1 }));
        const before = await licenseRow(s, license.id);
        const send = (planId: string) => changePlan(s, owner.token, license.id, planId);
        await expectAnsweredAsUnknown(send, await hiddenPlan(s, { seats: 25 }));
        await expectAnsweredAsUnknown(send, await hiddenPlan(s, { price: 99_900, interval: 'year' }));
        expect(await licenseRow(s, license.id)).toEqual(before);
      });
    });

    describe('POST /payments/razorpay/create-order', () => {
      it('a hidden paid or free plan (by id or code) answers as an unknown plan; no order is opened', async () => {
        const s = server();
        const buyer = await member(s);
        const before = await paymentTables(s);
        const send = (planId: string) => createOrder(s, buyer.token, { plan_id: planId });
        await expectAnsweredAsUnknown(send, await hiddenPlan(s, { price: 99_900, interval: 'year' }));
        // A hidden free plan is not "free, activate it instead" (409): that too would tell it exists.
        await expectAnsweredAsUnknown(send, await hiddenPlan(s, { seats: 25 }));
        expect(await paymentTables(s)).toEqual(before);
      });
    });

    describe('administrators', () => {
      it('grant a hidden plan through POST /admin/licenses (by code)', async () => {
        const s = server();
        const admin = await signInAsAdmin(s);
        const user = await member(s);
        const staff = await hiddenPlan(s, { seats: 25 });
        const response = await s.api({
          method: 'POST',
          path: '/admin/licenses',
          token: admin.token,
          body: { user_id: user.id, plan_id: staff.code },
        });
        expect(response.statusCode, response.body).toBe(201);
        expect(adminLicenseSchema.parse(response.json())).toMatchObject({
          user_id: user.id,
          plan_id: staff.id,
          max_activations: 25,
        });
      });
    });
  },
  licenseSuiteOptions,
);
