import { expect, it } from 'vitest';
import { type DashboardStats, dashboardStatsSchema } from '../../../src/shared/api/admin.js';
import { utc } from '../../../src/shared/dates.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import {
  DAY_MS,
  licenseSuiteOptions,
  type Member,
  member,
  planByCode,
  signInAgain,
} from '../helpers/license-helpers.js';
import { subscribe } from '../helpers/subscription-helpers.js';

const TRIAL_PLAN = 'pro-monthly';

async function stats(s: TestServer, admin: Member): Promise<DashboardStats> {
  const response = await s.api({ path: '/admin/dashboard', token: (await signInAgain(s, admin)).token });
  expect(response.statusCode, response.body).toBe(200);
  return dashboardStatsSchema.parse(response.json());
}

async function startTrial(s: TestServer, who: Member, planId: string): Promise<void> {
  const response = await s.api({
    method: 'POST',
    path: '/licenses/trials',
    token: who.token,
    body: { plan_id: planId },
  });
  expect(response.statusCode, response.body).toBe(201);
}

/** A new customer who starts the trial of the plan now. */
async function trialist(s: TestServer, planId: string): Promise<Member> {
  const who = await member(s);
  await startTrial(s, who, planId);
  return who;
}

const month = (s: TestServer) => utc(s.clock.now()).format('YYYY-MM');

describeOnEveryDatabase(
  'GET /admin/dashboard: free trials per month',
  (server) => {
    it('counts the trials started each month and those of them bought since, with the rate; none outside the 12 months', async () => {
      const s = server();
      s.clock.freeze();
      const admin = await member(s, 'admin');
      const plan = await planByCode(s, TRIAL_PLAN);
      const offered = await s.api({
        method: 'PUT',
        path: `/plans/${plan.id}`,
        token: admin.token,
        body: { trial_days: 14 },
      });
      expect(offered.statusCode, offered.body).toBe(200);

      const empty = await stats(s, admin);
      expect(empty.trials).toMatchObject({ started: 0, converted: 0, rate: null });
      expect(empty.trials.by_month).toHaveLength(12);
      expect(empty.trials.by_month.every((row) => row.started === 0 && row.rate === null)).toBe(true);

      // Bought, but more than 12 months before the overview: outside its window.
      const old = await trialist(s, plan.id);
      await subscribe(s, old, TRIAL_PLAN);
      s.clock.advance(380 * DAY_MS);

      // The first month: two trials, one bought only in the next month (it counts in the month it started).
      const first = month(s);
      const [ann] = [await trialist(s, plan.id), await trialist(s, plan.id)];
      s.clock.advance(45 * DAY_MS);

      // The next month: three trials, one bought at once.
      const second = month(s);
      expect(second).not.toBe(first);
      const carl = await trialist(s, plan.id);
      await trialist(s, plan.id);
      await trialist(s, plan.id);
      await subscribe(s, carl, TRIAL_PLAN);
      await subscribe(s, await signInAgain(s, ann!), TRIAL_PLAN);

      const { trials } = await stats(s, admin);
      expect(trials.by_month).toHaveLength(12);
      expect(trials.by_month.at(-1)?.period).toBe(second);
      expect(trials.by_month.find((row) => row.period === first)).toEqual({
        period: first,
        started: 2,
        converted: 1,
        rate: 0.5,
      });
      expect(trials.by_month.find((row) => row.period === second)).toEqual({
        period: second,
        started: 3,
        converted: 1,
        rate: 1 / 3,
      });
      expect(trials.by_month.filter((row) => row.period !== first && row.period !== second)).toSatisfy(
        (rows: DashboardStats['trials']['by_month']) =>
          rows.every((row) => row.started === 0 && row.converted === 0 && row.rate === null),
      );
      expect(trials).toMatchObject({ started: 5, converted: 2, rate: 0.4 });
    });
  },
  licenseSuiteOptions,
);
