import type { Prune } from '../../platform/maintenance.js';
import { expireHeldDeliveries } from './held-deliveries.js';
import { pruneWebhookHistory, WEBHOOK_HISTORY_DAYS } from './repository.js';

/**
 * The webhooks' rows that maintenance deletes, by name: deliveries held too long for a disabled
 * endpoint, and events (with their deliveries and attempts) older than the history kept.
 */
export const webhookPrunes = {
  heldDeliveries: (db, clock) => expireHeldDeliveries(db, clock.now()),
  history: (db, clock) =>
    pruneWebhookHistory(
      db,
      new Date(clock.now().getTime() - WEBHOOK_HISTORY_DAYS * 86_400_000).toISOString(),
    ),
} satisfies Record<string, Prune>;
