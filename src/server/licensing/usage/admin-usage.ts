import type { z } from 'zod';
import type { AdminUsageList, adminUsageQuerySchema } from '../../../shared/api/admin-usage.js';
import { STOP_AT_ALLOWANCE } from '../../../shared/api/plans.js';
import { utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { featuresOfPlans } from '../../catalogue/index.js';
import { countersIn, usageConsumers } from './admin-usage-repository.js';
import { overAllowance, overageCharge } from './allowance.js';
import { billedOverageBetween } from './overage-repository.js';

type AdminUsageQuery = z.output<typeof adminUsageQuerySchema>;

/**
 * Administrators' view of metered use: per customer (a license, its holder or organisation) and
 * feature in this month or the last, the allowance, the units past it and the overage they have
 * accrued at the plan's price, heaviest users first; and the overage revenue: what renewals settled
 * in the month billed past the allowance.
 */
export function createAdminUsageService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async list(query: AdminUsageQuery): Promise<AdminUsageList> {
      const thisMonth = utc(clock.now()).startOf('month');
      const start = query.period === 'previous' ? thisMonth.subtract(1, 'month') : thisMonth;
      const range = { from: start.toISOString(), to: start.add(1, 'month').toISOString() };
      const page = await usageConsumers(db, {
        ...range,
        feature: query.feature,
        search: query.search,
        sort: query.sort ?? { field: 'used', direction: 'desc' },
        page: query.page,
        perPage: query.perPage,
      });
      const plans = await featuresOfPlans(db, [...new Set(page.data.map((row) => row.plan_id))]);
      const counters = await countersIn(db, [...new Set(page.data.map((row) => row.license_id))], range);
      const data = page.data.map((row) => {
        const feature = plans.get(row.plan_id)?.find((each) => each.feature_id === row.feature_id);
        const limit = feature?.limit ?? null;
        const overage = feature?.overage ?? STOP_AT_ALLOWANCE;
        // Priced per period as the renewal bills it: a daily feature's days each in whole blocks.
        const accrued = counters
          .filter((counter) => counter.license_id === row.license_id && counter.feature_id === row.feature_id)
          .reduce(
            (sum, counter) => sum + overageCharge(overAllowance(limit, Number(counter.total)), overage),
            0,
          );
        return {
          license_id: row.license_id,
          user_id: row.user_id,
          email: row.email,
          organisation_id: row.organisation_id,
          organisation_name: row.organisation_name,
          plan_name: row.plan_name,
          feature_id: row.feature_id,
          feature_key: row.feature_key,
          feature_name: row.feature_name,
          unit: row.unit,
          period: row.period ?? 'month',
          used: Number(row.used),
          allowance: limit,
          over_allowance: Number(row.over_allowance),
          overage_policy: overage.policy,
          overage_accrued_minor: accrued,
          currency: row.currency,
        };
      });
      const overage_billed = await billedOverageBetween(db, range);
      return { ...page, data, period_start: range.from, period_end: range.to, overage_billed };
    },
  };
}

export type AdminUsageService = ReturnType<typeof createAdminUsageService>;
