import type { FastifyBaseLogger } from 'fastify';
import type { WebhookEvent } from '../../../shared/api/payments.js';
import { webhookEventSchema } from '../../../shared/api/payments.js';
import type { Clock } from '../../platform/clock.js';
import { sha256 } from '../../platform/crypto.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentWebhookEventsTable } from '../../platform/db/tables.js';
import { badRequest } from '../../platform/http-error.js';
import { refuseNulCharacters } from '../../platform/nul-characters.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { createEventThrottle, recordSecurityEvent } from '../../platform/security-log/service.js';
import type { Settlement } from '../settlement/settle.js';
import type { SubscriptionWebhookEvents } from '../subscriptions/webhook-events.js';
import type { PaymentProvider } from './provider.js';
import {
  findPaymentByOrderId,
  insertWebhookEvent,
  markPaymentFailed,
  setWebhookOutcome,
} from './repository.js';

export type WebhookOutcome = 'processed' | 'ignored' | 'rejected' | 'duplicate';

export interface WebhookDelivery {
  rawBody: Buffer;
  signature: string | undefined;
  eventId: string | undefined;
  meta: RequestMeta;
}

/** Refused deliveries from one address leave at most one security event per this many milliseconds. */
const REFUSAL_EVENT_INTERVAL_MS = 60_000;
/** Addresses remembered for that; past it, the oldest are forgotten first. */
const REFUSAL_ADDRESSES_KEPT = 10_000;

/** Event ids longer than this are not Razorpay's; the body's hash identifies such a delivery instead. */
const MAX_EVENT_ID_LENGTH = 100;

type Handled = { outcome: Exclude<WebhookOutcome, 'duplicate'>; paymentId: string | null };

/**
 * Razorpay webhooks: signature over the raw body, then exactly-once handling by event id.
 * Anything signed but not applicable answers 2xx (Razorpay retries the rest for a day).
 */
