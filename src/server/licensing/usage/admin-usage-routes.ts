import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminUsageListSchema, adminUsageQuerySchema } from '../../../shared/api/admin-usage.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { AdminUsageService } from './admin-usage.js';

const tags = ['usage', 'admin'];

/** Administrators see metered use per customer and feature, top consumers first. */
export const adminUsageRoutes: FastifyPluginAsyncZod<{ adminUsage: AdminUsageService }> = async (
  app,
  { adminUsage },
) => {
  app.get(
    apiPaths.adminUsage.list,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListUsage',
        tags,
        summary: 'Metered use per license and feature this month or the last (paged), heaviest first',
        description:
          'Read from the usage counters. `over_allowance` counts each period on its own (a daily feature’s ' +
          'days); `overage_accrued_minor` prices it at the plan’s overage price, as the renewal would. ' +
          '`search` matches the holder’s e-mail, the organization’s name or the license id; `sort` is ' +
          '`-used` unless given.',
        security: bearerSecurity,
        querystring: adminUsageQuerySchema,
        response: { 200: adminUsageListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => adminUsage.list(request.query),
  );
};
