import type { Prune } from '../../platform/maintenance.js';
import { expireHeldDeliveries } from './held-deliveries.js';
import { pruneWebhookHistory } from './repository.js';

/**
 * The webhooks' rows that maintenance deletes, by name: deliveries held too long for a disabled
 * endpoint, and events (with their deliveries and attempts) older than the `historyDays` kept
 * (RETENTION_WEBHOOK_DAYS, 30: long enough to look into last month's problems).
 */
export const webhookPrunes = (historyDays: number) =>
  ({
    heldDeliveries: (db, clock) => expireHeldDeliveries(db, clock.now()),
    history: (db, clock) =>
      pruneWebhookHistory(db, new Date(clock.now().getTime() - historyDays * 86_400_000).toISOString()),
  }) satisfies Record<string, Prune>;
