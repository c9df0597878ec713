import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Paged } from '../../../shared/api/paging.js';
import type {
  webhookDeliveryListQuerySchema,
  webhookEndpointListQuerySchema,
} from '../../../shared/api/webhooks.js';
import type { Db, DbOrTransaction, DialectName } from '../../platform/db/database.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';
import type { OutboxBacklog } from '../../platform/outbox-consumer.js';
import { requestOrigin } from '../../platform/tracing/request-scope.js';
import type {
  WebhookAttemptRow,
  WebhookAttemptsTable,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEndpointsTable,
  NewWebhookEvent,
  WebhookEventRow,
} from '../../platform/db/tables-webhooks.js';

export const findEndpoint = (db: DbOrTransaction, id: string): Promise<WebhookEndpointRow | undefined> =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertEndpoint(db: DbOrTransaction, row: WebhookEndpointsTable): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: DbOrTransaction,
  id: string,
  changes: Partial<Omit<WebhookEndpointsTable, 'id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

export async function deleteEndpoint(db: DbOrTransaction, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listEndpoints(
  db: DbOrTransaction,
  query: z.output<typeof webhookEndpointListQuerySchema>,
): Promise<Paged<WebhookEndpointRow>> {
  let select = db.selectFrom('webhook_endpoints').selectAll();
  if (query.search) select = select.where(matchesSearch(['url', 'description'], query.search));
  const field = query.sort?.field ?? 'created_at';
  const direction = query.sort?.direction ?? 'desc';
  select = select.orderBy(field, direction).orderBy('id', direction);
  return fetchPage(select, query);
}

/**
 * Every endpoint, enabled or not, for queueing an event to those that subscribed to its type: a
 * disabled one holds its deliveries until it is enabled again (see held-deliveries.ts).
 */
export const subscribableEndpoints = (db: DbOrTransaction) =>
  db.selectFrom('webhook_endpoints').select(['id', 'event_types', 'disabled_at']).execute();

/** Writes an event, with the request that caused it, whose id and trace its deliveries carry. */
export async function insertEvent(db: DbOrTransaction, row: NewWebhookEvent): Promise<void> {
  await db
    .insertInto('webhook_events')
    .values({ ...row, ...requestOrigin() })
    .execute();
}

export const findEvent = (db: DbOrTransaction, id: string): Promise<WebhookEventRow | undefined> =>
  db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();

/** A delivery due now of `eventId` to `endpointId`. */
export async function insertDelivery(
  db: DbOrTransaction,
  input: { endpointId: string; eventId: string; now: string; redeliveryOf?: string },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('webhook_deliveries')
    .values({
      id,
      endpoint_id: input.endpointId,
      event_id: input.eventId,
      redelivery_of: input.redeliveryOf ?? null,
      status: 'pending',
      attempts: 0,
      next_attempt_at: input.now,
      claimed_until: null,
      last_status_code: null,
      last_error: null,
      created_at: input.now,
      completed_at: null,
    })
    .execute();
  return id;
}

export type DeliveryWithType = WebhookDeliveryRow & { event_type: string };

const deliveriesWithType = (db: DbOrTransaction) =>
  db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .selectAll('webhook_deliveries')
    .select('webhook_events.type as event_type');

export const findDelivery = (db: DbOrTransaction, id: string): Promise<DeliveryWithType | undefined> =>
  deliveriesWithType(db).where('webhook_deliveries.id', '=', id).executeTakeFirst();

export async function listDeliveries(
  db: DbOrTransaction,
  endpointId: string,
  query: z.output<typeof webhookDeliveryListQuerySchema>,
): Promise<Paged<DeliveryWithType>> {
  let select = deliveriesWithType(db).where('webhook_deliveries.endpoint_id', '=', endpointId);
  if (query.status) select = select.where('webhook_deliveries.status', '=', query.status);
  if (query.search)
    select = select.where(
      matchesSearch(['webhook_events.type', 'webhook_deliveries.event_id'], query.search),
    );
  const direction = query.sort?.direction ?? 'desc';
  select = select
    .orderBy('webhook_deliveries.created_at', direction)
    .orderBy('webhook_deliveries.id', direction);
  return fetchPage(select, query);
}

export const attemptsOf = (db: DbOrTransaction, deliveryId: string): Promise<WebhookAttemptRow[]> =>
  db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .execute();

/**
 * Takes up to `limit` due deliveries of enabled endpoints until `claimedUntil`, counting the
 * attempt. On PostgreSQL rows another instance is taking are skipped rather than waited for;
 * SQLite runs one write at a time. A worker that dies holding rows leaves them to be taken again
 * once the claim runs out.
 */
export async function claimDueDeliveries(
  db: Db,
  dialect: DialectName,
  now: Date,
  claimedUntil: Date,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  const nowIso = now.toISOString();
  const due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', nowIso)]))
    .where(
      'endpoint_id',
      'in',
      db.selectFrom('webhook_endpoints').select('id').where('disabled_at', 'is', null),
    )
    // Oldest first: what waited for an endpoint goes out in the order it was raised.
    .orderBy('next_attempt_at')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked());
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ claimed_until: claimedUntil.toISOString(), attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
  return claimed.sort(
    (a, b) =>
      a.next_attempt_at.localeCompare(b.next_attempt_at) ||
      a.created_at.localeCompare(b.created_at) ||
      a.id.localeCompare(b.id),
  );
}

