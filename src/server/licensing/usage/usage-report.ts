import { utc } from '../../../shared/dates.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import { usageInfoOf } from '../licenses/views.js';
import { usageHistory } from './counters-repository.js';
import { overageOutlook } from './overage-outlook.js';
import { ownMemberUsage } from './member-usage.js';
import { leftInPacks, openPacksOfLicense } from './packs-repository.js';
import { planCurrency } from './plan-currency.js';
import type { UsageDeps } from './report-usage.js';

/**
 * A license's use as the Usage page and the AI backend read it: each feature this period, the
 * plan's currency its overage is priced in, the use per day over the last `days` (rollups), the
 * overage projected and owed (overage-outlook.ts), and on an organisation's license `callerId`'s own
 * use and caps beside the pool's. The plan's features and currency come from `planFeatures` and
 * `planCurrency` (the catalogue's cache) when given.
 */
export async function usageReport(
  db: DbOrTransaction,
  row: LicenseRow,
  days: number,
  now: Date,
  {
    callerId,
    planFeatures,
    planCurrency: cachedCurrency,
  }: {
    callerId?: string;
    planFeatures?: UsageDeps['planFeatures'];
    planCurrency?: UsageDeps['planCurrency'];
  } = {},
) {
  const since = utc(now)
    .startOf('day')
    .subtract(days - 1, 'day')
    .toISOString();
  const [currency, history, packs] = await Promise.all([
    cachedCurrency ? cachedCurrency(row.plan_id) : planCurrency(db, row.plan_id),
    usageHistory(db, row.id, since),
    openPacksOfLicense(db, row.id, now.toISOString()),
  ]);
  const usage_info = await usageInfoOf(db, row, now, leftInPacks(packs), planFeatures);
  const overage = await overageOutlook(db, row, usage_info.features, now);
  const member_usage = await ownMemberUsage(db, row, usage_info.features, callerId);
  return {
    license_id: row.id,
    usage_info,
    currency,
    history,
    packs: packs.map((pack) => ({
      id: pack.id,
      feature_id: pack.feature_id,
      units: Number(pack.units),
      used: Number(pack.used),
      left: Number(pack.units) - Number(pack.used),
      source: pack.source,
      created_at: pack.created_at,
      expires_at: pack.expires_at,
    })),
    overage,
    member_usage,
  };
}
