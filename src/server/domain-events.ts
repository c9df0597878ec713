import type { Clock } from './platform/clock.js';
import { createEventBus, type EventBus } from './platform/events.js';
import type { BillingEvent } from './billing/events.js';
import type { LicensingEvent } from './licensing/events.js';
import {
  activationEventData,
  licenseEventData,
  organisationEventData,
  paymentEventData,
  subscriptionEventData,
} from './integrations/webhooks/event-data.js';
import { queueWebhookEvent } from './integrations/webhooks/queue.js';

/** Every event a context announces. */
export type DomainEvent = LicensingEvent | BillingEvent;

/**
 * The app's events, with the outgoing webhooks listening: each event is queued as the webhook of
 * the same name, in the transaction of the change that announced it.
 */
export function createDomainEvents(clock: Clock): EventBus<DomainEvent> {
  const events = createEventBus<DomainEvent>();
  const licenseTypes = [
    'license.created',
    'license.updated',
    'license.suspended',
    'license.revoked',
    'license.expired',
  ] as const;
  for (const type of licenseTypes)
    events.on(type, async (trx, event) => {
      await queueWebhookEvent(trx, clock, { type: event.type, data: licenseEventData(event.license) });
    });
  for (const type of ['activation.created', 'activation.deleted'] as const)
    events.on(type, async (trx, event) => {
      await queueWebhookEvent(trx, clock, {
        type: event.type,
        data: activationEventData(event.activation, event.userId),
      });
    });
  const organisationTypes = [
    'organisation.created',
    'organisation.updated',
    'organisation.member_joined',
    'organisation.member_removed',
    'organisation.seats_changed',
  ] as const;
  for (const type of organisationTypes)
    events.on(type, async (trx, event) => {
      await queueWebhookEvent(trx, clock, {
        type: event.type,
        data: organisationEventData(event.organisation, event.details),
      });
    });
  for (const type of ['payment.paid', 'payment.refunded'] as const)
    events.on(type, async (trx, event) => {
      await queueWebhookEvent(trx, clock, {
        type: event.type,
        data: paymentEventData(event.payment, event.details),
      });
    });
  const subscriptionTypes = [
    'subscription.created',
    'subscription.renewed',
    'subscription.past_due',
    'subscription.cancelled',
  ] as const;
  for (const type of subscriptionTypes)
    events.on(type, async (trx, event) => {
      await queueWebhookEvent(trx, clock, {
        type: event.type,
        data: subscriptionEventData(event.subscription),
      });
    });
  return events;
}
