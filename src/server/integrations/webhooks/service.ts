import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Paged } from '../../../shared/api/paging.js';
import {
  type CreateWebhookEndpointBody,
  type UpdateWebhookEndpointBody,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type webhookDeliveryListQuerySchema,
  type WebhookEndpoint,
  type webhookEndpointListQuerySchema,
  type WebhookEndpointWithSecret,
  type WebhookEventTypeList,
} from '../../../shared/api/webhooks.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { WebhookAttemptRow, WebhookEndpointRow } from '../../platform/db/tables-webhooks.js';
import { badRequest, conflict, notFound } from '../../platform/http-error.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../../platform/security-log/service.js';
import { type AddressPolicy, checkEndpointUrl, EndpointUrlRefused } from './address-guard.js';
import { expireHeldDeliveries, releaseHeldDeliveries } from './held-deliveries.js';
import { webhookPayload } from './queue.js';
import {
  attemptsOf,
  deleteEndpoint,
  type DeliveryWithType,
  findDelivery,
  findEndpoint,
  findEvent,
  insertDelivery,
  insertEndpoint,
  insertEvent,
  listDeliveries,
  listEndpoints,
  updateEndpoint,
} from './repository.js';
import { newMessageId, newWebhookSecret } from './signing.js';

/** How long the secret before a rotation keeps signing, so receivers can switch over without losing any. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3_600_000;

const endpointNotFound = () => notFound('webhook_endpoint_not_found', 'Webhook endpoint not found');
const deliveryNotFound = () => notFound('webhook_delivery_not_found', 'Webhook delivery not found');

export const toWebhookEndpoint = (row: WebhookEndpointRow, now: Date): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  event_types: JSON.parse(row.event_types) as string[],
  enabled: row.disabled_at === null,
  disabled_at: row.disabled_at,
  disabled_reason: row.disabled_reason,
  consecutive_failures: Number(row.consecutive_failures),
  failing_since: row.failing_since,
  previous_secret_expires_at:
    row.previous_secret_expires_at && row.previous_secret_expires_at > now.toISOString()
      ? row.previous_secret_expires_at
      : null,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const toDelivery = (row: DeliveryWithType): WebhookDelivery => ({
  id: row.id,
  endpoint_id: row.endpoint_id,
  event_id: row.event_id,
  event_type: row.event_type,
  redelivery_of: row.redelivery_of,
  status: row.status,
  attempts: Number(row.attempts),
  next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
  last_status_code: row.last_status_code === null ? null : Number(row.last_status_code),
  last_error: row.last_error,
  created_at: row.created_at,
  completed_at: row.completed_at,
});

const toAttempt = (row: WebhookAttemptRow): WebhookAttempt => ({
  attempt: Number(row.attempt),
  url: row.url,
  started_at: row.started_at,
  duration_ms: Number(row.duration_ms),
  request_headers: JSON.parse(row.request_headers) as Record<string, string>,
  request_body: row.request_body,
  response_status: row.response_status === null ? null : Number(row.response_status),
  response_headers: row.response_headers
    ? (JSON.parse(row.response_headers) as Record<string, string>)
    : null,
  response_body: row.response_body,
  error: row.error,
  next_attempt_at: row.next_attempt_at,
});

/** The administrators' management of webhook endpoints, their delivery log and redeliveries. */
export function createWebhooksService(deps: {
  db: Db;
  clock: Clock;
  policy: AddressPolicy;
  /** Tells the delivery worker that something is due now. */
  wake: () => void;
}) {
  const { db, clock, policy } = deps;

  async function checkedUrl(raw: string): Promise<string> {
    try {
      return (await checkEndpointUrl(raw, policy)).toString();
    } catch (error) {
      if (error instanceof EndpointUrlRefused) throw badRequest(error.code, error.message);
      throw error;
    }
  }

  async function endpoint(id: string): Promise<WebhookEndpointRow> {
    const row = await findEndpoint(db, id);
    if (!row) throw endpointNotFound();
    return row;
  }

  return {
    eventTypes: (): WebhookEventTypeList => ({
      data: WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENT_DESCRIPTIONS[type] })),
    }),

    async list(query: z.output<typeof webhookEndpointListQuerySchema>): Promise<Paged<WebhookEndpoint>> {
      const page = await listEndpoints(db, query);
      const now = clock.now();
      return { ...page, data: page.data.map((row) => toWebhookEndpoint(row, now)) };
    },

    get: async (id: string) => toWebhookEndpoint(await endpoint(id), clock.now()),

    /** Registers an endpoint and answers its signing secret, which is shown this once. */
    async create(
      actor: AdminActor,
      body: CreateWebhookEndpointBody & { event_types: string[] },
    ): Promise<WebhookEndpointWithSecret> {
      const url = await checkedUrl(body.url);
      const now = clock.now().toISOString();
      const row: WebhookEndpointRow = {
        id: randomUUID(),
        url,
        description: body.description ?? '',
        event_types: JSON.stringify(body.event_types),
        secret: newWebhookSecret(),
        previous_secret: null,
        previous_secret_expires_at: null,
        disabled_at: null,
        disabled_reason: null,
        consecutive_failures: 0,
        failing_since: null,
        created_by: actor.id,
        created_at: now,
        updated_at: now,
      };
      await db.transaction().execute(async (trx) => {
        await insertEndpoint(trx, row);
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.webhookEndpointCreated,
          severity: 'warning',
          userId: null,
          details: { endpoint_id: row.id, url, event_types: body.event_types },
        });
      });
      return { ...toWebhookEndpoint(row, clock.now()), secret: row.secret };
    },

    /** Changes the URL, description or events, or enables (clearing its failures) or disables it. */
    async update(
      actor: AdminActor,
      id: string,
      body: UpdateWebhookEndpointBody & { event_types?: string[] },
    ): Promise<WebhookEndpoint> {
      const current = await endpoint(id);
      const url = body.url === undefined ? undefined : await checkedUrl(body.url);
      const now = clock.now().toISOString();
      const set: Partial<WebhookEndpointRow> = {};
      if (url !== undefined && url !== current.url) set.url = url;
      if (body.description !== undefined && body.description !== current.description)
        set.description = body.description;
      if (body.event_types !== undefined) {
        const types = JSON.stringify(body.event_types);
        if (types !== current.event_types) set.event_types = types;
      }
      if (body.enabled === true && current.disabled_at !== null)
        Object.assign(set, {
          disabled_at: null,
          disabled_reason: null,
          consecutive_failures: 0,
          failing_since: null,
        });
      if (body.enabled === false && current.disabled_at === null)
        Object.assign(set, { disabled_at: now, disabled_reason: 'Disabled by an administrator' });
      const enabling = body.enabled === true && current.disabled_at !== null;
      if (Object.keys(set).length > 0) {
        await db.transaction().execute(async (trx) => {
          if (enabling) {
            // What waited too long is given up; the rest is due now, to go out oldest first.
            await expireHeldDeliveries(trx, clock.now(), id);
            await releaseHeldDeliveries(trx, id, clock.now());
          }
          await updateEndpoint(trx, id, { ...set, updated_at: now });
          await recordAdminAction(trx, clock, actor, {
            type: securityEventTypes.webhookEndpointUpdated,
            severity: set.url ? 'warning' : 'info',
            userId: null,
            details: {
              endpoint_id: id,
              changes: Object.fromEntries(
                Object.keys(set).map((field) => [
                  field,
                  {
                    from: current[field as keyof WebhookEndpointRow],
                    to: set[field as keyof WebhookEndpointRow],
                  },
                ]),
              ),
            },
          });
        });
        // Deliveries held back while it was disabled go out now.
        if (enabling) deps.wake();
      }
      return toWebhookEndpoint(await endpoint(id), clock.now());
    },

    /** Deletes an endpoint with its delivery log. */
    async remove(actor: AdminActor, id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const current = await findEndpoint(trx, id);
        if (!current || !(await deleteEndpoint(trx, id))) throw endpointNotFound();
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.webhookEndpointDeleted,
          severity: 'warning',
          userId: null,
          details: { endpoint_id: id, url: current.url },
        });
      });
    },

    /**
     * A new signing secret, answered this once. The one it replaces signs too for another
     * {@link PREVIOUS_SECRET_VALID_MS}, so receivers verify throughout the switch.
     */
    async rotateSecret(actor: AdminActor, id: string): Promise<WebhookEndpointWithSecret> {
      const current = await endpoint(id);
      const now = clock.now();
      const secret = newWebhookSecret();
      const previousExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS).toISOString();
      await db.transaction().execute(async (trx) => {
        await updateEndpoint(trx, id, {
          secret,
          previous_secret: current.secret,
          previous_secret_expires_at: previousExpiresAt,
          updated_at: now.toISOString(),
        });
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.webhookSecretRotated,
          severity: 'warning',
          userId: null,
          details: { endpoint_id: id, previous_secret_valid_until: previousExpiresAt },
        });
      });
      return { ...toWebhookEndpoint(await endpoint(id), clock.now()), secret };
    },

    async deliveries(
      endpointId: string,
      query: z.output<typeof webhookDeliveryListQuerySchema>,
    ): Promise<Paged<WebhookDelivery>> {
      await endpoint(endpointId);
      const page = await listDeliveries(db, endpointId, query);
      return { ...page, data: page.data.map(toDelivery) };
    },

    async delivery(id: string): Promise<WebhookDeliveryDetail> {
      const row = await findDelivery(db, id);
      if (!row) throw deliveryNotFound();
      const [event, attempts] = await Promise.all([findEvent(db, row.event_id), attemptsOf(db, id)]);
      return { ...toDelivery(row), payload: event?.payload ?? '', attempt_log: attempts.map(toAttempt) };
    },

    /**
     * Sends a delivery's event again as a new delivery with the same message id (`webhook-id`),
     * so a receiver that already handled it can tell and drop it.
     */
    async redeliver(actor: AdminActor, deliveryId: string): Promise<WebhookDeliveryDetail> {
      const original = await findDelivery(db, deliveryId);
      if (!original) throw deliveryNotFound();
      const target = await endpoint(original.endpoint_id);
      if (target.disabled_at !== null)
        throw conflict(
          'webhook_endpoint_disabled',
          'This endpoint is disabled: enable it before sending again',
        );
      const id = await db.transaction().execute(async (trx) => {
        const created = await insertDelivery(trx, {
          endpointId: original.endpoint_id,
          eventId: original.event_id,
          now: clock.now().toISOString(),
          redeliveryOf: original.id,
        });
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.webhookRedelivered,
          severity: 'info',
          userId: null,
          details: {
            endpoint_id: original.endpoint_id,
            delivery_id: original.id,
            event_id: original.event_id,
          },
        });
        return created;
      });
      deps.wake();
      return this.delivery(id);
    },

    /** Delivers a `webhook.test` event to this one endpoint, to try the receiving side. */
    async sendTest(actor: AdminActor, endpointId: string): Promise<WebhookDeliveryDetail> {
      const target = await endpoint(endpointId);
      if (target.disabled_at !== null)
        throw conflict(
          'webhook_endpoint_disabled',
          'This endpoint is disabled: enable it before sending to it',
        );
      const now = clock.now();
      const eventId = newMessageId();
      const id = await db.transaction().execute(async (trx) => {
        await insertEvent(trx, {
          id: eventId,
          type: WEBHOOK_TEST_EVENT_TYPE,
          payload: webhookPayload(WEBHOOK_TEST_EVENT_TYPE, now, {
            endpoint_id: endpointId,
            message: 'A test event sent from the portal by an administrator.',
            sent_by: actor.id,
          }),
          created_at: now.toISOString(),
        });
        return insertDelivery(trx, { endpointId, eventId, now: now.toISOString() });
      });
      deps.wake();
      return this.delivery(id);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
