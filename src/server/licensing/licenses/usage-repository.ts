import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
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

/** The UTC day of a usage event; literal arguments, so PostgreSQL sees the same expression in SELECT and GROUP BY. */
const usageDay = sql<string>`substr(${sql.ref('usage_events.created_at')}, 1, 10)`;

/** Use of the license per UTC day and feature since `since`, oldest day first. */
export async function usageHistory(db: DbOrTransaction, licenseId: string, since: string) {
  const rows = await db
    .selectFrom('usage_events')
    .innerJoin('features', 'features.id', 'usage_events.feature_id')
    .select((eb) => [
      usageDay.as('date'),
      'usage_events.feature_id',
      'features.key',
      eb.fn.sum<number | string>('usage_events.amount').as('amount'),
    ])
    .where('usage_events.license_id', '=', licenseId)
    .where('usage_events.created_at', '>=', since)
    .groupBy([usageDay, 'usage_events.feature_id', 'features.key'])
    .orderBy('date')
    .orderBy('features.key')
    .execute();
  return rows.map((row) => ({
    date: row.date,
    feature_id: row.feature_id,
    key: row.key,
    amount: Number(row.amount),
  }));
}
