import { randomUUID } from 'node:crypto';
import type { FeatureUsage } from '../../../shared/api/licenses.js';
import type { PlanFeature } from '../../../shared/api/plans.js';
import type { DbOrTransaction } from '../../db/database.js';
import { currentPeriodStart, periodEnd } from './periods.js';

/** Counter totals keyed by `${licenseId}|${featureId}|${periodStart}`. */
export type UsageTotals = Map<string, number>;
const counterKey = (licenseId: string, featureId: string, periodStart: string) =>
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

/**
 * Adds `amount` to this period's counter unless that would pass the limit, in one statement so
 * concurrent calls can neither lose an increment nor overshoot. Returns the new total, or
 * undefined when the limit would be passed (nothing is written then).
 */
export async function addUsage(
  db: DbOrTransaction,
  input: { licenseId: string; featureId: string; periodStart: string; amount: number; limit: number | null },
): Promise<number | undefined> {
  await db
    .insertInto('usage_counters')
    .values({
      license_id: input.licenseId,
      feature_id: input.featureId,
      period_start: input.periodStart,
      total: 0,
    })
    .onConflict((conflict) => conflict.columns(['license_id', 'feature_id', 'period_start']).doNothing())
    .execute();
  let update = db
    .updateTable('usage_counters')
    .set((eb) => ({ total: eb('total', '+', input.amount) }))
    .where('license_id', '=', input.licenseId)
    .where('feature_id', '=', input.featureId)
    .where('period_start', '=', input.periodStart);
  if (input.limit !== null)
    update = update.where((eb) => eb(eb('total', '+', input.amount), '<=', input.limit));
  const row = await update.returning('total').executeTakeFirst();
  return row ? Number(row.total) : undefined;
}

export async function recordUsageEvent(
  db: DbOrTransaction,
  input: { licenseId: string; featureId: string; amount: number; data: Record<string, unknown>; at: string },
): Promise<void> {
  await db
    .insertInto('usage_events')
    .values({
      id: randomUUID(),
      license_id: input.licenseId,
      feature_id: input.featureId,
      amount: input.amount,
      data: JSON.stringify(input.data),
      created_at: input.at,
    })
    .execute();
}
