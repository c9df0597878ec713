import type { WebhookEventType } from '../../../shared/api/webhooks.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { dropHeldOverflow } from './held-deliveries.js';
import { insertDelivery, insertEvent, subscribableEndpoints } from './repository.js';
import { newMessageId } from './signing.js';

/** An event as the change that causes it describes it; `data` is the payload's `data`. */
export interface WebhookEventInput {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** The payload Standard Webhooks describes: `{ type, timestamp, data }`, as the exact text that is signed. */
export const webhookPayload = (type: string, timestamp: Date, data: Record<string, unknown>): string =>
  JSON.stringify({ type, timestamp: timestamp.toISOString(), data });

/**
 * Queues an event in the caller's transaction, like mail: it is delivered if and only if the
 * change that caused it commits. One delivery per endpoint subscribed to the type, a disabled
 * one included: its delivery is held until it is enabled again, within the bounds of
 * held-deliveries.ts. Nothing is written when no endpoint wants it. Answers the event's id (its
 * `webhook-id`), or null when nothing was queued.
 */
export async function queueWebhookEvent(
  trx: DbOrTransaction,
  clock: Clock,
  event: WebhookEventInput,
): Promise<string | null> {
  const endpoints = (await subscribableEndpoints(trx)).filter((endpoint) =>
    (JSON.parse(endpoint.event_types) as string[]).includes(event.type),
  );
  if (endpoints.length === 0) return null;
  const now = clock.now();
  const id = newMessageId();
  await insertEvent(trx, {
    id,
    type: event.type,
    payload: webhookPayload(event.type, now, event.data),
    created_at: now.toISOString(),
  });
  for (const endpoint of endpoints) {
    await insertDelivery(trx, { endpointId: endpoint.id, eventId: id, now: now.toISOString() });
    if (endpoint.disabled_at !== null) await dropHeldOverflow(trx, endpoint.id, now);
  }
  return id;
}
