import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardStatsSchema } from '../../shared/api/admin.js';
import { apiPaths } from '../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../platform/http/openapi-helpers.js';
import type { DashboardService } from './dashboard-service.js';

/** `GET /admin/dashboard`: system figures, administrators only. */
export const adminDashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    apiPaths.admin.dashboard,
    {
      schema: {
        operationId: 'adminGetDashboard',
        tags: ['admin'],
        summary: 'System figures: users, licenses, activations, revenue by period, recent security events',
        security: bearerSecurity,
        response: { 200: dashboardStatsSchema, ...errorResponses(401, 403) },
      },
    },
    async () => dashboard.stats(),
  );
};
