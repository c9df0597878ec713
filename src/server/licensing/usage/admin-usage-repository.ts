import { sql } from 'kysely';
import type { Paged } from '../../../shared/api/paging.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';

/** One license's use of one feature over a month, from its counters, with whose it is. */
export interface UsageConsumerRow {
  license_id: string;
  feature_id: string;
  used: number | string;
  over_allowance: number | string;
  plan_id: string;
  plan_name: string;
  currency: string;
  user_id: string | null;
  email: string | null;
  organisation_id: string | null;
  organisation_name: string | null;
  feature_key: string;
  feature_name: string;
  unit: string | null;
  period: 'day' | 'month' | null;
}

export interface UsageConsumersQuery {
  /** Counters whose period starts in [from, to): a month's, or its days'. */
  from: string;
  to: string;
  feature?: string | undefined;
  search?: string | undefined;
  sort: { field: 'used' | 'over_allowance'; direction: 'asc' | 'desc' };
  page: number;
  perPage: number;
}

/**
 * Each license's use of each feature in a month, read from the counters (never by summing events),
 * with the units past the plan's allowance counted per period (a daily feature's days each on
 * their own); sorted by use or units over, heaviest first by default, a page at a time.
 */
export async function usageConsumers(
  db: DbOrTransaction,
  query: UsageConsumersQuery,
): Promise<Paged<UsageConsumerRow>> {
  const grouped = db
    .selectFrom('usage_counters as c')
    .innerJoin('licenses as l', 'l.id', 'c.license_id')
    .leftJoin('plan_features as pf', (join) =>
      join.onRef('pf.plan_id', '=', 'l.plan_id').onRef('pf.feature_id', '=', 'c.feature_id'),
    )
    .where('c.period_start', '>=', query.from)
    .where('c.period_start', '<', query.to)
    .where('c.total', '>', 0)
    .select([
      'c.license_id',
      'c.feature_id',
      sql<number | string>`sum(c.total)`.as('used'),
      sql<number | string>`sum(case when pf.limit_value is not null and c.total > pf.limit_value
        then c.total - pf.limit_value else 0 end)`.as('over_allowance'),
    ])
    .groupBy(['c.license_id', 'c.feature_id']);
  let select = db
    .selectFrom(grouped.as('u'))
    .innerJoin('licenses as l', 'l.id', 'u.license_id')
    .innerJoin('plans as p', 'p.id', 'l.plan_id')
    .innerJoin('features as f', 'f.id', 'u.feature_id')
    .leftJoin('users as a', 'a.id', 'l.user_id')
    .leftJoin('organisations as o', 'o.id', 'l.organisation_id')
    .select([
      'u.license_id',
      'u.feature_id',
      'u.used',
      'u.over_allowance',
      'p.id as plan_id',
      'p.name as plan_name',
      'p.currency',
      'l.user_id',
      'a.email',
      'l.organisation_id',
      'o.name as organisation_name',
      'f.key as feature_key',
      'f.name as feature_name',
      'f.unit',
      'f.period',
    ]);
  if (query.feature) {
    const feature = query.feature;
    select = select.where((eb) => eb.or([eb('f.id', '=', feature), eb('f.key', '=', feature)]));
  }
  if (query.search) select = select.where(matchesSearch(['a.email', 'o.name', 'l.id'], query.search));
  const { field, direction } = query.sort;
  select = select
    .orderBy(field === 'used' ? 'u.used' : 'u.over_allowance', direction)
    .orderBy('u.license_id')
    .orderBy('u.feature_id');
  return fetchPage(select, query);
}

/** The counters of the licenses' features in [from, to), each with its total, for pricing per period. */
export function countersIn(
  db: DbOrTransaction,
  licenseIds: string[],
  range: { from: string; to: string },
): Promise<{ license_id: string; feature_id: string; total: number | string }[]> {
  if (licenseIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('usage_counters')
    .select(['license_id', 'feature_id', 'total'])
    .where('license_id', 'in', licenseIds)
    .where('period_start', '>=', range.from)
    .where('period_start', '<', range.to)
    .execute();
}
