import type { FeatureUsage } from '../../../shared/api/licenses.js';
import type { PlanFeature } from '../../../shared/api/plans.js';
import { currentPeriodStart, periodEnd } from '../../catalogue/index.js';
import { counterKey, type UsageTotals } from './usage-repository.js';

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
  };
  if (feature.kind === 'boolean' || !feature.period) {
    return {
      ...base,
      used: 0,
      remaining: null,
      available: licenseActive,
      message: licenseActive ? `${feature.name} is included` : `${feature.name} needs an active license`,
      period_start: null,
      period_end: null,
    };
  }
  const start = currentPeriodStart(feature.period, now);
  const end = periodEnd(feature.period, start);
  const remaining = feature.limit === null ? null : Math.max(0, feature.limit - used);
  const unit = feature.unit ?? 'units';
  const available = licenseActive && (remaining === null || remaining > 0);
  let message: string;
  if (!licenseActive) message = `${feature.name} needs an active license`;
  else if (feature.limit === null)
    message = `${formatNumber(used)} ${unit} used ${feature.period === 'day' ? 'today' : 'this month'}; no limit`;
  else if (available)
    message = `${formatNumber(used)} of ${formatNumber(feature.limit)} ${unit} used ${periodWords(feature.period, end)}`;
  else
    message = `${feature.name} limit reached: ${formatNumber(used)} of ${formatNumber(feature.limit)} ${unit} used ${periodWords(feature.period, end)}`;
  return { ...base, used, remaining, available, message, period_start: start, period_end: end };
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
