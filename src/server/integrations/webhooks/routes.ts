import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noBodySchema, recordIdSchema } from '../../../shared/api/common.js';
import {
  createWebhookEndpointBodySchema,
  updateWebhookEndpointBodySchema,
  webhookDeliveryDetailSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookEndpointListQuerySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookEventTypeListSchema,
} from '../../../shared/api/webhooks.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import type { WebhooksService } from './service.js';

const tags = ['webhooks'];
const endpointParams = z.object({ endpointId: recordIdSchema });
const deliveryParams = z.object({ deliveryId: recordIdSchema });

const SIGNING =
  'Deliveries are signed as Standard Webhooks describe: `webhook-id` (the same on every attempt and ' +
  'redelivery of an event), `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with the ' +
  'endpoint’s `whsec_` secret; after a rotation the previous secret signs too for 24 hours).';

/** Administrators register webhook endpoints, read their delivery log and send deliveries again. */
export const webhooksRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (
  app,
  { webhooks },
) => {
  app.get(
    apiPaths.adminWebhooks.eventTypes,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'listWebhookEventTypes',
        tags,
        summary: 'The events an endpoint can subscribe to',
        security: bearerSecurity,
        response: { 200: webhookEventTypeListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => webhooks.eventTypes(),
  );

  app.get(
    apiPaths.adminWebhooks.endpoints,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'listWebhookEndpoints',
        tags,
        summary: 'Webhook endpoints, newest first (paged)',
        description: '`search` matches the URL or the description.',
        security: bearerSecurity,
        querystring: webhookEndpointListQuerySchema,
        response: { 200: webhookEndpointListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => webhooks.list(request.query),
  );

  app.post(
    apiPaths.adminWebhooks.endpoints,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'createWebhookEndpoint',
        tags,
        summary: 'Register a webhook endpoint; answers its signing secret, shown only this once',
        description:
          `${SIGNING} The URL must be https:// (http:// to loopback only outside production), and in ` +
          'production must not be or resolve to a private, loopback or link-local address (checked again ' +
          'at every delivery).',
        security: bearerSecurity,
        body: createWebhookEndpointBodySchema,
        response: { 201: webhookEndpointWithSecretSchema, ...errorResponses(400, 401, 403, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(actorOf(request), request.body)),
  );

  app.get(
    apiPaths.adminWebhooks.endpoint,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'getWebhookEndpoint',
        tags,
        summary: 'One webhook endpoint',
        security: bearerSecurity,
        params: endpointParams,
        response: { 200: webhookEndpointSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => webhooks.get(request.params.endpointId),
  );

  app.patch(
    apiPaths.adminWebhooks.endpoint,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'updateWebhookEndpoint',
        tags,
        summary: 'Change an endpoint’s URL, description or events, or enable or disable it',
        description:
          'Enabling an endpoint clears its failure count and sends what waited while it was disabled.',
        security: bearerSecurity,
        params: endpointParams,
        body: updateWebhookEndpointBodySchema,
        response: { 200: webhookEndpointSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) => webhooks.update(actorOf(request), request.params.endpointId, request.body),
  );

  app.delete(
    apiPaths.adminWebhooks.endpoint,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags,
        summary: 'Delete an endpoint and its delivery log',
        security: bearerSecurity,
        params: endpointParams,
        response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(actorOf(request), request.params.endpointId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    apiPaths.adminWebhooks.rotateSecret,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Give an endpoint a new signing secret; the previous one keeps signing for 24 hours',
        security: bearerSecurity,
        params: endpointParams,
        body: noBodySchema,
        response: { 200: webhookEndpointWithSecretSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) => webhooks.rotateSecret(actorOf(request), request.params.endpointId),
  );

  app.post(
    apiPaths.adminWebhooks.test,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'sendTestWebhook',
        tags,
        summary: 'Send a `webhook.test` event to this endpoint',
        security: bearerSecurity,
        params: endpointParams,
        body: noBodySchema,
        response: { 202: webhookDeliveryDetailSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.sendTest(actorOf(request), request.params.endpointId)),
  );

  app.get(
    apiPaths.adminWebhooks.deliveries,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'An endpoint’s deliveries, newest first (paged)',
        description:
          '`search` matches the event type or id; `status` keeps pending, succeeded or failed ones.',
        security: bearerSecurity,
        params: endpointParams,
        querystring: webhookDeliveryListQuerySchema,
        response: { 200: webhookDeliveryListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => webhooks.deliveries(request.params.endpointId, request.query),
  );

  app.get(
    apiPaths.adminWebhooks.delivery,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'getWebhookDelivery',
        tags,
        summary: 'One delivery with its payload and every attempt (request, response, timing)',
        security: bearerSecurity,
        params: deliveryParams,
        response: { 200: webhookDeliveryDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => webhooks.delivery(request.params.deliveryId),
  );

  app.post(
    apiPaths.adminWebhooks.redeliver,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'redeliverWebhook',
        tags,
        summary: 'Send a delivery’s event again, with the same webhook-id',
        description:
          'Queues a new delivery of the same message, so a receiver that handled it already can tell.',
        security: bearerSecurity,
        params: deliveryParams,
        body: noBodySchema,
        response: { 202: webhookDeliveryDetailSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.redeliver(actorOf(request), request.params.deliveryId)),
  );
};