export function createWebhookHandler({
  db,
  clock,
  settlement,
  provider,
  subscriptionEvents,
  log,
}: {
  db: Db;
  clock: Clock;
  /** Billing's one settle: a captured order's payment goes through it. */
  settlement: Settlement;
  provider: PaymentProvider;
  /** The `subscription.*` events' handler (the subscriptions module's). */
  subscriptionEvents?: SubscriptionWebhookEvents;
  log: FastifyBaseLogger;
}) {
  // The webhook needs no API key, so anyone may post to it: a flood of unsigned posts must not
  // become a flood of security events. The log keeps the first refusal per address and minute.
  const shouldRecordRefusal = createEventThrottle(clock, {
    intervalMs: REFUSAL_EVENT_INTERVAL_MS,
    keysKept: REFUSAL_ADDRESSES_KEPT,
  });

  async function refuseSignature(delivery: WebhookDelivery, reason: string): Promise<never> {
    if (shouldRecordRefusal(delivery.meta.ip))
      await recordSecurityEvent(db, clock, {
        type: securityEventTypes.webhookSignatureFailed,
        severity: delivery.signature === undefined ? 'warning' : 'critical',
        meta: delivery.meta,
        details: {
          provider: provider.name,
          reason,
          event_id: delivery.eventId?.slice(0, MAX_EVENT_ID_LENGTH) ?? null,
          body_sha256: sha256(delivery.rawBody.toString('latin1')),
        },
      });
    throw badRequest('invalid_signature', `Webhook refused: ${reason}`);
  }

  /** Refuses a signed event for an order (no grant), leaving a critical security event with the reason. */
  async function rejectEvent(
    trx: DbOrTransaction,
    event: WebhookEvent,
    payment: { id: string; user_id: string | null },
    meta: RequestMeta,
    reason: string,
    details: Record<string, unknown>,
  ): Promise<Handled> {
    await recordSecurityEvent(trx, clock, {
      type: securityEventTypes.paymentWebhookRejected,
      severity: 'critical',
      userId: payment.user_id,
      meta,
      details: { reason, event: event.event, payment_id: payment.id, ...details },
    });
    return { outcome: 'rejected', paymentId: payment.id };
  }

  async function captured(trx: DbOrTransaction, event: WebhookEvent, meta: RequestMeta): Promise<Handled> {
    const entity = event.payload.payment?.entity;
    const orderEntity = event.payload.order?.entity;
    const orderId = orderEntity?.id ?? entity?.order_id;
    if (!entity || !orderId) {
      log.warn({ event: event.event }, 'payment webhook without a payment or order; ignored');
      return { outcome: 'ignored', paymentId: null };
    }
    const payment = await findPaymentByOrderId(trx, orderId);
    if (!payment) {
      // A subscription's charge (Razorpay bills it through an invoice): its `subscription.charged`
      // report, which says which period it pays, settles it.
      if (typeof entity['invoice_id'] === 'string') return { outcome: 'ignored', paymentId: null };
      log.warn(
        { event: event.event, orderId },
        'payment webhook for an order this server did not open; ignored',
      );
      return { outcome: 'ignored', paymentId: null };
    }
    const reports = [entity, ...(orderEntity ? [orderEntity] : [])];
    const mismatch = reports.find(
      (report) => report.amount !== Number(payment.amount_minor) || report.currency !== payment.currency,
    );
    // The amount and currency the provider reports must be the order's, or nothing is granted.
    if (mismatch) {
      return rejectEvent(trx, event, payment, meta, 'amount_or_currency_mismatch', {
        expected: { amount: Number(payment.amount_minor), currency: payment.currency },
        reported: { amount: mismatch.amount, currency: mismatch.currency },
      });
    }
    const settled = await settlement.settle(trx, {
      kind: 'order',
      paymentId: payment.id,
      providerPaymentId: entity.id,
    });
    if (settled.outcome === 'paid_by_other') {
      // A second capture on one order means the buyer paid twice: someone has to refund it.
      return rejectEvent(trx, event, payment, meta, 'order_already_paid_by_another_payment', {
        paid_by: settled.payment.provider_payment_id,
        reported_payment: entity.id,
      });
    }
    return { outcome: 'processed', paymentId: payment.id };
  }

  async function failed(trx: DbOrTransaction, event: WebhookEvent): Promise<Handled> {
    const entity = event.payload.payment?.entity;
    const payment = entity?.order_id ? await findPaymentByOrderId(trx, entity.order_id) : undefined;
    // A subscription's failed charge: its `subscription.pending` report starts the grace period.
    if (entity && !payment && typeof entity['invoice_id'] === 'string')
      return { outcome: 'ignored', paymentId: null };
    if (!entity || !payment) {
      log.warn({ event: event.event }, 'payment.failed for an order this server did not open; ignored');
      return { outcome: 'ignored', paymentId: null };
    }
    await markPaymentFailed(trx, payment.id, {
      providerPaymentId: entity.id,
      reason: entity.error_description ?? entity.error_reason ?? 'The payment failed',
      at: clock.now().toISOString(),
    });
    return { outcome: 'processed', paymentId: payment.id };
  }

  async function apply(trx: DbOrTransaction, event: WebhookEvent, meta: RequestMeta): Promise<Handled> {
    switch (event.event) {
      case 'payment.captured':
      case 'order.paid':
        return captured(trx, event, meta);
      case 'payment.failed':
        return failed(trx, event);
      default:
        // A subscription's charges come as subscription.charged (their payment.captured names an
        // order this server did not open, and is ignored above).
        if (event.event.startsWith('subscription.') && subscriptionEvents)
          return subscriptionEvents(trx, event, meta);
        return { outcome: 'ignored', paymentId: null };
    }
  }

  return async function handle(delivery: WebhookDelivery): Promise<WebhookOutcome> {
    if (!provider.acceptsWebhooks) {
      log.error('a Razorpay webhook arrived but RAZORPAY_WEBHOOK_SECRET is not set; refused');
      return refuseSignature(delivery, 'no webhook secret is configured on this server');
    }
    if (delivery.signature === undefined) return refuseSignature(delivery, 'X-Razorpay-Signature is missing');
    if (!provider.isWebhookSignatureValid(delivery.rawBody, delivery.signature)) {
      return refuseSignature(delivery, 'X-Razorpay-Signature does not match the body');
    }
    let body: unknown;
    let event: WebhookEvent;
    try {
      body = JSON.parse(delivery.rawBody.toString('utf8'));
      event = webhookEventSchema.parse(body);
    } catch {
      throw badRequest('invalid_webhook', 'The webhook body is not a Razorpay event');
    }
    // Kept raw past the central body rules, so checked here, before anything is written.
    refuseNulCharacters(body);
    const eventId =
      delivery.eventId && delivery.eventId.length <= MAX_EVENT_ID_LENGTH
        ? delivery.eventId
        : `sha256:${sha256(delivery.rawBody.toString('latin1'))}`;
    return db.transaction().execute(async (trx) => {
      // Taken first and committed with the effects: a concurrent redelivery waits here, then sees it.
      const row: PaymentWebhookEventsTable = {
        id: eventId,
        provider: provider.name,
        event_type: event.event.slice(0, 100),
        payment_id: null,
        outcome: 'received',
        received_at: clock.now().toISOString(),
      };
      if (!(await insertWebhookEvent(trx, row))) return 'duplicate';
      const handled = await apply(trx, event, delivery.meta);
      await setWebhookOutcome(trx, eventId, handled.outcome, handled.paymentId);
      return handled.outcome;
    });
  };
}

export type WebhookHandler = ReturnType<typeof createWebhookHandler>;
