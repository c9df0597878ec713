import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminPayment,
  adminPaymentListSchema,
  adminPaymentSchema,
} from '../../../src/shared/api/payments.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  expectValidationError,
  type SignedIn,
  signInAsAdmin,
  signInAsUser,
} from '../helpers/admin-helpers.js';
import { createPlan, DAY_MS } from '../helpers/license-helpers.js';
import {
  declineInSandbox,
  expectVerified,
  openOrder,
  payInSandbox,
  verifyPayment,
} from '../helpers/payment-helpers.js';

const LIST = '/payments/admin/payments';

describeOnEveryDatabase('admin payments', (server) => {
  let admin: SignedIn;
  let user: SignedIn;
  const buyers: SignedIn[] = [];
  let firstDay = '';
  let lastDay = '';
  let customPlanId = '';

  /** Orders spread over three days: paid, failed and open ones, of three plans and three buyers. */
  beforeAll(async () => {
    const s = server();
    const custom = await createPlan(s, { price: 12_345, interval: 'year' });
    customPlanId = custom.id;
    firstDay = s.clock.now().toISOString().slice(0, 10);
    const plans = ['pro-monthly', 'pro-yearly', custom.id];
    for (let buyerIndex = 0; buyerIndex < 3; buyerIndex++) {
      const buyer = await signInAsUser(s, `buyer${buyerIndex}`);
      buyers.push(buyer);
      for (let orderIndex = 0; orderIndex < 4; orderIndex++) {
        const order = await openOrder(s, buyer.token, plans[(buyerIndex + orderIndex) % 3] ?? 'pro-monthly');
        if (orderIndex === 0) {
          expectVerified(
            await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)),
          );
        }
        if (orderIndex === 1) await declineInSandbox(s, buyer.token, order.order_id);
        s.clock.advance(60_000);
      }
      s.clock.advance(DAY_MS);
    }
    lastDay = new Date(s.clock.now().getTime() - DAY_MS).toISOString().slice(0, 10);
    // Signed in last: the clock has moved days past the buyers' tokens.
    admin = await signInAsAdmin(s);
    user = await signInAsUser(s);
  });

  const list = async (query: string) => {
    const response = await server().api({ path: `${LIST}?${query}`, token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    return adminPaymentListSchema.parse(response.json());
  };

  /** Every page of a query, to check that the pages add up to the total without overlap. */
  const allPages = async (query: string, perPage: number) => {
    const first = await list(`${query}&perPage=${perPage}&page=1`);
    const items: AdminPayment[] = [...first.data];
    for (let page = 2; page <= Math.ceil(first.total / perPage); page++) {
      const next = await list(`${query}&perPage=${perPage}&page=${page}`);
      expect(next.total).toBe(first.total);
      items.push(...next.data);
    }
    return { total: first.total, items };
  };

  const countRows = async (
    s: TestServer,
    filter: (query: ReturnType<typeof base>) => ReturnType<typeof base>,
  ) => {
    const rows = await filter(base(s)).select('payments.id').execute();
    return rows.map((row) => row.id).sort();
  };
  const base = (s: TestServer) =>
    s.app.db.selectFrom('payments').leftJoin('users', 'users.id', 'payments.user_id');

  describe('administrators only', () => {
    it.each([LIST, `${LIST}/some-id`])(
      'GET %s: anonymous → 401, user → 403, admin → 2xx/404',
      async (path) => {
        const s = server();
        expectApiError(await s.api({ path }), 401, 'not_authenticated');
        expectApiError(await s.api({ path, token: user.token }), 403, 'admin_required');
        const asAdmin = await s.api({ path, token: admin.token });
        expect([200, 404]).toContain(asAdmin.statusCode);
        expectApiError(
          await s.api({ path, token: admin.token, withoutApiKey: true }),
          401,
          'invalid_api_key',
        );
      },
    );
  });

  it('pages add up to the total of the table, newest first, without overlap or gaps', async () => {
    const s = server();
    const everything = await countRows(s, (query) => query);
    const { total, items } = await allPages('', 5);
    expect(total).toBe(everything.length);
    expect(items.map((item) => item.id).sort()).toEqual(everything);
    const created = items.map((item) => item.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const defaults = await list('');
    expect(defaults).toMatchObject({ page: 1, perPage: 10, total: everything.length });
    expect(defaults.data).toHaveLength(Math.min(10, everything.length));
    const beyond = await list('page=99');
    expect(beyond).toMatchObject({ total: everything.length, page: 99, data: [] });
  });

  it('filters by status, buyer, plan and dates, with totals matching the data', async () => {
    const s = server();
    const buyer = buyers[1] as SignedIn;
    const cases: [string, ReturnType<typeof countRows>][] = [
      ['status=paid', countRows(s, (query) => query.where('payments.status', '=', 'paid'))],
      ['status=failed', countRows(s, (query) => query.where('payments.status', '=', 'failed'))],
      [`userId=${buyer.id}`, countRows(s, (query) => query.where('payments.user_id', '=', buyer.id))],
      [`planId=${customPlanId}`, countRows(s, (query) => query.where('payments.plan_id', '=', customPlanId))],
      [
        // Their open orders are days old, so past CHECKOUT_EXPIRY_MINUTES: expired.
        `userId=${buyer.id}&status=expired`,
        countRows(s, (query) =>
          query.where('payments.user_id', '=', buyer.id).where('payments.status', '=', 'created'),
        ),
      ],
      [
        `from=${lastDay}`,
        countRows(s, (query) => query.where('payments.created_at', '>=', `${lastDay}T00:00:00.000Z`)),
      ],
      [
        `to=${firstDay}`,
        countRows(s, (query) => query.where('payments.created_at', '<=', `${firstDay}T23:59:59.999Z`)),
      ],
      [`from=${firstDay}&to=${lastDay}`, countRows(s, (query) => query)],
    ];
    for (const [query, expected] of cases) {
      const ids = await expected;
      expect(ids.length, query).toBeGreaterThan(0);
      const { total, items } = await allPages(query, 3);
      expect(total, query).toBe(ids.length);
      expect(items.map((item) => item.id).sort(), query).toEqual(ids);
    }
    expect((await list('status=paid')).data.every((item) => item.status === 'paid')).toBe(true);
    expect((await list(`planId=${customPlanId}`)).data.every((item) => item.plan.id === customPlanId)).toBe(
      true,
    );
  });

  it('searches order ids, payment ids and buyer e-mails, case-insensitively', async () => {
    const s = server();
    const buyer = buyers[2] as SignedIn;
    const byEmail = await list(`search=${encodeURIComponent(buyer.email.toUpperCase())}`);
    const ownIds = await countRows(s, (query) => query.where('payments.user_id', '=', buyer.id));
    expect(byEmail.total).toBe(ownIds.length);
    expect(byEmail.data.every((item) => item.user_email === buyer.email)).toBe(true);

    const paid = (await list(`userId=${buyer.id}&status=paid`)).data[0] as AdminPayment;
    const byOrder = await list(`search=${paid.order_id}`);
    expect(byOrder.data.map((item) => item.id)).toEqual([paid.id]);
    const byPayment = await list(`search=${paid.payment_id ?? ''}`);
    expect(byPayment.data.map((item) => item.id)).toEqual([paid.id]);
    expect((await list('search=%25')).total).toBe(0);
  });

  it('sorts by amount, status and creation time in either direction', async () => {
    const ascending = (await allPages('sort=amount', 50)).items.map((item) => item.amount);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const descending = (await allPages('sort=-amount', 50)).items.map((item) => item.amount);
    expect(descending).toEqual([...ascending].reverse());
    const statuses = (await allPages('sort=status', 50)).items.map((item) => item.status);
    expect(statuses).toEqual([...statuses].sort());
    const oldestFirst = (await allPages('sort=created_at', 50)).items.map((item) => item.created_at);
    expect(oldestFirst).toEqual([...oldestFirst].sort());
  });

  it.each([
    ['page=0', 'page'],
    ['perPage=0', 'perPage'],
    ['perPage=101', 'perPage'],
    ['perPage=ten', 'perPage'],
    ['sort=user_id', 'sort'],
    ['sort=-password_hash', 'sort'],
    ['status=refunded', 'status'],
    ['from=yesterday', 'from'],
    ['to=2025-13-45', 'to'],
    ['from=2025-02-01&to=2025-01-01', 'from'],
  ])('%s → 400 naming %s', async (query, field) => {
    const message = expectValidationError(
      await server().api({ path: `${LIST}?${query}`, token: admin.token }),
    );
    expect(message).toContain(field);
  });

  it('GET one payment (by id or order id) with its buyer’s e-mail, plan name and license', async () => {
    const s = server();
    const buyer = buyers[0] as SignedIn;
    const paid = (await list(`userId=${buyer.id}&status=paid`)).data[0] as AdminPayment;
    const response = await s.api({ path: `${LIST}/${paid.id}`, token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    const detail = adminPaymentSchema.parse(response.json());
    expect(detail).toEqual(paid);
    expect(detail).toMatchObject({
      user_id: buyer.id,
      user_email: buyer.email,
      status: 'paid',
      sandbox: true,
    });
    expect(detail.plan.name).not.toBe('');
    const license = await s.app.db
      .selectFrom('licenses')
      .select(['id', 'plan_id'])
      .where('id', '=', detail.license_id ?? '')
      .executeTakeFirstOrThrow();
    expect(license.plan_id).toBe(detail.plan_id);
    const byOrder = await s.api({ path: `${LIST}/${paid.order_id}`, token: admin.token });
    expect(byOrder.json()).toEqual(response.json());
    expectApiError(
      await s.api({ path: `${LIST}/no-such-payment`, token: admin.token }),
      404,
      'payment_not_found',
    );
  });

  it('a payment outlives its buyer’s account: shown without user or license, still counted', async () => {
    const s = server();
    const leaving = await signInAsUser(s, 'leaving');
    const order = await openOrder(s, leaving.token, 'pro-monthly');
    expectVerified(
      await verifyPayment(s, leaving.token, await payInSandbox(s, leaving.token, order.order_id)),
    );
    await s.app.db.deleteFrom('users').where('id', '=', leaving.id).execute();
    const detail = adminPaymentSchema.parse(
      (await s.api({ path: `${LIST}/${order.id}`, token: admin.token })).json(),
    );
    expect(detail).toMatchObject({ status: 'paid', user_id: null, user_email: null, license_id: null });
    expect((await list(`search=${order.order_id}`)).total).toBe(1);
  });
});
