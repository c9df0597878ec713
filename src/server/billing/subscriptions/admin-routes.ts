import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminCancelSubscriptionRequestSchema,
  adminPauseSubscriptionRequestSchema,
  adminResumePauseRequestSchema,
  adminSubscriptionDetailSchema,
  adminSubscriptionListQuerySchema,
  adminSubscriptionListSchema,
} from '../../../shared/api/admin-subscriptions.js';
import { subscriptionIdParamsSchema as params } from '../../../shared/api/subscriptions.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import type { AdminSubscriptionsService } from './admin-service.js';

const tags = ['subscriptions', 'admin'];
const paths = apiPaths.adminSubscriptions;

/** `/admin/subscriptions`: every customer's subscriptions, their charges and invoices; administrators only. */
export const adminSubscriptionsRoutes: FastifyPluginAsyncZod<{
  adminSubscriptions: AdminSubscriptionsService;
}> = async (app, { adminSubscriptions }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    paths.list,
    {
      schema: {
        operationId: 'adminListSubscriptions',
        tags,
        summary: 'List subscriptions (paged; filter by status, plan, user and creation dates)',
        description:
          'search matches the customer’s e-mail or the subscription’s id (ours or the provider’s). ' +
          'Without a status filter, pending subscriptions (checkouts never paid) are left out.',
        security: bearerSecurity,
        querystring: adminSubscriptionListQuerySchema,
        response: { 200: adminSubscriptionListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => adminSubscriptions.list(request.query),
  );

  app.get(
    paths.detail,
    {
      schema: {
        operationId: 'adminGetSubscription',
        tags,
        summary: 'One subscription with its charges, invoices and credit notes',
        description: 'Refund a charge through POST /payments/admin/payments/{id}/refunds.',
        security: bearerSecurity,
        params,
        response: { 200: adminSubscriptionDetailSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => adminSubscriptions.detail(request.params.id),
  );

  app.post(
    paths.cancel,
    {
      schema: {
        operationId: 'adminCancelSubscription',
        tags,
        summary: 'Cancel a customer’s subscription at the end of its period or now, with a reason',
        description:
          'The same rules as the customer’s own cancellation: a past-due subscription ends now, the customer ' +
          'is mailed, and the license ends with it. Recorded in the security log with the reason.',
        security: bearerSecurity,
        params,
        body: adminCancelSubscriptionRequestSchema,
        response: {
          200: adminSubscriptionDetailSchema,
          ...errorResponses(400, 401, 403, 404, 409, 415, 502),
        },
      },
    },
    async (request) => adminSubscriptions.cancel(actorOf(request), request.params.id, request.body),
  );

  app.post(
    paths.pause,
    {
      schema: {
        operationId: 'adminPauseSubscription',
        tags,
        summary: 'Pause a customer’s subscription for 1 to 3 billing periods, with a reason',
        description:
          'The same rules as the customer’s own pause: it starts at the end of the paid period, the customer ' +
          'is mailed, and the license reads `paused` until it resumes. Recorded in the security log with the reason.',
        security: bearerSecurity,
        params,
        body: adminPauseSubscriptionRequestSchema,
        response: {
          200: adminSubscriptionDetailSchema,
          ...errorResponses(400, 401, 403, 404, 409, 415, 502),
        },
      },
    },
    async (request) => adminSubscriptions.pause(actorOf(request), request.params.id, request.body),
  );

  app.post(
    paths.unpause,
    {
      schema: {
        operationId: 'adminUnpauseSubscription',
        tags,
        summary: 'Resume a customer’s paused subscription now (or withdraw a planned pause), with a reason',
        description:
          'A paused subscription resumes now and its next period is charged at once; a planned pause is ' +
          'withdrawn. Refused (409 `subscription_not_paused`) when neither applies. Recorded in the security log.',
        security: bearerSecurity,
        params,
        body: adminResumePauseRequestSchema,
        response: {
          200: adminSubscriptionDetailSchema,
          ...errorResponses(400, 401, 403, 404, 409, 415, 502),
        },
      },
    },
    async (request) => adminSubscriptions.unpause(actorOf(request), request.params.id, request.body),
  );
};
