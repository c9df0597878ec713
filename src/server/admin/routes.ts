import type { FastifyPluginAsync } from 'fastify';
import type { DashboardService } from './dashboard-service.js';
import { adminDashboardRoutes } from './dashboard-routes.js';
import { adminLicensesRoutes } from './licenses-routes.js';
import type { AdminLicensesService } from './licenses-service.js';
import { adminUsageGrantsRoutes } from './usage-grants-routes.js';
import type { UsageGrants } from './usage-grants-service.js';
import { adminUsersRoutes } from './users-routes.js';
import type { AdminUsersService } from './users-service.js';

export interface AdminRoutesOptions {
  dashboard: DashboardService;
  users: AdminUsersService;
  licenses: AdminLicensesService;
  grants: UsageGrants;
}

/** The admin console's API (dashboard, users, licenses), each behind the admin guard. */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (
  app,
  { dashboard, users, licenses, grants },
) => {
  await app.register(adminDashboardRoutes, { dashboard });
  await app.register(adminUsersRoutes, { users });
  await app.register(adminLicensesRoutes, { licenses });
  await app.register(adminUsageGrantsRoutes, { grants });
};
