import type { ExpressionBuilder } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/tables.js';

// The queries behind held deliveries (held-deliveries.ts says why and how long they are held).

const disabledEndpoints = (db: DbOrTransaction) =>
  db.selectFrom('webhook_endpoints').select('id').where('disabled_at', 'is not', null);

/** A delivery no worker is sending now (one that is, is left to that worker to finish). */
const unclaimed = (now: string) => (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) =>
  eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]);

/** Marks these deliveries failed with `reason`, leaving alone any a worker is sending now. */
export async function failUnclaimedPendingDeliveries(
  db: DbOrTransaction,
  ids: string[],
  reason: string,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: reason, completed_at: now })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where(unclaimed(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function countPendingDeliveries(db: DbOrTransaction, endpointId: string): Promise<number> {
  const held = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(held.count);
}

export async function oldestPendingDeliveryIds(
  db: DbOrTransaction,
  endpointId: string,
  limit: number,
): Promise<string[]> {
  const oldest = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return oldest.map((row) => row.id);
}

/**
 * Marks failed with `reason` the unclaimed deliveries created before `cutoff` for disabled
 * endpoints (one, or every one).
 */
export async function failHeldDeliveriesCreatedBefore(
  db: DbOrTransaction,
  cutoff: string,
  reason: string,
  now: string,
  endpointId?: string,
): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: reason, completed_at: now })
    .where('status', '=', 'pending')
    .where('created_at', '<', cutoff)
    .where('endpoint_id', 'in', disabledEndpoints(db))
    .where(unclaimed(now))
    .$if(endpointId !== undefined, (query) => query.where('endpoint_id', '=', endpointId ?? ''))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Makes every pending delivery of the endpoint, retries included, due at `now`. */
export async function makePendingDeliveriesDue(
  db: DbOrTransaction,
  endpointId: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}
