import type { FeatureUsage } from '../../../../shared/api/licenses';
import { utc } from '../../../../shared/dates';
import type { LicenseUsage } from './licenses-endpoints';
import { formatDay } from './license-format';

/** One bar of a usage chart: the day's label and the units of each feature (by key) used that day. */
export type UsagePoint = { day: string } & Record<string, number | string>;

/**
 * The last `days` UTC days (oldest first, ending today) with the units each feature used on
 * each, zero on days without use, so the chart's time axis has no gaps.
 */
export function dailyUsage(
  history: LicenseUsage['history'],
  features: readonly Pick<FeatureUsage, 'key'>[],
  days: number,
  now = Date.now(),
): UsagePoint[] {
  const byDay = new Map<string, Map<string, number>>();
  for (const item of history) {
    const day = byDay.get(item.date) ?? new Map<string, number>();
    day.set(item.key, (day.get(item.key) ?? 0) + item.amount);
    byDay.set(item.date, day);
  }
  const today = utc(now);
  const points: UsagePoint[] = [];
  for (let index = days - 1; index >= 0; index -= 1) {
    const date = today.subtract(index, 'day').format('YYYY-MM-DD');
    const point: UsagePoint = { day: formatDay(date) };
    for (const feature of features) point[feature.key] = byDay.get(date)?.get(feature.key) ?? 0;
    points.push(point);
  }
  return points;
}

/** Total and busiest day of one feature over the points, for the chart's text summary. */
export function usageSummary(
  points: readonly UsagePoint[],
  key: string,
): { total: number; peak: UsagePoint | null } {
  let total = 0;
  let peak: UsagePoint | null = null;
  for (const point of points) {
    const amount = Number(point[key] ?? 0);
    total += amount;
    if (amount > 0 && (!peak || amount > Number(peak[key]))) peak = point;
  }
  return { total, peak };
}
