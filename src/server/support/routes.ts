import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminSupportRequestListQuerySchema,
  adminSupportRequestListSchema,
  adminSupportRequestSchema,
  supportRequestBodySchema,
  supportRequestHandledBodySchema,
  supportRequestListQuerySchema,
  supportRequestListSchema,
  supportRequestReceiptSchema,
} from '../../shared/api/support.js';
import { apiPaths } from '../../shared/api-paths.js';
import { currentUser } from '../identity/index.js';
import { bearerSecurity, errorResponses } from '../platform/http/openapi-helpers.js';
import type { SupportService } from './service.js';

const tags = ['support'];

/** Requests one account may send in an hour: enough for follow-ups, too few to flood the support inbox. */
export const SUPPORT_REQUESTS_PER_HOUR = 10;

/**
 * A signed-in customer writes to support and sees their own requests; administrators read them all
 * and mark them handled.
 */
export const supportRoutes: FastifyPluginAsyncZod<{ support: SupportService }> = async (app, { support }) => {
  app.post(
    apiPaths.support.requests,
    {
      onRequest: app.requireUser,
      config: {
        // Counted per account, after the sign-in check (so per user, not per shared address).
        rateLimit: {
          max: SUPPORT_REQUESTS_PER_HOUR,
          timeWindow: '1 hour',
          hook: 'preHandler',
          keyGenerator: (request) => `support:${currentUser(request).user.id}`,
        },
      },
      schema: {
        operationId: 'createSupportRequest',
        tags,
        summary: 'Send a support request: stored, and mailed to support with Reply-To your address',
        description:
          'Answers the reference to quote and the address replies go to. `diagnostics` (the app and ' +
          'account information) is sent only when given; send it only when the customer agreed. ' +
          `At most ${SUPPORT_REQUESTS_PER_HOUR} requests an hour per account (429).`,
        security: bearerSecurity,
        body: supportRequestBodySchema,
        response: { 201: supportRequestReceiptSchema, ...errorResponses(400, 401, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await support.send(currentUser(request).user, request.body)),
  );

  app.get(
    apiPaths.support.requests,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'listSupportRequests',
        tags,
        summary: 'Your own support requests, newest first (paged), each open or handled',
        description: 'Only the caller’s own requests. `search` matches the reference or the subject.',
        security: bearerSecurity,
        querystring: supportRequestListQuerySchema,
        response: { 200: supportRequestListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => support.listOwn(currentUser(request).user, request.query),
  );

  app.get(
    apiPaths.adminSupport.list,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListSupportRequests',
        tags,
        summary: 'Support requests, newest first (paged), open or handled ones when asked',
        description: '`search` matches the reference, the customer’s address or the subject.',
        security: bearerSecurity,
        querystring: adminSupportRequestListQuerySchema,
        response: { 200: adminSupportRequestListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => support.admin.list(request.query),
  );

  app.put(
    apiPaths.adminSupport.handled,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminSetSupportRequestHandled',
        tags,
        summary: 'Mark a support request handled, or open again',
        security: bearerSecurity,
        params: z.object({ id: z.string().trim().min(1).max(64) }),
        body: supportRequestHandledBodySchema,
        response: { 200: adminSupportRequestSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) =>
      support.admin.setHandled(currentUser(request).user.id, request.params.id, request.body.handled),
  );
};
