import type { FeatureUsage } from '../../../shared/api/licenses.js';
import type { PlanFeature } from '../../../shared/api/plans.js';
import { currentPeriodStart, periodEnd } from '../../catalogue/index.js';
import { overAllowance, usageCeiling } from './allowance.js';
import { counterKey, type UsageTotals } from './counters-repository.js';

// Built once: toLocaleString and toLocaleDateString build a new Intl formatter on every call.
const numberFormat = new Intl.NumberFormat('en-US');
export const longDateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const formatNumber = (value: number) => numberFormat.format(value);

function periodWords(period: 'day' | 'month', end: string): string {
  const resets = longDateFormat.format(new Date(end));
  return `${period === 'day' ? 'today' : 'this month'}; it resets on ${resets}`;
}

/** What a metered feature's use this period reads as, within the allowance or past it. */
function usageMessage(feature: PlanFeature, used: number, end: string, available: boolean): string {
  const unit = feature.unit ?? 'units';
  const when = feature.period === 'day' ? 'today' : 'this month';
  if (feature.limit === null) return `${formatNumber(used)} ${unit} used ${when}; no limit`;
  const ofAllowance = `${formatNumber(used)} of ${formatNumber(feature.limit)} ${unit} used ${periodWords(feature.period ?? 'month', end)}`;
  const over = overAllowance(feature.limit, used);
  if (!available) {
    const extra = over > 0 ? ` (${formatNumber(over)} past the allowance)` : '';
    return `${feature.name} limit reached: ${ofAllowance}${extra}`;
  }
  if (over > 0) return `${ofAllowance}; ${formatNumber(over)} ${unit} past the allowance are billed`;
  return ofAllowance;
}

/** One feature of a license with this period's use and whether it can be used now. */
export function featureUsage(
  feature: PlanFeature,
  used: number,
  now: Date,
  licenseActive: boolean,
): FeatureUsage {
  const base = {
    feature_id: feature.feature_id,
    key: feature.key,
    name: feature.name,
    kind: feature.kind,
    period: feature.period,
    unit: feature.unit,
    limit: feature.limit,
    overage: feature.overage,
  };
  if (feature.kind === 'boolean' || !feature.period) {
    return {
      ...base,
      used: 0,
      remaining: null,
      over_allowance: 0,
      available: licenseActive,
      message: licenseActive ? `${feature.name} is included` : `${feature.name} needs an active license`,
      period_start: null,
      period_end: null,
    };
  }
  const start = currentPeriodStart(feature.period, now);
  const end = periodEnd(feature.period, start);
  const ceiling = usageCeiling(feature.limit, feature.overage);
  const available = licenseActive && (ceiling === null || used < ceiling);
  return {
    ...base,
    used,
    remaining: feature.limit === null ? null : Math.max(0, feature.limit - used),
    over_allowance: overAllowance(feature.limit, used),
    available,
    message: licenseActive
      ? usageMessage(feature, used, end, available)
      : `${feature.name} needs an active license`,
    period_start: start,
    period_end: end,
  };
}

export function featureUsages(
  licenseId: string,
  features: PlanFeature[],
  totals: UsageTotals,
  now: Date,
  licenseActive: boolean,
): FeatureUsage[] {
  return features.map((feature) => {
    const used = feature.period
      ? (totals.get(counterKey(licenseId, feature.feature_id, currentPeriodStart(feature.period, now))) ?? 0)
      : 0;
    return featureUsage(feature, used, now, licenseActive);
  });
}
