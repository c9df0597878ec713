import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivationResult, License, LicenseStatusAnswer } from '../../../src/shared/api/licenses.js';
import {
  type CreatePlanRequest,
  deletePlanResponseSchema,
  type Plan,
  planListSchema,
  planSchema,
  planStatsSchema,
  publicPlanListSchema,
} from '../../../src/shared/api/plans.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import {
  expectValidationError,
  type SignedIn,
  signInAsAdmin,
  signInAsUser,
} from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';

let sequence = 0;
const uniqueCode = (label: string) => `${label}-${process.pid}-${++sequence}`;

/** A valid paid plan; each test changes what it is about. */
const paidPlan = (overrides: Partial<CreatePlanRequest> = {}): CreatePlanRequest => ({
  code: uniqueCode('paid'),
  name: 'Paid test plan',
  price_minor: 49_900,
  currency: 'INR',
  billing_interval: 'month',
  max_activations: 2,
  ...overrides,
});

const freePlan = (overrides: Partial<CreatePlanRequest> = {}): CreatePlanRequest =>
  paidPlan({
    code: uniqueCode('free'),
    name: 'Free test plan',
    price_minor: 0,
    billing_interval: 'free',
    ...overrides,
  });

describeOnEveryDatabase('plans', (server) => {
  let admin: SignedIn;
  let user: SignedIn;
  /** Seeded feature ids by key. */
  const feature: Record<string, string> = {};
  const featureId = (key: string) => {
    const id = feature[key];
    if (!id) throw new Error(`no seeded feature ${key}`);
    return id;
  };

  beforeAll(async () => {
    const s = server();
    admin = await signInAsAdmin(s);
    user = await signInAsUser(s);
    for (const row of await s.app.db.selectFrom('features').select(['id', 'key']).execute())
      feature[row.key] = row.id;
  });

  const post = (body: unknown) => server().api({ method: 'POST', path: '/plans', token: admin.token, body });
  const put = (id: string, body: unknown) =>
    server().api({ method: 'PUT', path: `/plans/${id}`, token: admin.token, body });

  const createPlan = async (body: CreatePlanRequest): Promise<Plan> => {
    const response = await post(body);
    expect(response.statusCode, response.body).toBe(201);
    return planSchema.parse(response.json());
  };

  /** Puts a plan on sale, as the console's Publish does once it has its features. */
  const publish = async (id: string): Promise<Plan> => {
    const response = await server().api({ method: 'POST', path: `/plans/${id}/publish`, token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    return planSchema.parse(response.json());
  };

  const planRow = (id: string) =>
    server().app.db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
  const planRowByCode = (code: string) =>
    server().app.db.selectFrom('plans').selectAll().where('code', '=', code).executeTakeFirst();

  const planFeatureRows = (planId: string) =>
    server()
      .app.db.selectFrom('plan_features')
      .select(['feature_id', 'limit_value'])
      .where('plan_id', '=', planId)
      .orderBy('feature_id')
      .execute();

  const publicCodes = async () => {
    const response = await server().api({ path: '/plans/public' });
    expect(response.statusCode).toBe(200);
    return publicPlanListSchema.parse(response.json()).map((plan) => plan.code);
  };

  /** A free plan that `holder` holds a license of (so deleting it must archive it). */
  async function planWithLicense(holder: SignedIn): Promise<{ plan: Plan; license: License }> {
    const plan = await publish(
      (
        await createPlan(
          freePlan({ name: 'Licensed plan', features: [{ feature_id: featureId('ai_chat'), limit: 5 }] }),
        )
      ).id,
    );
    const activated = await server().api({
      method: 'POST',
      path: '/licenses/activate-plan',
      token: holder.token,
      body: { planId: plan.id },
    });
    expect(activated.statusCode, activated.body).toBe(201);
    const license = activated.json<License>();
    expect(license.plan_id).toBe(plan.id);
    return { plan, license };
  }

  const deletePlan = async (id: string) => {
    const response = await server().api({ method: 'DELETE', path: `/plans/${id}`, token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    return deletePlanResponseSchema.parse(response.json());
  };

  describe('the seeded catalogue', () => {
    it('a fresh database offers the free Base plan and the paid plans, in sort order, with their features', async () => {
      const s = server();
      const response = await s.api({ path: '/plans/public' });
      expect(response.statusCode).toBe(200);
      const plans = publicPlanListSchema.parse(response.json());
      expect(plans.map((plan) => plan.code)).toEqual([
        'base',
        'pro-monthly',
        'pro-yearly',
        'team-yearly',
        'business-monthly',
      ]);
      expect(plans.map((plan) => plan.seat_based)).toEqual([false, false, false, false, true]);

      const [base, ...paid] = plans;
      expect(base).toMatchObject({
        name: 'Base',
        price_minor: 0,
        billing_interval: 'free',
        max_activations: 1,
        is_public: true,
        is_active: true,
        archived_at: null,
      });
      expect(base?.features.map(({ key, limit }) => ({ key, limit }))).toEqual([
        { key: 'ai_chat', limit: 100 },
        { key: 'document_analysis', limit: 10 },
      ]);
      for (const plan of paid) {
        expect(plan.price_minor, plan.code).toBeGreaterThan(0);
        expect(plan.billing_interval, plan.code).not.toBe('free');
        expect(plan.features.length, plan.code).toBeGreaterThanOrEqual(5);
      }
      expect(paid.find((plan) => plan.code === 'team-yearly')?.features).toContainEqual(
        expect.objectContaining({ key: 'ai_chat', kind: 'metered', period: 'month', limit: null }),
      );
      expect(Object.keys(feature).sort()).toEqual([
        'ai_chat',
        'code_assistant',
        'document_analysis',
        'offline_mode',
        'priority_support',
        'voice_commands',
      ]);
    });

    it('the public catalogue needs the API key but no sign-in', async () => {
      const s = server();
      const base = await planRowByCode('base');
      expectApiError(await s.api({ path: '/plans/public', withoutApiKey: true }), 401, 'invalid_api_key');
      expectApiError(
        await s.api({ path: `/plans/public/${base?.id}`, withoutApiKey: true }),
        401,
        'invalid_api_key',
      );
      const response = await s.api({ path: `/plans/public/${base?.id}` });
      expect(response.statusCode).toBe(200);
      expect(planSchema.parse(response.json())).toMatchObject({ id: base?.id, code: 'base' });
    });
  });

  describe('the public catalogue', () => {
    let offered: Plan[];
    let hidden: Plan;
    let inactive: Plan;
    let archived: Plan;

    beforeAll(async () => {
      // Published, so each is kept off the catalogue for its own reason only.
      const onSale = async (body: CreatePlanRequest) =>
        publish(
          (await createPlan({ ...body, features: [{ feature_id: featureId('ai_chat'), limit: null }] })).id,
        );
      offered = [
        await onSale(paidPlan({ name: 'Between base and pro', sort_order: 5 })),
        await onSale(paidPlan({ name: 'Last', sort_order: 900_000 })),
      ];
      hidden = await onSale(paidPlan({ name: 'Hidden', is_public: false, sort_order: 1 }));
      inactive = await onSale(paidPlan({ name: 'Inactive', is_active: false, sort_order: 1 }));
      ({ plan: archived } = await planWithLicense(user));
      expect((await deletePlan(archived.id)).outcome).toBe('archived');
    });

    it('lists only public, active, non-archived plans, ordered by sort order', async () => {
      const codes = await publicCodes();
      expect(codes.slice(0, 3)).toEqual(['base', offered[0]?.code, 'pro-monthly']);
      expect(codes.at(-1)).toBe(offered[1]?.code);
      for (const plan of [hidden, inactive, archived]) expect(codes, plan.name).not.toContain(plan.code);
      const response = await server().api({ path: '/plans/public' });
      const orders = publicPlanListSchema.parse(response.json()).map((plan) => plan.sort_order);
      expect(orders).toEqual(orders.toSorted((a, b) => a - b));
    });

    it('GET /plans/public/{id} of a hidden, inactive, archived or unknown plan → 404 plan_not_found', async () => {
      const s = server();
      expect((await s.api({ path: `/plans/public/${offered[0]?.id}` })).statusCode).toBe(200);
      for (const id of [hidden.id, inactive.id, archived.id, 'no-such-plan']) {
        const body = expectApiError(await s.api({ path: `/plans/public/${id}` }), 404, 'plan_not_found');
        expect(body.message).toBe('Plan not found');
      }
    });
  });

  describe('the guard answers before the body is read', () => {
    it('an anonymous or non-admin write with an invalid body gets 401 or 403, not validation details', async () => {
      const s = server();
      const anonymous = await s.api({ method: 'POST', path: '/plans', body: { code: '!' } });
      expectApiError(anonymous, 401, 'not_authenticated');
      const nonAdmin = await s.api({
        method: 'POST',
        path: '/plans',
        body: { code: '!' },
        token: user.token,
      });
      expectApiError(nonAdmin, 403, 'admin_required');
      const feature = await s.api({
        method: 'PUT',
        path: '/admin/features/x',
        body: { key: 1 },
        token: user.token,
      });
      expectApiError(feature, 403, 'admin_required');
    });
  });

  describe('administration is for administrators only', () => {
    // Valid bodies: the guard is what refuses them.
    const routes = [
      { method: 'GET', route: '/plans', path: () => '/plans' },
      { method: 'GET', route: '/plans/stats', path: () => '/plans/stats' },
      { method: 'GET', route: '/plans/{id}', path: (id: string) => `/plans/${id}` },
      { method: 'POST', route: '/plans', path: () => '/plans', body: true },
      { method: 'PUT', route: '/plans/{id}', path: (id: string) => `/plans/${id}`, body: true },
      { method: 'DELETE', route: '/plans/{id}', path: (id: string) => `/plans/${id}` },
    ] as const;

    it.each(routes)('$method $route without a token → 401 not_authenticated', async (route) => {
      const s = server();
      const target = await createPlan(paidPlan({ name: 'Guarded plan' }));
      const response = await s.api({
        method: route.method,
        path: route.path(target.id),
        ...('body' in route ? { body: paidPlan({ name: 'Anonymous edit' }) } : {}),
      });
      expectApiError(response, 401, 'not_authenticated');
      expect(await planRow(target.id)).toMatchObject({ name: 'Guarded plan', archived_at: null });
      expect(
        await s.app.db.selectFrom('plans').select('id').where('name', '=', 'Anonymous edit').execute(),
      ).toEqual([]);
    });

    it.each(routes)(
      '$method $route as a signed-in user → 403 admin_required, and nothing changes',
      async (route) => {
        const s = server();
        const target = await createPlan(paidPlan({ name: 'Guarded plan' }));
        const response = await s.api({
          method: route.method,
          path: route.path(target.id),
          token: user.token,
          ...('body' in route ? { body: paidPlan({ name: 'User edit' }) } : {}),
        });
        const body = expectApiError(response, 403, 'admin_required');
        expect(body.message).toBe('You do not have permission to access this resource');
        expect(await planRow(target.id)).toMatchObject({ name: 'Guarded plan', archived_at: null });
        expect(
          await s.app.db.selectFrom('plans').select('id').where('name', '=', 'User edit').execute(),
        ).toEqual([]);
      },
    );

    it('the admin reads the list, one plan and the stats', async () => {
      const s = server();
      const base = await planRowByCode('base');
      for (const path of ['/plans', `/plans/${base?.id}`, '/plans/stats'])
        expect((await s.api({ path, token: admin.token })).statusCode, path).toBe(200);
      expectApiError(await s.api({ path: '/plans/no-such-plan', token: admin.token }), 404, 'plan_not_found');
    });
  });

  describe('the currencies payments are taken in (PAYMENT_CURRENCIES: INR, USD and EUR by default)', () => {
    const unpayable = (response: Awaited<ReturnType<typeof post>>) => {
      expectApiError(response, 400, 'unsupported_currency');
      const { message } = response.json<{ message: string }>();
      // In words: an administrator reads it in the console, where a setting's name means nothing.
      expect(message).toContain('the currencies payments are taken in');
      expect(message).not.toContain('PAYMENT_CURRENCIES');
      expect(message).toContain('INR, USD, EUR');
    };

    it('a new plan in a currency not taken is refused with a 400 naming the payments’ currencies; nothing is written', async () => {
      const body = paidPlan({ currency: 'GBP' });
      unpayable(await post(body));
      unpayable(await post(freePlan({ currency: 'JPY' })));
      expect(await planRowByCode(body.code)).toBeUndefined();
    });

    it('a plan cannot be moved to a currency not taken, and one priced so before can still be edited', async () => {
      const plan = await createPlan(paidPlan());
      unpayable(await put(plan.id, { currency: 'GBP' }));
      expect(await planRow(plan.id)).toMatchObject({ currency: 'INR' });
      // A plan left in a currency no longer taken (PAYMENT_CURRENCIES changed since) keeps its other fields editable.
      await server().app.db.updateTable('plans').set({ currency: 'GBP' }).where('id', '=', plan.id).execute();
      const renamed = await put(plan.id, { name: 'Renamed', currency: 'GBP' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect((await put(plan.id, { currency: 'INR' })).statusCode).toBe(200);
    });
  });

  describe('creating a plan', () => {
    it('creates it with its features and limits, upper-cases the currency and stores it', async () => {
      const body = paidPlan({
        name: 'Studio',
        description: 'For studios',
        currency: 'inr',
        sort_order: 7,
        features: [
          { feature_id: featureId('ai_chat'), limit: 250 },
          { feature_id: featureId('code_assistant') },
        ],
      });
      const plan = await createPlan(body);
      expect(plan).toMatchObject({
        code: body.code,
        name: 'Studio',
        description: 'For studios',
        price_minor: 49_900,
        currency: 'INR',
        billing_interval: 'month',
        max_activations: 2,
        is_public: true,
        is_active: true,
        sort_order: 7,
        archived_at: null,
      });
      expect(plan.features.map(({ key, kind, limit }) => ({ key, kind, limit }))).toEqual([
        { key: 'ai_chat', kind: 'metered', limit: 250 },
        { key: 'code_assistant', kind: 'boolean', limit: null },
      ]);
      expect(await planRow(plan.id)).toMatchObject({ code: body.code, currency: 'INR', price_minor: 49_900 });
      expect(await planFeatureRows(plan.id)).toEqual(
        [
          { feature_id: featureId('ai_chat'), limit_value: 250 },
          { feature_id: featureId('code_assistant'), limit_value: null },
        ].toSorted((a, b) => a.feature_id.localeCompare(b.feature_id)),
      );
      const read = await server().api({ path: `/plans/${plan.id}`, token: admin.token });
      expect(read.json()).toEqual(plan);
    });

    it('accepts the seat limits 1 and 1000 and a free plan priced 0', async () => {
      expect((await createPlan(paidPlan({ max_activations: 1 }))).max_activations).toBe(1);
      expect((await createPlan(paidPlan({ max_activations: 1000 }))).max_activations).toBe(1000);
      expect((await createPlan(freePlan())).price_minor).toBe(0);
    });

    it.each([
      { rule: 'code format', change: { code: 'Not A Code' }, says: 'Code may contain lower-case letters' },
      { rule: 'code length', change: { code: 'x' }, says: 'Code must be at least 2 characters' },
      {
        rule: 'a free plan costs 0',
        change: { billing_interval: 'free', price_minor: 100 },
        says: 'A free plan has price 0 and a paid plan a price above 0',
      },
      {
        rule: 'a paid plan costs more than 0',
        change: { billing_interval: 'year', price_minor: 0 },
        says: 'A free plan has price 0 and a paid plan a price above 0',
      },
      { rule: 'no negative price', change: { price_minor: -1 }, says: 'A price cannot be negative' },
      { rule: 'no huge price', change: { price_minor: 100_000_000_01 }, says: 'Price is too large' },
      { rule: 'whole prices', change: { price_minor: 10.5 }, says: 'Prices are whole numbers' },
      {
        rule: 'at least one machine',
        change: { max_activations: 0 },
        says: 'A plan allows at least one machine',
      },
      { rule: 'at most 1000 machines', change: { max_activations: 1001 }, says: 'at most 1000 machines' },
      { rule: 'three-letter currency', change: { currency: 'RUPEE' }, says: 'three-letter ISO 4217' },
      { rule: 'letters-only currency', change: { currency: 'U5D' }, says: 'three-letter ISO 4217' },
      { rule: 'known billing interval', change: { billing_interval: 'weekly' }, says: 'billing_interval' },
      { rule: 'a name', change: { name: '' }, says: 'Name is required' },
      { rule: 'no unknown fields', change: { owner: 'me' }, says: 'owner' },
    ])('refuses a plan that breaks the rule "$rule" → 400 naming it', async ({ change, says }) => {
      const body = { ...paidPlan(), ...change };
      const message = expectValidationError(await post(body));
      expect(message).toContain(says);
      expect(await planRowByCode(String(body.code))).toBeUndefined();
    });

    it('a feature listed twice → 400, an impossible limit → 400', async () => {
      const twice = paidPlan({
        features: [
          { feature_id: featureId('ai_chat'), limit: 1 },
          { feature_id: featureId('ai_chat'), limit: 2 },
        ],
      });
      expect(expectValidationError(await post(twice))).toContain('A feature can be included only once');
      const negative = paidPlan({ features: [{ feature_id: featureId('ai_chat'), limit: -5 }] });
      expect(expectValidationError(await post(negative))).toContain('A limit cannot be negative');
      for (const body of [twice, negative]) expect(await planRowByCode(body.code)).toBeUndefined();
    });

    it('an unknown feature id → 400 unknown_feature naming it, and no plan is left behind', async () => {
      const body = paidPlan({
        features: [{ feature_id: featureId('ai_chat'), limit: 3 }, { feature_id: 'no-such-feature' }],
      });
      const error = expectApiError(await post(body), 400, 'unknown_feature');
      expect(error.message).toBe('Unknown feature: no-such-feature');
      expect(await planRowByCode(body.code)).toBeUndefined();
    });

    it('a code already in use → 409 plan_code_taken', async () => {
      const error = expectApiError(await post(paidPlan({ code: 'base' })), 409, 'plan_code_taken');
      expect(error.message).toBe('A plan with the code "base" already exists');
      const rows = await server()
        .app.db.selectFrom('plans')
        .select('id')
        .where('code', '=', 'base')
        .execute();
      expect(rows).toHaveLength(1);
    });
  });

  describe('updating a plan', () => {
    it('replaces the features and limits in place when features are sent, and keeps them otherwise', async () => {
      const plan = await createPlan(
        paidPlan({
          features: [
            { feature_id: featureId('ai_chat'), limit: 10 },
            { feature_id: featureId('code_assistant') },
          ],
        }),
      );
      const replaced = await put(plan.id, {
        features: [
          { feature_id: featureId('ai_chat'), limit: 20 },
          { feature_id: featureId('document_analysis'), limit: 5 },
        ],
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
      const updated = planSchema.parse(replaced.json());
      expect(updated.id).toBe(plan.id);
      expect(updated.features.map(({ key, limit }) => ({ key, limit }))).toEqual([
        { key: 'ai_chat', limit: 20 },
        { key: 'document_analysis', limit: 5 },
      ]);
      expect(await planFeatureRows(plan.id)).toEqual(
        [
          { feature_id: featureId('ai_chat'), limit_value: 20 },
          { feature_id: featureId('document_analysis'), limit_value: 5 },
        ].toSorted((a, b) => a.feature_id.localeCompare(b.feature_id)),
      );

      const renamed = await put(plan.id, { name: 'Renamed', max_activations: 4, is_public: false });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(planSchema.parse(renamed.json())).toMatchObject({
        name: 'Renamed',
        max_activations: 4,
        is_public: false,
        features: updated.features,
      });
      expect(await planRow(plan.id)).toMatchObject({ name: 'Renamed', max_activations: 4, is_public: 0 });

      const emptied = await put(plan.id, { features: [] });
      expect(planSchema.parse(emptied.json()).features).toEqual([]);
      expect(await planFeatureRows(plan.id)).toEqual([]);
    });

    it('an unknown feature → 400 and the old features stay', async () => {
      const plan = await createPlan(
        paidPlan({ features: [{ feature_id: featureId('ai_chat'), limit: 10 }] }),
      );
      const error = expectApiError(
        await put(plan.id, { name: 'Half done', features: [{ feature_id: 'missing-feature', limit: 1 }] }),
        400,
        'unknown_feature',
      );
      expect(error.message).toContain('missing-feature');
      expect(await planFeatureRows(plan.id)).toEqual([{ feature_id: featureId('ai_chat'), limit_value: 10 }]);
      expect((await planRow(plan.id))?.name).toBe(plan.name);
    });

    it('checks price against interval with the stored values', async () => {
      const plan = await createPlan(paidPlan());
      const error = expectApiError(await put(plan.id, { billing_interval: 'free' }), 400, 'validation_error');
      expect(error.message).toBe('A free plan has price 0 and a paid plan a price above 0');
      expectApiError(await put(plan.id, { price_minor: 0 }), 400, 'validation_error');
      const free = await put(plan.id, { billing_interval: 'free', price_minor: 0 });
      expect(free.statusCode, free.body).toBe(200);
      expect(await planRow(plan.id)).toMatchObject({ billing_interval: 'free', price_minor: 0 });
    });

    it('refuses invalid changes: another plan’s code → 409, bad fields → 400, nothing → 400, unknown plan → 404', async () => {
      const plan = await createPlan(paidPlan());
      expectApiError(await put(plan.id, { code: 'pro-monthly' }), 409, 'plan_code_taken');
      expect(expectValidationError(await put(plan.id, { max_activations: 1001 }))).toContain('1000 machines');
      expect(expectValidationError(await put(plan.id, { currency: 'EURO' }))).toContain('three-letter');
      expect(expectValidationError(await put(plan.id, { price_minor: -10 }))).toContain('negative');
      expect(expectValidationError(await put(plan.id, {}))).toContain('Send at least one field to change');
      expect(
        expectValidationError(
          await put(plan.id, {
            features: [{ feature_id: featureId('ai_chat') }, { feature_id: featureId('ai_chat') }],
          }),
        ),
      ).toContain('only once');
      expectApiError(await put('no-such-plan', { name: 'Ghost' }), 404, 'plan_not_found');
      expect(await planRow(plan.id)).toMatchObject({ code: plan.code, max_activations: 2 });
    });
  });

  describe('deleting a plan', () => {
    it('a plan without licenses is deleted, with its feature rows', async () => {
      const plan = await createPlan(paidPlan({ features: [{ feature_id: featureId('ai_chat'), limit: 1 }] }));
      expect(await deletePlan(plan.id)).toEqual({
        id: plan.id,
        outcome: 'deleted',
        message: `Plan ${plan.name} deleted`,
      });
      expect(await planRow(plan.id)).toBeUndefined();
      expect(await planFeatureRows(plan.id)).toEqual([]);
      expectApiError(
        await server().api({ path: `/plans/${plan.id}`, token: admin.token }),
        404,
        'plan_not_found',
      );
      expectApiError(
        await server().api({ method: 'DELETE', path: `/plans/${plan.id}`, token: admin.token }),
        404,
        'plan_not_found',
      );
    });

    it('a plan with licenses is archived, never deleted, and its licenses keep working', async () => {
      const s = server();
      const holder = await signInAsUser(s, 'holder');
      const { plan, license } = await planWithLicense(holder);

      const answer = await deletePlan(plan.id);
      expect(answer.outcome).toBe('archived');
      expect(answer.message).toContain('archived');
      const row = await planRow(plan.id);
      expect(row).toMatchObject({ is_active: 0, is_public: 0 });
      expect(row?.archived_at).toBeTruthy();
      expect(await planFeatureRows(plan.id)).toHaveLength(1);

      // Hidden from sale…
      expect(await publicCodes()).not.toContain(plan.code);
      expectApiError(await s.api({ path: `/plans/public/${plan.id}` }), 404, 'plan_not_found');
      const newcomer = await signInAsUser(s, 'newcomer');
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/licenses/activate-plan',
          token: newcomer.token,
          body: { planId: plan.id },
        }),
        404,
        'plan_not_found',
      );
      // …visible to the admin as archived…
      const read = planSchema.parse((await s.api({ path: `/plans/${plan.id}`, token: admin.token })).json());
      expect(read).toMatchObject({ is_active: false, is_public: false, archived_at: row?.archived_at });

      // …and the license still activates machines and passes status checks.
      const detail = await s.api({ path: `/licenses/${license.license_id}`, token: holder.token });
      expect(detail.json<License>()).toMatchObject({ status: 'active', plan_id: plan.id });
      const hardwareId = 'archived-plan-machine-1';
      const activated = await s.api({
        method: 'POST',
        path: '/licenses/activate',
        token: holder.token,
        body: { license_key: license.license_key, hardware_id: hardwareId },
      });
      expect(activated.statusCode, activated.body).toBe(201);
      expect(activated.json<ActivationResult>().plan.id).toBe(plan.id);
      const status = await s.api({
        path: `/licensing/status?license_key=${license.license_key}&hardware_id=${hardwareId}`,
      });
      expect(status.statusCode, status.body).toBe(200);
      expect(status.json<LicenseStatusAnswer>()).toMatchObject({
        valid: true,
        status: 'active',
        plan: { id: plan.id },
      });

      // Deleting again keeps the first archive time.
      expect((await deletePlan(plan.id)).outcome).toBe('archived');
      expect((await planRow(plan.id))?.archived_at).toBe(row?.archived_at);
    });
    it('an archived plan stays off sale even when set active and public again', async () => {
      const s = server();
      const holder = await signInAsUser(s, 'revive');
      const { plan } = await planWithLicense(holder);
      expect((await deletePlan(plan.id)).outcome).toBe('archived');
      const revived = await put(plan.id, { is_active: true, is_public: true });
      expect(revived.statusCode, revived.body).toBe(200);
      expect(planSchema.parse(revived.json())).toMatchObject({ is_active: true, is_public: true });
      expect((await planRow(plan.id))?.archived_at).toBeTruthy();

      expect(await publicCodes()).not.toContain(plan.code);
      expectApiError(await s.api({ path: `/plans/public/${plan.id}` }), 404, 'plan_not_found');
      const newcomer = await signInAsUser(s, 'late');
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/licenses/activate-plan',
          token: newcomer.token,
          body: { planId: plan.id },
        }),
        404,
        'plan_not_found',
      );
    });
  });

  describe('paging the admin list', () => {
    const marker = `pgmark${process.pid}`;
    let created: Plan[];

    beforeAll(async () => {
      created = [];
      for (let index = 1; index <= 13; index += 1) {
        created.push(
          await createPlan(
            paidPlan({
              code: `${marker}-${String(index).padStart(2, '0')}`,
              name: `Paging ${String(index).padStart(2, '0')}`,
              description: `Plan number ${index} of the paging suite`,
              // Equal sort orders: only the tie-breaker keeps the pages apart.
              sort_order: 500,
              price_minor: 1000 * ((index * 7) % 13) + 100,
              is_active: index % 4 !== 0,
              features: [{ feature_id: featureId('ai_chat'), limit: null }],
            }),
          ),
        );
        await publish(created.at(-1)!.id);
      }
    });

    const list = async (query: string) => {
      const response = await server().api({ path: `/plans?${query}`, token: admin.token });
      expect(response.statusCode, response.body).toBe(200);
      return planListSchema.parse(response.json());
    };

    it('answers {data, total, page, perPage} with page 1 and perPage 10 by default', async () => {
      const response = await server().api({ path: '/plans', token: admin.token });
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['data', 'page', 'perPage', 'total']);
      const page = planListSchema.parse(response.json());
      const { count } = await server()
        .app.db.selectFrom('plans')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      expect(page).toMatchObject({ page: 1, perPage: 10, total: Number(count) });
      expect(page.data).toHaveLength(10);
    });

    it.each(['', '&sort=-price_minor', '&sort=name', '&sort=-created_at', '&sort=code'])(
      'pages through every plan once, with no overlap and no gap (%s)',
      async (sort) => {
        const seen: string[] = [];
        for (let page = 1; page <= 3; page += 1) {
          const result = await list(`search=${marker}&perPage=5&page=${page}${sort}`);
          expect(result).toMatchObject({ total: 13, page, perPage: 5 });
          expect(result.data).toHaveLength(page < 3 ? 5 : 3);
          seen.push(...result.data.map((plan) => plan.id));
        }
        expect(seen).toHaveLength(13);
        expect(new Set(seen)).toEqual(new Set(created.map((plan) => plan.id)));
        const beyond = await list(`search=${marker}&perPage=5&page=4${sort}`);
        expect(beyond).toMatchObject({ data: [], total: 13, page: 4 });
      },
    );

    it('sorts by a field ascending, and by -field descending', async () => {
      const prices = (await list(`search=${marker}&perPage=100&sort=price_minor`)).data.map(
        (p) => p.price_minor,
      );
      expect(prices).toEqual(prices.toSorted((a, b) => a - b));
      expect(new Set(prices).size).toBe(13);
      const descending = (await list(`search=${marker}&perPage=100&sort=-price_minor`)).data.map(
        (p) => p.price_minor,
      );
      expect(descending).toEqual(prices.toReversed());
      const names = (await list(`search=${marker}&perPage=100&sort=-name`)).data.map((p) => p.name);
      expect(names).toEqual(created.map((p) => p.name).toReversed());
      const defaultOrder = (await list('perPage=100')).data.map((p) => p.sort_order);
      expect(defaultOrder).toEqual(defaultOrder.toSorted((a, b) => a - b));
    });

    it('searches code, name and description, ignoring case and taking % and _ literally', async () => {
      expect((await list(`search=${marker.toUpperCase()}`)).total).toBe(13);
      expect((await list('search=PAGING%200')).total).toBe(9);
      expect((await list('search=paging%20suite&perPage=100')).data.map((p) => p.code).sort()).toEqual(
        created.map((p) => p.code).sort(),
      );
      expect((await list('search=%25')).total).toBe(0);
      expect((await list('search=_')).total).toBe(0);
      expect((await list('search=base')).data.map((p) => p.code)).toContain('base');
    });

    it('filters by status: active, inactive, archived or all', async () => {
      const inactive = created.filter((_plan, index) => (index + 1) % 4 === 0);
      expect((await list(`search=${marker}&status=all`)).total).toBe(13);
      expect((await list(`search=${marker}`)).total).toBe(13);
      expect((await list(`search=${marker}&status=active`)).total).toBe(13 - inactive.length);
      const inactiveIds = (await list(`search=${marker}&status=inactive`)).data.map((p) => p.id).sort();
      expect(inactiveIds).toEqual(inactive.map((p) => p.id).sort());

      const holder = await signInAsUser(server(), 'archiver');
      const { plan } = await planWithLicense(holder);
      await deletePlan(plan.id);
      const archived = await list('status=archived&perPage=100');
      expect(archived.data.map((p) => p.id)).toContain(plan.id);
      for (const item of archived.data) expect(item.archived_at).not.toBeNull();
      expect((await list('status=active&perPage=100')).data.map((p) => p.id)).not.toContain(plan.id);
      expect((await list('status=inactive&perPage=100')).data.map((p) => p.id)).not.toContain(plan.id);
    });

    it.each([
      { query: 'perPage=101', says: 'perPage must be at most 100' },
      { query: 'perPage=0', says: 'perPage must be 1 or more' },
      { query: 'page=0', says: 'page must be 1 or more' },
      { query: 'page=two', says: 'page' },
      { query: 'page=1.5', says: 'page must be a whole number' },
      {
        query: 'sort=price',
        says: 'must be one of sort_order, -sort_order, name, -name, code, -code, price_minor, -price_minor, created_at, -created_at',
      },
      { query: 'sort=--name', says: 'must be one of' },
      { query: 'status=deleted', says: 'status' },
    ])('refuses the query $query → 400 naming the problem', async ({ query, says }) => {
      const message = expectValidationError(
        await server().api({ path: `/plans?${query}`, token: admin.token }),
      );
      expect(message).toContain(says);
    });
  });

  describe('stats', () => {
    it('counts the plans and the licenses of each plan', async () => {
      const s = server();
      const holder = await signInAsUser(s, 'stats');
      const { plan } = await planWithLicense(holder);
      const response = await s.api({ path: '/plans/stats', token: admin.token });
      expect(response.statusCode).toBe(200);
      const stats = planStatsSchema.parse(response.json());

      const rows = await s.app.db.selectFrom('plans').selectAll().execute();
      expect(stats.total).toBe(rows.length);
      expect(stats.archived).toBe(rows.filter((row) => row.archived_at).length);
      expect(stats.active).toBe(
        rows.filter((row) => row.is_active === 1 && row.draft === 0 && !row.archived_at).length,
      );
      expect(stats.draft).toBe(rows.filter((row) => row.draft === 1 && !row.archived_at).length);
      expect(stats.public).toBe(rows.filter((row) => row.is_public === 1 && !row.archived_at).length);
      expect(stats.archived).toBeGreaterThan(0);
      expect(stats.by_plan).toHaveLength(rows.length);
      expect(stats.by_plan.find((item) => item.plan_id === plan.id)).toEqual({
        plan_id: plan.id,
        code: plan.code,
        name: plan.name,
        active_licenses: 1,
        total_licenses: 1,
      });

      await s.app.db
        .updateTable('licenses')
        .set({ status: 'revoked' })
        .where('plan_id', '=', plan.id)
        .execute();
      const after = planStatsSchema.parse((await s.api({ path: '/plans/stats', token: admin.token })).json());
      expect(after.by_plan.find((item) => item.plan_id === plan.id)).toMatchObject({
        active_licenses: 0,
        total_licenses: 1,
      });
    });
  });
});
