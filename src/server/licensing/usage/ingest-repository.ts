import type { DbOrTransaction } from '../../platform/db/database.js';
import { timeOrderedId } from '../../platform/ids.js';
import { preparedQuery } from '../../platform/db/prepared-query.js';

/** A usage counter of one license: a feature in one period. */
export interface CounterKey {
  featureId: string;
  periodStart: string;
}

/** An event ready to count: its feature, period and day worked out, its amount checked. */
export interface UsageEventRow {
  eventId: string;
  featureId: string;
  periodStart: string;
  /** UTC day it happened, `YYYY-MM-DD`. */
  day: string;
  amount: number;
  occurredAt: string;
  data: string;
}

/** A locked counter as it stands: its total, and how much of it credit packs covered. */
export interface LockedCounter {
  total: number;
  fromPacks: number;
}

const lockCounterQuery = preparedQuery((db, licenseId: string, featureId: string, periodStart: string) =>
  db
    .insertInto('usage_counters')
    .values({ license_id: licenseId, feature_id: featureId, period_start: periodStart, total: 0 })
    .onConflict((conflict) =>
      conflict
        .columns(['license_id', 'feature_id', 'period_start'])
        .doUpdateSet((eb) => ({ total: eb.ref('usage_counters.total') })),
    )
    .returning(['total', 'from_packs']),
);

/**
 * Takes the counter's row lock (PostgreSQL: until the transaction ends; SQLite has one writer
 * anyway) and answers it as it stands, creating it at zero: one statement, an insert that touches
 * the row when it is there. Counters are locked in one order by every caller, so two batches
 * never wait on each other in a circle.
 */
export async function lockCounter(
  db: DbOrTransaction,
  licenseId: string,
  key: CounterKey,
): Promise<LockedCounter> {
  const [row] = await lockCounterQuery(db, licenseId, key.featureId, key.periodStart);
  if (!row) throw new Error(`the counter ${licenseId} ${key.featureId} ${key.periodStart} was not answered`);
  return { total: Number(row.total), fromPacks: Number(row.from_packs) };
}

/** The events of the license already counted under any of `eventIds`. */
export async function findCountedEvents(
  db: DbOrTransaction,
  licenseId: string,
  eventIds: string[],
): Promise<Map<string, { featureId: string; amount: number }>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('usage_events')
    .select(['event_id', 'feature_id', 'amount'])
    .where('license_id', '=', licenseId)
    .where('event_id', 'in', eventIds)
    .execute();
  return new Map(
    rows.map((row) => [row.event_id ?? '', { featureId: row.feature_id, amount: Number(row.amount) }]),
  );
}

/**
 * Writes the events, skipping any whose id the license already has (another batch's, committed a
 * moment ago); answers the ids written.
 */
export async function insertEvents(
  db: DbOrTransaction,
  input: { licenseId: string; userId: string; receivedAt: string; events: UsageEventRow[] },
): Promise<Set<string>> {
  if (input.events.length === 0) return new Set();
  const rows = await db
    .insertInto('usage_events')
    .values(
      input.events.map((event) => ({
        // In the order written: the busiest insert of the server appends to the table's key.
        id: timeOrderedId(),
        license_id: input.licenseId,
        feature_id: event.featureId,
        amount: event.amount,
        data: event.data,
        created_at: input.receivedAt,
        event_id: event.eventId,
        occurred_at: event.occurredAt,
        user_id: input.userId,
      })),
    )
    .onConflict((conflict) => conflict.columns(['license_id', 'event_id']).doNothing())
    .returning('event_id')
    .execute();
  return new Set(rows.map((row) => row.event_id ?? ''));
}

/** Adds to a locked counter. */
export async function addToCounter(
  db: DbOrTransaction,
  licenseId: string,
  key: CounterKey,
  amount: number,
): Promise<void> {
  await db
    .updateTable('usage_counters')
    .set((eb) => ({ total: eb('total', '+', amount) }))
    .where('license_id', '=', licenseId)
    .where('feature_id', '=', key.featureId)
    .where('period_start', '=', key.periodStart)
    .execute();
}

/** Adds each feature's use per day to the daily rollups the usage chart reads. */
export async function addToDailyRollups(
  db: DbOrTransaction,
  licenseId: string,
  totals: { featureId: string; day: string; amount: number }[],
): Promise<void> {
  if (totals.length === 0) return;
  await db
    .insertInto('usage_daily')
    .values(
      totals.map((total) => ({
        license_id: licenseId,
        feature_id: total.featureId,
        day: total.day,
        total: total.amount,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['license_id', 'feature_id', 'day'])
        .doUpdateSet((eb) => ({ total: eb('usage_daily.total', '+', eb.ref('excluded.total')) })),
    )
    .execute();
}
