import type { DbOrTransaction } from '../../platform/db/database.js';
import { preparedQuery } from '../../platform/db/prepared-query.js';
import { currentPeriodStart } from '../../catalogue/index.js';

/** Counter totals keyed by `${licenseId}|${featureId}|${periodStart}`. */
export type UsageTotals = Map<string, number>;
export const counterKey = (licenseId: string, featureId: string, periodStart: string) =>
  `${licenseId}|${featureId}|${periodStart}`;

/**
 * This period's counters of the licenses (both period kinds, so any feature finds its own), read
 * once: each one's total, and what it drew from credit packs where it drew any, keyed alike.
 */
const countersSelect = (db: DbOrTransaction) =>
  db.selectFrom('usage_counters').select(['license_id', 'feature_id', 'period_start', 'total', 'from_packs']);

/** One license's counters of two periods: a usage read's, prepared once (prepared-query.ts). */
const countersOfLicense = preparedQuery((db, licenseId: string, dayStart: string, monthStart: string) =>
  countersSelect(db).where('license_id', '=', licenseId).where('period_start', 'in', [dayStart, monthStart]),
);

export async function currentCounters(
  db: DbOrTransaction,
  licenseIds: string[],
  now: Date,
): Promise<{ totals: UsageTotals; draws: UsageTotals }> {
  const totals: UsageTotals = new Map();
  const draws: UsageTotals = new Map();
  if (licenseIds.length === 0) return { totals, draws };
  const [dayStart, monthStart] = [currentPeriodStart('day', now), currentPeriodStart('month', now)];
  const rows =
    licenseIds.length === 1
      ? await countersOfLicense(db, licenseIds[0]!, dayStart, monthStart)
      : await countersSelect(db)
          .where('license_id', 'in', licenseIds)
          .where('period_start', 'in', [dayStart, monthStart])
          .execute();
  for (const row of rows) {
    const key = counterKey(row.license_id, row.feature_id, row.period_start);
    totals.set(key, Number(row.total));
    if (Number(row.from_packs) > 0) draws.set(key, Number(row.from_packs));
  }
  return { totals, draws };
}

/** Use of the license per UTC day and feature since `since` (a day), oldest day first, from the rollups. */
const historyOfLicense = preparedQuery((db, licenseId: string, sinceDay: string) =>
  db
    .selectFrom('usage_daily')
    .innerJoin('features', 'features.id', 'usage_daily.feature_id')
    .select(['usage_daily.day', 'usage_daily.feature_id', 'features.key', 'usage_daily.total'])
    .where('usage_daily.license_id', '=', licenseId)
    .where('usage_daily.day', '>=', sinceDay)
    .orderBy('usage_daily.day')
    .orderBy('features.key'),
);

export async function usageHistory(db: DbOrTransaction, licenseId: string, since: string) {
  const rows = await historyOfLicense(db, licenseId, since.slice(0, 10));
  return rows.map((row) => ({
    date: row.day,
    feature_id: row.feature_id,
    key: row.key,
    amount: Number(row.total),
  }));
}
