import type { DbOrTransaction } from '../../platform/db/database.js';
import {
  countPendingDeliveries,
  failHeldDeliveriesCreatedBefore,
  failUnclaimedPendingDeliveries,
  makePendingDeliveriesDue,
  oldestPendingDeliveryIds,
} from './held-deliveries-repository.js';

// Events raised while an endpoint is disabled (by hand or after repeated failures) are queued for
// it all the same and held until it is enabled again, so an integrator loses nothing to an outage.
// The hold is bounded, so an endpoint left disabled cannot fill the database: both limits are
// stated in docs/webhooks.md (While an endpoint is disabled).

/** At most this many deliveries wait for one disabled endpoint; a newer one gives up the oldest. */
export const MAX_HELD_DELIVERIES_PER_ENDPOINT = 1000;

/** A delivery waits this long at most for its endpoint to be enabled again, then is given up. */
export const MAX_HELD_DELIVERY_AGE_DAYS = 7;

export const HELD_TOO_MANY_ERROR = `Not sent: more than ${MAX_HELD_DELIVERIES_PER_ENDPOINT} deliveries waited while the endpoint was disabled, and this was the oldest`;
export const HELD_TOO_LONG_ERROR = `Not sent: it waited more than ${MAX_HELD_DELIVERY_AGE_DAYS} days while the endpoint was disabled`;

/**
 * Gives up deliveries as failed (kept in the log, and an administrator may send them again once
 * the endpoint is enabled).
 */
async function giveUp(db: DbOrTransaction, ids: string[], reason: string, now: string): Promise<number> {
  if (ids.length === 0) return 0;
  return failUnclaimedPendingDeliveries(db, ids, reason, now);
}

/** Keeps the newest {@link MAX_HELD_DELIVERIES_PER_ENDPOINT} deliveries held for a disabled endpoint. */
export async function dropHeldOverflow(db: DbOrTransaction, endpointId: string, now: Date): Promise<number> {
  const excess = (await countPendingDeliveries(db, endpointId)) - MAX_HELD_DELIVERIES_PER_ENDPOINT;
  if (excess <= 0) return 0;
  const oldest = await oldestPendingDeliveryIds(db, endpointId, excess);
  return giveUp(db, oldest, HELD_TOO_MANY_ERROR, now.toISOString());
}

/**
 * Gives up deliveries held longer than {@link MAX_HELD_DELIVERY_AGE_DAYS} for disabled endpoints
 * (one, or every one): run by maintenance, and when an endpoint is enabled, before what waited is sent.
 */
export async function expireHeldDeliveries(
  db: DbOrTransaction,
  now: Date,
  endpointId?: string,
): Promise<number> {
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - MAX_HELD_DELIVERY_AGE_DAYS * 86_400_000).toISOString();
  return failHeldDeliveriesCreatedBefore(db, cutoff, HELD_TOO_LONG_ERROR, nowIso, endpointId);
}

/**
 * Makes everything that waited for an endpoint due now, retries included, so enabling it sends
 * what waited at once and oldest first (the worker takes them in order of creation).
 */
export async function releaseHeldDeliveries(
  db: DbOrTransaction,
  endpointId: string,
  now: Date,
): Promise<void> {
  await makePendingDeliveriesDue(db, endpointId, now.toISOString());
}
