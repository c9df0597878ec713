import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema as params } from '../../shared/api/common.js';
import { grantUsageRequestSchema, usageGrantSchema } from '../../shared/api/admin.js';
import { apiPaths } from '../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../platform/http/openapi-helpers.js';
import { actorOf } from '../platform/security-log/admin-actor.js';
import type { UsageGrants } from './usage-grants-service.js';

/** `/admin/licenses/{id}/usage/grants`: units granted to a license, administrators only. */
export const adminUsageGrantsRoutes: FastifyPluginAsyncZod<{ grants: UsageGrants }> = async (
  app,
  { grants },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.post(
    apiPaths.admin.usageGrants,
    {
      schema: {
        operationId: 'adminGrantUsageUnits',
        tags: ['admin'],
        summary: 'Grant units of a metered feature to a license, with a reason',
        description:
          'Writes a credit pack of the units: drawn once the period’s allowance is used, earliest expiry ' +
          'first, until it expires (`valid_months`, else USAGE_PACK_VALID_MONTHS). The reason is required ' +
          'and kept in the security log with the administrator, license and units. 404 `feature_not_found` ' +
          'for a feature the license’s plan lacks; 400 `feature_not_metered` for one not counted per period.',
        security: bearerSecurity,
        params,
        body: grantUsageRequestSchema,
        response: { 201: usageGrantSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await grants.grant(actorOf(request), request.params.id, request.body)),
  );
};