/** The deliveries still to make to enabled endpoints, and when the oldest of them was raised. */
export async function deliveryBacklog(db: Db): Promise<OutboxBacklog> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll<number | string>().as('depth'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .where(
      'endpoint_id',
      'in',
      db.selectFrom('webhook_endpoints').select('id').where('disabled_at', 'is', null),
    )
    .executeTakeFirstOrThrow();
  return { depth: Number(row.depth), oldestQueuedAt: row.oldest };
}

/** One delivery's claim: every write of its outcome checks the claim is still this worker's. */
export type DeliveryClaim = Pick<WebhookDeliveryRow, 'id' | 'claimed_until'>;

export async function insertAttempt(
  db: DbOrTransaction,
  row: Omit<WebhookAttemptsTable, 'id'>,
): Promise<void> {
  await db
    .insertInto('webhook_attempts')
    .values({ id: randomUUID(), ...row })
    .execute();
}

/** Records the outcome of an attempt; false when the claim ran out and another worker took over. */
export async function finishAttempt(
  db: DbOrTransaction,
  claim: DeliveryClaim,
  outcome: {
    status: WebhookDeliveryRow['status'];
    nextAttemptAt: string | null;
    statusCode: number | null;
    error: string | null;
    completedAt: string | null;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      ...(outcome.nextAttemptAt ? { next_attempt_at: outcome.nextAttemptAt } : {}),
      claimed_until: null,
      last_status_code: outcome.statusCode,
      last_error: outcome.error,
      completed_at: outcome.completedAt,
    })
    .where('id', '=', claim.id)
    .where('claimed_until', '=', claim.claimed_until)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives back deliveries this worker took but did not get to (it is closing). */
export async function releaseDeliveryClaims(db: DbOrTransaction, claims: DeliveryClaim[]): Promise<void> {
  for (const claim of claims)
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ claimed_until: null, attempts: eb('attempts', '-', 1) }))
      .where('id', '=', claim.id)
      .where('claimed_until', '=', claim.claimed_until)
      .execute();
}

/** Deletes events (and with them their deliveries and attempts) older than `before` and finished. */
export async function pruneWebhookHistory(db: DbOrTransaction, before: string): Promise<number> {
  const pending = db.selectFrom('webhook_deliveries').select('event_id').where('status', '=', 'pending');
  const doomed = db
    .selectFrom('webhook_events')
    .select('id')
    .where('created_at', '<', before)
    .where('id', 'not in', pending);
  // Children first: SQLite's foreign keys cascade, but deleting them outright needs no cascade.
  await db
    .deleteFrom('webhook_attempts')
    .where(
      'delivery_id',
      'in',
      db.selectFrom('webhook_deliveries').select('id').where('event_id', 'in', doomed),
    )
    .execute();
  await db.deleteFrom('webhook_deliveries').where('event_id', 'in', doomed).execute();
  const result = await db.deleteFrom('webhook_events').where('id', 'in', doomed).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A success ends the endpoint's failing period. */
export async function clearEndpointFailures(db: DbOrTransaction, endpointId: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0, failing_since: null })
    .where('id', '=', endpointId)
    .execute();
}

/**
 * Starts the failing period unless one is running and, for a delivery that used up its attempts,
 * raises the counter in SQL so two workers finishing at once both count; answers the endpoint after.
 */
export async function recordEndpointFailure(
  db: DbOrTransaction,
  endpointId: string,
  now: string,
  deliveryFailed: boolean,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      failing_since: eb.fn.coalesce('failing_since', eb.val(now)),
      ...(deliveryFailed ? { consecutive_failures: eb('consecutive_failures', '+', 1) } : {}),
    }))
    .where('id', '=', endpointId)
    .returningAll()
    .executeTakeFirst();
}

/** Disables the endpoint unless it already is; true only for the one call that disabled it. */
export async function disableFailingEndpoint(
  db: DbOrTransaction,
  endpointId: string,
  reason: string,
  now: string,
): Promise<boolean> {
  const disabled = await db
    .updateTable('webhook_endpoints')
    .set({
      disabled_at: now,
      disabled_reason: reason,
      updated_at: now,
    })
    .where('id', '=', endpointId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return Number(disabled.numUpdatedRows) !== 0;
}

/** Who is told that an endpoint was disabled, with their preferences (the mail's language). */
export const listActiveAdminEmails = (db: DbOrTransaction) =>
  db
    .selectFrom('users')
    .select(['email', 'preferences'])
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .execute();
