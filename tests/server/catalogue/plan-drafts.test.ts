import { expect, it } from 'vitest';
import {
  type CreatePlanRequest,
  type Plan,
  planSchema,
  publicPlanListSchema,
} from '../../../src/shared/api/plans.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { type SignedIn, signInAsAdmin, signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { createOrder } from '../helpers/payment-helpers.js';

let sequence = 0;

/** A paid plan as an administrator creates it in the console: no features yet. */
const monthly = (overrides: Partial<CreatePlanRequest> = {}): CreatePlanRequest => ({
  code: `draft-${process.pid}-${++sequence}`,
  name: 'Draft test plan',
  price_minor: 59_900,
  currency: 'INR',
  billing_interval: 'month',
  max_activations: 2,
  ...overrides,
});

async function create(s: TestServer, admin: SignedIn, body: CreatePlanRequest): Promise<Plan> {
  const response = await s.api({ method: 'POST', path: '/plans', token: admin.token, body });
  expect(response.statusCode, response.body).toBe(201);
  return planSchema.parse(response.json());
}

const publish = (s: TestServer, token: string, id: string) =>
  s.api({ method: 'POST', path: `/plans/${id}/publish`, token });

const publicCodes = async (s: TestServer) =>
  publicPlanListSchema.parse((await s.api({ path: '/plans/public' })).json()).map((plan) => plan.code);

const publishedEvents = async (s: TestServer, planId: string) =>
  (
    await s.app.db
      .selectFrom('security_events')
      .select('details')
      .where('type', '=', 'plan_updated')
      .execute()
  ).filter((row) => {
    const details = JSON.parse(row.details ?? '{}') as {
      plan_id?: string;
      changes?: { published?: boolean };
    };
    return details.plan_id === planId && details.changes?.published === true;
  });

async function aFeatureId(s: TestServer): Promise<string> {
  const row = await s.app.db.selectFrom('features').select('id').orderBy('key').executeTakeFirstOrThrow();
  return row.id;
}

describeOnEveryDatabase('a new plan is a draft until published with its features', (server) => {
  it('a draft is not listed, shown, activated, bought or subscribed to; each answers as an unknown plan', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await signInAsUser(s, 'draft-buyer');
    const paid = await create(
      s,
      admin,
      monthly({ features: [{ feature_id: await aFeatureId(s), limit: null }] }),
    );
    const lifetime = await create(
      s,
      admin,
      monthly({ billing_interval: 'lifetime', features: [{ feature_id: await aFeatureId(s), limit: null }] }),
    );
    const free = await create(s, admin, monthly({ billing_interval: 'free', price_minor: 0 }));
    expect([paid.is_draft, lifetime.is_draft, free.is_draft]).toEqual([true, true, true]);

    const codes = await publicCodes(s);
    for (const plan of [paid, lifetime, free]) {
      expect(codes).not.toContain(plan.code);
      expectApiError(await s.api({ path: `/plans/public/${plan.id}` }), 404, 'plan_not_found');
    }
    expectApiError(
      await s.api({ method: 'POST', path: '/subscriptions', token: buyer.token, body: { plan_id: paid.id } }),
      404,
      'plan_not_found',
    );
    expectApiError(await createOrder(s, buyer.token, { plan_id: lifetime.code }), 404, 'plan_not_found');
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/licenses/activate-plan',
        token: buyer.token,
        body: { planId: free.id },
      }),
      404,
      'plan_not_found',
    );
    const { count } = await s.app.db
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', buyer.id)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);

    // The administrators' list finds drafts apart, and its other states leave them out.
    const list = async (status: string) => {
      const response = await s.api({ path: `/plans?status=${status}&perPage=100`, token: admin.token });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: Plan[] }>().data.map((plan) => plan.id);
    };
    expect(await list('draft')).toEqual(expect.arrayContaining([paid.id, lifetime.id, free.id]));
    expect(await list('active')).not.toContain(paid.id);
    expect(await list('inactive')).not.toContain(paid.id);
  });

  it('publishing needs a feature; once published the plan is on sale, and publishing again changes nothing', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await signInAsUser(s, 'published-buyer');
    const plan = await create(s, admin, monthly({ billing_interval: 'lifetime' }));

    const empty = expectApiError(await publish(s, admin.token, plan.id), 409, 'plan_without_features');
    expect(empty.message).toMatch(/at least one feature/);
    expect(
      planSchema.parse((await s.api({ path: `/plans/${plan.id}`, token: admin.token })).json()).is_draft,
    ).toBe(true);

    const featureId = await aFeatureId(s);
    const withFeature = await s.api({
      method: 'PUT',
      path: `/plans/${plan.id}`,
      token: admin.token,
      body: { features: [{ feature_id: featureId, limit: null }] },
    });
    expect(withFeature.statusCode, withFeature.body).toBe(200);
    expect(planSchema.parse(withFeature.json()).is_draft).toBe(true);

    const published = await publish(s, admin.token, plan.id);
    expect(published.statusCode, published.body).toBe(200);
    expect(planSchema.parse(published.json())).toMatchObject({ id: plan.id, is_draft: false });
    expect(await publicCodes(s)).toContain(plan.code);
    const order = await createOrder(s, buyer.token, { plan_id: plan.id });
    expect(order.statusCode, order.body).toBe(201);

    const again = await publish(s, admin.token, plan.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(planSchema.parse(again.json()).is_draft).toBe(false);
    expect(await publishedEvents(s, plan.id)).toHaveLength(1);

    // What it is sold for cannot be emptied, while its features can still change.
    expectApiError(
      await s.api({ method: 'PUT', path: `/plans/${plan.id}`, token: admin.token, body: { features: [] } }),
      409,
      'plan_without_features',
    );
    const features = await s.app.db
      .selectFrom('plan_features')
      .selectAll()
      .where('plan_id', '=', plan.id)
      .execute();
    expect(features).toHaveLength(1);
  });

  it('an archived or unknown plan is not published; customers and anonymous callers cannot publish', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const customer = await signInAsUser(s, 'publisher');
    const plan = await create(
      s,
      admin,
      monthly({ features: [{ feature_id: await aFeatureId(s), limit: null }] }),
    );

    expectApiError(await publish(s, customer.token, plan.id), 403, 'admin_required');
    expectApiError(
      await s.api({ method: 'POST', path: `/plans/${plan.id}/publish` }),
      401,
      'not_authenticated',
    );
    expectApiError(await publish(s, admin.token, 'no-such-plan'), 404, 'plan_not_found');

    await s.app.db
      .updateTable('plans')
      .set({ archived_at: s.clock.now().toISOString() })
      .where('id', '=', plan.id)
      .execute();
    expectApiError(await publish(s, admin.token, plan.id), 409, 'plan_archived');
    const row = await s.app.db
      .selectFrom('plans')
      .select('draft')
      .where('id', '=', plan.id)
      .executeTakeFirst();
    expect(row?.draft).toBe(1);
  });
});
