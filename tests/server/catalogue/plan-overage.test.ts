import { expect, it } from 'vitest';
import { type CreatePlanRequest, type Plan, planSchema } from '../../../src/shared/api/plans.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { type SignedIn, signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';

let sequence = 0;

const featureId = async (s: TestServer, key: string) =>
  (await s.app.db.selectFrom('features').select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;

/** A monthly plan metering AI requests with the given allowance and overage. */
const planWith = (features: CreatePlanRequest['features']): CreatePlanRequest => ({
  code: `overage-${process.pid}-${++sequence}`,
  name: 'Overage test plan',
  price_minor: 99_900,
  currency: 'INR',
  billing_interval: 'month',
  max_activations: 2,
  features,
});

const create = (s: TestServer, admin: SignedIn, body: CreatePlanRequest) =>
  s.api({ method: 'POST', path: '/plans', token: admin.token, body });

describeOnEveryDatabase('plans: what happens past a metered feature’s allowance', (server) => {
  it('keeps each feature’s policy, price per block and cap, and reads stop for features sent without one', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const chat = await featureId(s, 'ai_chat');
    const documents = await featureId(s, 'document_analysis');
    const offline = await featureId(s, 'offline_mode');
    const response = await create(
      s,
      admin,
      planWith([
        { feature_id: chat, limit: 1000, overage: { policy: 'bill', price_minor: 5000, per_units: 100 } },
        { feature_id: documents, limit: 50, overage: { policy: 'cap', price_minor: 1000, cap: 20 } },
        { feature_id: offline, limit: null },
      ]),
    );
    expect(response.statusCode, response.body).toBe(201);
    const plan: Plan = planSchema.parse(response.json());
    const byKey = new Map(plan.features.map((feature) => [feature.key, feature.overage]));
    expect(byKey.get('ai_chat')).toEqual({ policy: 'bill', price_minor: 5000, per_units: 100, cap: null });
    expect(byKey.get('document_analysis')).toEqual({
      policy: 'cap',
      price_minor: 1000,
      per_units: 1,
      cap: 20,
    });
    expect(byKey.get('offline_mode')).toEqual({ policy: 'stop', price_minor: null, per_units: 1, cap: null });
  });

  it.each([
    ['billing without a price', { policy: 'bill' }, /needs a price/],
    ['a cap without its cap', { policy: 'cap', price_minor: 100 }, /needs its cap/],
    ['a cap under bill', { policy: 'bill', price_minor: 100, cap: 5 }, /only under the cap policy/],
    [
      'a price under stop',
      { policy: 'stop', price_minor: 100 },
      /only when use over the allowance is billed/,
    ],
    ['a price of nothing', { policy: 'bill', price_minor: 0 }, /at least 1/],
    ['a fractional price', { policy: 'bill', price_minor: 1.5 }, /whole minor units/],
    ['a price for no units', { policy: 'bill', price_minor: 100, per_units: 0 }, /at least 1 unit/],
    ['an unknown policy', { policy: 'maybe' }, /policy/],
  ])('refuses %s with 400', async (_, overage, message) => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const response = await create(
      s,
      admin,
      planWith([{ feature_id: await featureId(s, 'ai_chat'), limit: 10, overage } as never]),
    );
    expectApiError(response, 400, 'validation_error');
    expect(response.json().detail).toMatch(message);
  });

  it('refuses billing past an allowance that does not exist: an on/off feature or an unlimited one', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const bill = { policy: 'bill' as const, price_minor: 100 };
    const plans = async () => (await s.app.db.selectFrom('plans').select('id').execute()).length;
    const before = await plans();
    for (const feature of [
      { feature_id: await featureId(s, 'offline_mode'), limit: null, overage: bill },
      { feature_id: await featureId(s, 'ai_chat'), limit: null, overage: bill },
    ]) {
      const response = await create(s, admin, planWith([feature]));
      expectApiError(response, 400, 'overage_without_allowance');
    }
    expect(await plans()).toBe(before);
  });
  it('keeps a metered feature’s credit pack, and refuses one on an on/off feature or with bad numbers', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const chat = await featureId(s, 'ai_chat');
    const offline = await featureId(s, 'offline_mode');
    const response = await create(
      s,
      admin,
      planWith([
        { feature_id: chat, limit: 1000, pack: { units: 500, price_minor: 49_900 } },
        { feature_id: offline, limit: null },
      ]),
    );
    expect(response.statusCode, response.body).toBe(201);
    const plan = planSchema.parse(response.json());
    const byKey = new Map(plan.features.map((feature) => [feature.key, feature.pack]));
    expect(byKey.get('ai_chat')).toEqual({ units: 500, price_minor: 49_900 });
    expect(byKey.get('offline_mode')).toBeNull();

    expectApiError(
      await create(
        s,
        admin,
        planWith([{ feature_id: offline, limit: null, pack: { units: 5, price_minor: 100 } }]),
      ),
      400,
      'pack_without_period',
    );
    for (const pack of [
      { units: 0, price_minor: 100 },
      { units: 5, price_minor: 0 },
      { units: 1.5, price_minor: 100 },
      { units: 5, price_minor: -1 },
      { units: 5 },
    ])
      expectApiError(
        await create(s, admin, planWith([{ feature_id: chat, limit: 10, pack } as never])),
        400,
        'validation_error',
      );
  });
});
