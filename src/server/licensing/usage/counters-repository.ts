import type { DbOrTransaction } from '../../platform/db/database.js';
import { currentPeriodStart } from '../../catalogue/index.js';

/** Counter totals keyed by `${licenseId}|${featureId}|${periodStart}`. */
export type UsageTotals = Map<string, number>;
export const counterKey = (licenseId: string, featureId: string, periodStart: string) =>
  `${licenseId}|${featureId}|${periodStart}`;

/** This period's totals for the licenses (both period kinds, so any feature finds its own). */
export async function currentTotals(
  db: DbOrTransaction,
  licenseIds: string[],
  now: Date,
): Promise<UsageTotals> {
  if (licenseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('usage_counters')
    .select(['license_id', 'feature_id', 'period_start', 'total'])
    .where('license_id', 'in', licenseIds)
    .where('period_start', 'in', [currentPeriodStart('day', now), currentPeriodStart('month', now)])
    .execute();
  return new Map(
    rows.map((row) => [counterKey(row.license_id, row.feature_id, row.period_start), Number(row.total)]),
  );
}

/** Use of the license per UTC day and feature since `since` (a day), oldest day first, from the rollups. */
export async function usageHistory(db: DbOrTransaction, licenseId: string, since: string) {
  const rows = await db
    .selectFrom('usage_daily')
    .innerJoin('features', 'features.id', 'usage_daily.feature_id')
    .select(['usage_daily.day', 'usage_daily.feature_id', 'features.key', 'usage_daily.total'])
    .where('usage_daily.license_id', '=', licenseId)
    .where('usage_daily.day', '>=', since.slice(0, 10))
    .orderBy('usage_daily.day')
    .orderBy('features.key')
    .execute();
  return rows.map((row) => ({
    date: row.day,
    feature_id: row.feature_id,
    key: row.key,
    amount: Number(row.total),
  }));
}
