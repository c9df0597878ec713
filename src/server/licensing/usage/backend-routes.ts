import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema as params } from '../../../shared/api/common.js';
import { licenseUsageSchema, usageQuerySchema } from '../../../shared/api/licenses.js';
import {
  backendUsageBatchRequestSchema,
  backendUsageBatchResponseSchema,
  MAX_USAGE_BATCH,
} from '../../../shared/api/usage.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { BackendUsageService } from './backend-usage.js';

const tags = ['usage'];
const paths = apiPaths.usage;

/**
 * `/usage`: the vendor's AI backend reporting and reading metered use of any license, with a
 * platform token carrying `usage:write` or `usage:read` (administrators only).
 */
export const backendUsageRoutes: FastifyPluginAsyncZod<{ usage: BackendUsageService }> = async (
  app,
  { usage },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.post(
    paths.events,
    {
      schema: {
        operationId: 'reportUsageEvents',
        tags,
        summary: 'Report a batch of usage events of any licenses (the vendor’s AI backend)',
        description:
          `At most ${MAX_USAGE_BATCH} events, each naming its license. Counted as the desktop’s ` +
          'batches are: each event id once per license, in the period it happened, never past the ' +
          'feature’s ceiling; an event of an unknown or inactive license is refused, the rest count.',
        security: bearerSecurity,
        body: backendUsageBatchRequestSchema,
        response: { 200: backendUsageBatchResponseSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => usage.report(request.body.events),
  );

  app.get(
    paths.license,
    {
      schema: {
        operationId: 'getUsageOfLicense',
        tags,
        summary: 'A license’s use this period per feature, and per day over the last `days`',
        security: bearerSecurity,
        params,
        querystring: usageQuerySchema,
        response: { 200: licenseUsageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => usage.usage(request.params.id, request.query.days),
  );
};
