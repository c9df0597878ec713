import { randomBytes, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { adminUsageListSchema } from '../../../src/shared/api/admin-usage.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin, signInAsUser } from '../helpers/admin-helpers.js';
import {
  createPlan,
  DAY_MS,
  featureByKey,
  giveLicense,
  type Member,
  member,
} from '../helpers/license-helpers.js';

const BILL = { policy: 'bill', price_minor: 250, per_units: 10, cap: null } as const;

async function report(s: TestServer, who: Member, licenseId: string, events: unknown[]) {
  const response = await s.api({
    method: 'POST',
    path: `/licenses/${licenseId}/usage/events`,
    token: who.token,
    body: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A metered feature counted per UTC day, which the default catalogue lacks. */
async function dailyFeature(s: TestServer): Promise<string> {
  const template = await featureByKey(s, 'ai_chat');
  const key = `daily_${randomBytes(3).toString('hex')}`;
  await s.app.db
    .insertInto('features')
    .values({ ...template, id: randomUUID(), key, name: 'Daily images', period: 'day', unit: 'images' })
    .execute();
  return key;
}

/** The middle of the current UTC month, so "20 days ago" is last month whatever today is. */
function midMonth(s: TestServer) {
  const now = s.clock.now();
  s.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 12) - now.getTime());
}

const listed = async (s: TestServer, token: string, query: string) => {
  const response = await s.api({ path: `/admin/usage?${query}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return adminUsageListSchema.parse(response.json());
};

describeOnEveryDatabase('admin: usage per customer and feature, top consumers first', (server) => {
  it('reads this month and the last from the counters, with allowance, units over and accrued overage', async () => {
    const s = server();
    midMonth(s);
    const admin = await signInAsAdmin(s);
    const daily = await dailyFeature(s);
    const plan = await createPlan(s, {
      features: { ai_chat: 100, [daily]: 5 },
      overage: { ai_chat: BILL, [daily]: BILL },
    });
    const heavy = await member(s);
    const light = await member(s);
    const heavyLicense = await giveLicense(s, heavy, plan);
    const lightLicense = await giveLicense(s, light, plan);
    const lastMonth = new Date(s.clock.now().getTime() - 20 * DAY_MS).toISOString();
    const yesterday = new Date(s.clock.now().getTime() - DAY_MS).toISOString();
    await report(s, heavy, heavyLicense.id, [
      { id: 'h-1', feature: 'ai_chat', amount: 121 },
      { id: 'h-old', feature: 'ai_chat', amount: 7, occurred_at: lastMonth },
      // Two days of a daily feature with an allowance of 5 each: 3 and 11 over, priced per day.
      { id: 'd-1', feature: daily, amount: 8, occurred_at: yesterday },
      { id: 'd-2', feature: daily, amount: 16 },
    ]);
    await report(s, light, lightLicense.id, [{ id: 'l-1', feature: 'ai_chat', amount: 40 }]);

    const mine = (list: Awaited<ReturnType<typeof listed>>) =>
      list.data.filter((row) => [heavyLicense.id, lightLicense.id].includes(row.license_id));
    const current = await listed(s, admin.token, 'perPage=100');
    expect(mine(current).map((row) => [row.email, row.feature_key, row.used])).toEqual([
      [heavy.email, 'ai_chat', 121],
      [light.email, 'ai_chat', 40],
      [heavy.email, daily, 24],
    ]);
    expect(mine(current)[0]).toMatchObject({
      allowance: 100,
      over_allowance: 21,
      overage_policy: 'bill',
      // 21 over in blocks of 10: three blocks at 250.
      overage_accrued_minor: 750,
      currency: 'INR',
      organisation_id: null,
      period: 'month',
    });
    // Each day on its own: 3 over (one block) and 11 over (two blocks).
    expect(mine(current)[2]).toMatchObject({ allowance: 5, over_allowance: 14, overage_accrued_minor: 750 });
    expect(mine(current)[1]).toMatchObject({ over_allowance: 0, overage_accrued_minor: 0 });
    // Used, heaviest first, whoever else the database holds.
    const used = current.data.map((row) => row.used);
    expect(used).toEqual([...used].sort((a, b) => b - a));

    const byOver = await listed(
      s,
      admin.token,
      `sort=-over_allowance&search=${encodeURIComponent(heavy.email)}`,
    );
    expect(byOver.data.map((row) => row.feature_key)).toEqual(['ai_chat', daily]);
    const oneFeature = await listed(s, admin.token, `feature=${daily}`);
    expect(oneFeature.data.map((row) => row.license_id)).toEqual([heavyLicense.id]);

    const previous = await listed(
      s,
      admin.token,
      `period=previous&search=${encodeURIComponent(heavy.email)}`,
    );
    expect(previous.data.map((row) => [row.feature_key, row.used, row.over_allowance])).toEqual([
      ['ai_chat', 7, 0],
    ]);
    expect(previous.period_end).toBe(current.period_start);

    const paged = await listed(s, admin.token, `perPage=1&page=2&search=${encodeURIComponent(heavy.email)}`);
    expect(paged).toMatchObject({ total: 2, page: 2, perPage: 1 });
    expect(paged.data.map((row) => row.feature_key)).toEqual([daily]);
  });

  it('sums the overage revenue the month’s settled renewals billed, per currency, and not what is pending', async () => {
    const s = server();
    midMonth(s);
    const admin = await signInAsAdmin(s);
    const license = await giveLicense(
      s,
      await member(s),
      await createPlan(s, { features: { ai_chat: 100 } }),
    );
    const feature = await featureByKey(s, 'ai_chat');
    const now = s.clock.now().getTime();
    const charge = (
      amount: number,
      currency: string,
      status: 'pending' | 'billed',
      billedDaysAgo: number,
    ) => ({
      id: randomUUID(),
      license_id: license.id,
      feature_id: feature.id,
      period_start: new Date(now - 40 * DAY_MS).toISOString(),
      period_end: new Date(now - 10 * DAY_MS).toISOString(),
      units: amount,
      amount_minor: amount,
      currency,
      price_minor: 1,
      per_units: 1,
      subscription_id: `sub-${randomUUID()}`,
      status,
      provider_addon_id: null,
      payment_id: status === 'billed' ? `pay-${randomUUID()}` : null,
      invoice_id: null,
      created_at: new Date(now - billedDaysAgo * DAY_MS).toISOString(),
      billed_at: status === 'billed' ? new Date(now - billedDaysAgo * DAY_MS).toISOString() : null,
    });
    await s.app.db
      .insertInto('usage_overage_charges')
      .values([
        charge(1200, 'INR', 'billed', 1),
        charge(300, 'INR', 'billed', 2),
        charge(500, 'USD', 'billed', 3),
        // Waiting for a renewal: not revenue yet.
        charge(999, 'INR', 'pending', 1),
        // Billed last month.
        charge(700, 'INR', 'billed', 20),
      ])
      .execute();

    expect((await listed(s, admin.token, '')).overage_billed).toEqual([
      { currency: 'INR', amount_minor: 1500 },
      { currency: 'USD', amount_minor: 500 },
    ]);
    expect((await listed(s, admin.token, 'period=previous')).overage_billed).toEqual([
      { currency: 'INR', amount_minor: 700 },
    ]);
  });

  it('names the organisation of an organisation’s license', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const owner = await member(s);
    const now = s.clock.now().toISOString();
    const orgId = randomUUID();
    const name = `Usage org ${randomBytes(3).toString('hex')}`;
    await s.app.db
      .insertInto('organisations')
      .values({
        id: orgId,
        name,
        billing_details: null,
        created_by: owner.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const plan = await createPlan(s, { features: { ai_chat: 50 } });
    const license = await giveLicense(s, owner, plan);
    await s.app.db
      .updateTable('licenses')
      .set({ organisation_id: orgId, seats: 2 })
      .where('id', '=', license.id)
      .execute();
    await report(s, owner, license.id, [{ id: 'o-1', feature: 'ai_chat', amount: 9 }]);
    const list = await listed(s, admin.token, `search=${encodeURIComponent(name)}`);
    expect(list.data).toEqual([
      expect.objectContaining({ organisation_id: orgId, organisation_name: name, used: 9, allowance: 50 }),
    ]);
  });

  it('refuses customers and a bad query with a clear 4xx', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const user = await signInAsUser(s);
    expect((await s.api({ path: '/admin/usage', token: user.token })).statusCode).toBe(403);
    for (const query of ['period=last-year', 'sort=email', 'perPage=0', 'page=-1']) {
      const response = await s.api({ path: `/admin/usage?${query}`, token: admin.token });
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });
});
