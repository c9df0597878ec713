import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CreateFeatureRequest,
  type Feature,
  featureListSchema,
  featureSchema,
  featureStatsSchema,
} from '../../../src/shared/api/features.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import {
  expectValidationError,
  type SignedIn,
  signInAsAdmin,
  signInAsUser,
} from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';

let sequence = 0;
const uniqueKey = (label: string) => `${label}_${process.pid}_${++sequence}`;

const meteredFeature = (overrides: Partial<CreateFeatureRequest> = {}): CreateFeatureRequest => ({
  key: uniqueKey('metered'),
  name: 'Image generation',
  description: 'Pictures from prompts',
  kind: 'metered',
  period: 'day',
  unit: 'images',
  ...overrides,
});

const booleanFeature = (overrides: Partial<CreateFeatureRequest> = {}): CreateFeatureRequest => ({
  key: uniqueKey('switch'),
  name: 'Dark mode',
  kind: 'boolean',
  ...overrides,
});

describeOnEveryDatabase('admin features', (server) => {
  let admin: SignedIn;
  let user: SignedIn;

  beforeAll(async () => {
    admin = await signInAsAdmin(server());
    user = await signInAsUser(server());
  });

  const post = (body: unknown) =>
    server().api({ method: 'POST', path: '/admin/features', token: admin.token, body });
  const put = (id: string, body: unknown) =>
    server().api({ method: 'PUT', path: `/admin/features/${id}`, token: admin.token, body });
  const remove = (id: string) =>
    server().api({ method: 'DELETE', path: `/admin/features/${id}`, token: admin.token });

  const createFeature = async (body: CreateFeatureRequest): Promise<Feature> => {
    const response = await post(body);
    expect(response.statusCode, response.body).toBe(201);
    return featureSchema.parse(response.json());
  };

  const featureRow = (id: string) =>
    server().app.db.selectFrom('features').selectAll().where('id', '=', id).executeTakeFirst();
  const featureRowByKey = (key: string) =>
    server().app.db.selectFrom('features').selectAll().where('key', '=', key).executeTakeFirst();

  const list = async (query: string) => {
    const response = await server().api({ path: `/admin/features?${query}`, token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    return featureListSchema.parse(response.json());
  };

  describe('administrators only', () => {
    const routes = [
      { method: 'GET', route: '/admin/features', path: () => '/admin/features' },
      { method: 'GET', route: '/admin/features/stats', path: () => '/admin/features/stats' },
      { method: 'GET', route: '/admin/features/{id}', path: (id: string) => `/admin/features/${id}` },
      { method: 'POST', route: '/admin/features', path: () => '/admin/features', body: true },
      {
        method: 'PUT',
        route: '/admin/features/{id}',
        path: (id: string) => `/admin/features/${id}`,
        body: true,
      },
      { method: 'DELETE', route: '/admin/features/{id}', path: (id: string) => `/admin/features/${id}` },
    ] as const;

    it.each(routes)(
      '$method $route without a token → 401, as a user → 403, and nothing changes',
      async (route) => {
        const s = server();
        const target = await createFeature(booleanFeature({ name: 'Guarded feature' }));
        const attempts = [
          { token: undefined, status: 401, code: 'not_authenticated', name: 'Anonymous edit' },
          { token: user.token, status: 403, code: 'admin_required', name: 'User edit' },
        ];
        for (const attempt of attempts) {
          const response = await s.api({
            method: route.method,
            path: route.path(target.feature_id),
            ...(attempt.token ? { token: attempt.token } : {}),
            ...('body' in route ? { body: booleanFeature({ name: attempt.name }) } : {}),
          });
          expectApiError(response, attempt.status, attempt.code);
          expect(
            await s.app.db.selectFrom('features').select('id').where('name', '=', attempt.name).execute(),
          ).toEqual([]);
        }
        expect(await featureRow(target.feature_id)).toMatchObject({ name: 'Guarded feature' });
      },
    );

    it('needs the API key as well as the admin token', async () => {
      expectApiError(
        await server().api({ path: '/admin/features', token: admin.token, withoutApiKey: true }),
        401,
        'invalid_api_key',
      );
    });
  });

  describe('creating and reading', () => {
    it('creates a metered feature with its period and unit (201) and stores it', async () => {
      const body = meteredFeature();
      const created = await createFeature(body);
      expect(created).toMatchObject({
        key: body.key,
        name: 'Image generation',
        description: 'Pictures from prompts',
        kind: 'metered',
        period: 'day',
        unit: 'images',
      });
      expect(await featureRow(created.feature_id)).toMatchObject({
        key: body.key,
        kind: 'metered',
        period: 'day',
        unit: 'images',
      });
      const read = await server().api({ path: `/admin/features/${created.feature_id}`, token: admin.token });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(created);
    });

    it('a metered feature without a period counts per month; an on/off one has no period', async () => {
      const metered = await createFeature(meteredFeature({ period: undefined, unit: undefined }));
      expect(metered).toMatchObject({ period: 'month', unit: null });
      const onOff = await createFeature(booleanFeature({ period: null }));
      expect(onOff).toMatchObject({ kind: 'boolean', period: null, description: '' });
    });

    it('an unknown id → 404 feature_not_found', async () => {
      expectApiError(
        await server().api({ path: '/admin/features/no-such-feature', token: admin.token }),
        404,
        'feature_not_found',
      );
    });

    it.each([
      { rule: 'key characters', change: { key: 'Image-Gen' }, says: 'Key may contain lower-case letters' },
      { rule: 'key starts with a letter', change: { key: '9lives' }, says: 'starting with a letter' },
      { rule: 'key length', change: { key: 'a' }, says: 'Key must be at least 2 characters' },
      { rule: 'key at most 64', change: { key: `k${'x'.repeat(64)}` }, says: 'Key must be at most 64' },
      {
        rule: 'an on/off feature has no period',
        change: { kind: 'boolean', period: 'month' },
        says: 'An on/off feature has no usage period',
      },
      { rule: 'known kind', change: { kind: 'quota' }, says: 'kind' },
      { rule: 'known period', change: { period: 'week' }, says: 'period' },
      { rule: 'a name', change: { name: ' ' }, says: 'Name is required' },
      { rule: 'no unknown fields', change: { limit: 5 }, says: 'limit' },
    ])('refuses a feature that breaks the rule "$rule" → 400 naming it', async ({ change, says }) => {
      const body = { ...meteredFeature(), ...change };
      expect(expectValidationError(await post(body))).toContain(says);
      expect(await featureRowByKey(String(body.key))).toBeUndefined();
    });

    it('a key already in use → 409 feature_key_taken', async () => {
      const error = expectApiError(await post(meteredFeature({ key: 'ai_chat' })), 409, 'feature_key_taken');
      expect(error.message).toBe('A feature with the key "ai_chat" already exists');
      const rows = await server()
        .app.db.selectFrom('features')
        .select('id')
        .where('key', '=', 'ai_chat')
        .execute();
      expect(rows).toHaveLength(1);
    });
  });

  describe('updating', () => {
    it('changes the fields sent and keeps the others', async () => {
      const feature = await createFeature(meteredFeature());
      const response = await put(feature.feature_id, { name: 'Images', period: 'month' });
      expect(response.statusCode, response.body).toBe(200);
      expect(featureSchema.parse(response.json())).toMatchObject({
        feature_id: feature.feature_id,
        key: feature.key,
        name: 'Images',
        description: feature.description,
        kind: 'metered',
        period: 'month',
        unit: 'images',
      });
      expect(await featureRow(feature.feature_id)).toMatchObject({ name: 'Images', period: 'month' });
    });

    it('turning a metered feature on/off clears its period', async () => {
      const feature = await createFeature(meteredFeature());
      const response = await put(feature.feature_id, { kind: 'boolean' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<Feature>()).toMatchObject({ kind: 'boolean', period: null });
      expect(await featureRow(feature.feature_id)).toMatchObject({ kind: 'boolean', period: null });
    });

    it('an on/off feature given a period → 400, whether or not the kind is sent', async () => {
      const feature = await createFeature(booleanFeature());
      expect(expectValidationError(await put(feature.feature_id, { period: 'day' }))).toContain(
        'An on/off feature has no usage period',
      );
      expect(
        expectValidationError(await put(feature.feature_id, { kind: 'boolean', period: 'day' })),
      ).toContain('An on/off feature has no usage period');
      expect(await featureRow(feature.feature_id)).toMatchObject({ kind: 'boolean', period: null });
    });

    it('another feature’s key → 409, bad key → 400, nothing → 400, unknown id → 404', async () => {
      const feature = await createFeature(booleanFeature());
      expectApiError(await put(feature.feature_id, { key: 'voice_commands' }), 409, 'feature_key_taken');
      expect(expectValidationError(await put(feature.feature_id, { key: 'Bad Key' }))).toContain(
        'Key may contain',
      );
      expect(expectValidationError(await put(feature.feature_id, {}))).toContain('Send at least one field');
      expectApiError(await put('no-such-feature', { name: 'Ghost' }), 404, 'feature_not_found');
      expect((await featureRow(feature.feature_id))?.key).toBe(feature.key);
    });
  });

  describe('deleting', () => {
    it('a feature that no plan includes is deleted (204)', async () => {
      const feature = await createFeature(booleanFeature());
      const response = await remove(feature.feature_id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await featureRow(feature.feature_id)).toBeUndefined();
      expectApiError(
        await server().api({ path: `/admin/features/${feature.feature_id}`, token: admin.token }),
        404,
        'feature_not_found',
      );
      expectApiError(await remove(feature.feature_id), 404, 'feature_not_found');
    });

    it('a feature included in plans → 409 feature_in_use naming the plans, and it stays', async () => {
      const seeded = await featureRowByKey('ai_chat');
      const error = expectApiError(await remove(seeded?.id ?? ''), 409, 'feature_in_use');
      expect(error.message).toBe(
        'This feature is included in Base, Business, Pro, Pro (yearly), Team. Remove it from those plans first.',
      );
      expect(await featureRow(seeded?.id ?? '')).toBeDefined();
    });

    it('once removed from its only plan, the feature can be deleted', async () => {
      const s = server();
      const feature = await createFeature(meteredFeature());
      const plan = await s.api({
        method: 'POST',
        path: '/plans',
        token: admin.token,
        body: {
          code: `uses-${feature.key.replaceAll('_', '-')}`,
          name: 'Only user',
          price_minor: 100,
          currency: 'INR',
          billing_interval: 'month',
          max_activations: 1,
          features: [{ feature_id: feature.feature_id, limit: 3 }],
        },
      });
      expect(plan.statusCode, plan.body).toBe(201);
      const planId = plan.json<{ id: string }>().id;

      const error = expectApiError(await remove(feature.feature_id), 409, 'feature_in_use');
      expect(error.message).toBe('This feature is included in Only user. Remove it from that plan first.');

      const emptied = await s.api({
        method: 'PUT',
        path: `/plans/${planId}`,
        token: admin.token,
        body: { features: [] },
      });
      expect(emptied.statusCode, emptied.body).toBe(200);
      expect((await remove(feature.feature_id)).statusCode).toBe(204);
      expect(await featureRow(feature.feature_id)).toBeUndefined();
    });
  });

  describe('the paged list', () => {
    const marker = `fmark${process.pid}`;
    let created: Feature[];

    beforeAll(async () => {
      created = [];
      for (let index = 1; index <= 7; index += 1) {
        const label = String(index).padStart(2, '0');
        created.push(
          await createFeature(
            index % 2 === 0
              ? booleanFeature({ key: `${marker}_${label}`, name: `Listed ${label}` })
              : meteredFeature({ key: `${marker}_${label}`, name: `Listed ${label}` }),
          ),
        );
      }
    });

    it('answers {data, total, page, perPage} with page 1 and perPage 10 by default, sorted by name', async () => {
      const response = await server().api({ path: '/admin/features', token: admin.token });
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['data', 'page', 'perPage', 'total']);
      const page = featureListSchema.parse(response.json());
      const { count } = await server()
        .app.db.selectFrom('features')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      expect(page).toMatchObject({ page: 1, perPage: 10, total: Number(count) });
      expect(page.data).toHaveLength(10);
    });

    it('pages through the matches with no overlap and no gap', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 3; page += 1) {
        const result = await list(`search=${marker}&perPage=3&page=${page}&sort=-key`);
        expect(result).toMatchObject({ total: 7, page, perPage: 3 });
        seen.push(...result.data.map((feature) => feature.key));
      }
      expect(seen).toEqual(created.map((feature) => feature.key).toReversed());
    });

    it('filters by kind and searches key, name and description ignoring case', async () => {
      const metered = await list(`search=${marker}&kind=metered`);
      expect(metered.data.map((feature) => feature.key)).toEqual(
        created.filter((feature) => feature.kind === 'metered').map((feature) => feature.key),
      );
      expect((await list(`search=${marker}&kind=boolean`)).total).toBe(3);
      expect((await list(`search=${marker.toUpperCase()}`)).total).toBe(7);
      expect((await list('search=LISTED%2003')).data.map((feature) => feature.key)).toEqual([`${marker}_03`]);
      expect((await list('search=hands-free')).data.map((feature) => feature.key)).toEqual([
        'voice_commands',
      ]);
      for (const feature of (await list('kind=boolean&perPage=100')).data)
        expect(feature.kind).toBe('boolean');
    });

    it.each([
      { query: 'perPage=101', says: 'perPage must be at most 100' },
      { query: 'page=0', says: 'page must be 1 or more' },
      {
        query: 'sort=period',
        says: 'must be one of name, -name, key, -key, kind, -kind, created_at, -created_at',
      },
      { query: 'kind=switch', says: 'kind' },
    ])('refuses the query $query → 400 naming the problem', async ({ query, says }) => {
      const message = expectValidationError(
        await server().api({ path: `/admin/features?${query}`, token: admin.token }),
      );
      expect(message).toContain(says);
    });
  });

  describe('stats', () => {
    it('counts features by kind and the plans that include each', async () => {
      const s = server();
      const response = await s.api({ path: '/admin/features/stats', token: admin.token });
      expect(response.statusCode).toBe(200);
      const stats = featureStatsSchema.parse(response.json());
      const rows = await s.app.db.selectFrom('features').select(['id', 'kind']).execute();
      expect(stats.total).toBe(rows.length);
      expect(stats.boolean).toBe(rows.filter((row) => row.kind === 'boolean').length);
      expect(stats.metered).toBe(rows.filter((row) => row.kind === 'metered').length);
      expect(stats.by_feature).toHaveLength(rows.length);
      expect(stats.by_feature.find((item) => item.key === 'ai_chat')).toMatchObject({
        plans: 5,
        usage_this_month: 0,
      });
      expect(stats.by_feature.find((item) => item.key === 'priority_support')).toMatchObject({
        plans: 2,
        plan_names: ['Business', 'Team'],
      });
      const chat = stats.by_feature.find((item) => item.key === 'ai_chat');
      expect(chat?.plan_names).toHaveLength(5);
      expect(chat?.plan_names).toEqual(chat?.plan_names.toSorted());
    });
  });
});
