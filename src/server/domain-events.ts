import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../shared/api/webhooks.js';
import type { Clock } from './platform/clock.js';
import { createEventBus, type EventBus } from './platform/events.js';
import type { BillingEvent, SubscriptionNotice } from './billing/events.js';
import type { IdentityEvent } from './identity/events.js';
import type { LicensingEvent, OwnershipTransferredEvent } from './licensing/events.js';
import {
  activationEventData,
  allowanceEventData,
  floatingEventData,
  licenseEventData,
  organisationEventData,
  overageEventData,
  packEventData,
  paymentEventData,
  subscriptionEventData,
} from './integrations/webhooks/event-data.js';
import { queueWebhookEvent } from './integrations/webhooks/queue.js';

/** The events integrators hear: each the webhook of the same name. */
type WebhookEvent = LicensingEvent | BillingEvent;

/** Every event a context announces: to integrators, or to the contexts above it only. */
export type DomainEvent = WebhookEvent | OwnershipTransferredEvent | SubscriptionNotice | IdentityEvent;

// Each announced webhook event is the webhook of the same name: such an event without its webhook,
// or a webhook nobody announces, fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyWebhookAnnounced: Same<WebhookEvent['type'], WebhookEventType> = true;
void everyWebhookAnnounced;

/** The webhook's `data`, made of the rows the event is about. */
function webhookData(event: WebhookEvent): Record<string, unknown> {
  if ('allowance' in event) return allowanceEventData(event.license, event.allowance);
  if ('overage' in event) return overageEventData(event.license, event.overage);
  if ('pack' in event) return packEventData(event.license, event.pack);
  if ('floating' in event) return floatingEventData(event.license, event.floating);
  if ('machines' in event) return { ...licenseEventData(event.license), machines: event.machines };
  if ('license' in event) return licenseEventData(event.license);
  if ('activation' in event) return activationEventData(event.activation, event.userId);
  if ('organisation' in event) return organisationEventData(event.organisation, event.details);
  if ('payment' in event)
    return paymentEventData(event.payment, event.type === 'payment.refunded' ? event.details : undefined);
  return subscriptionEventData(event.subscription);
}

/**
 * The app's events, with the outgoing webhooks listening: each event is queued as the webhook of
 * the same name, in the transaction of the change that announced it.
 */
export function createDomainEvents(clock: Clock): EventBus<DomainEvent> {
  const events = createEventBus<DomainEvent>();
  for (const type of WEBHOOK_EVENT_TYPES)
    events.on(type, async (trx, event) => {
      await queueWebhookEvent(trx, clock, { type: event.type, data: webhookData(event) });
    });
  return events;
}
