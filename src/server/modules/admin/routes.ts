import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { PasswordHasher } from '../auth/password-hasher.js';
import { createDashboard } from './dashboard.js';
import { adminDashboardRoutes } from './dashboard-routes.js';
import { adminLicensesRoutes } from './licenses-routes.js';
import { createAdminLicensesService } from './licenses-service.js';
import { adminSecurityEventsRoutes } from './security-events-routes.js';
import { adminUsersRoutes } from './users-routes.js';
import { createAdminUsersService } from './users-service.js';

/** The admin API (dashboard, users, licenses, security events), each behind the admin guard. */
export const adminRoutes: FastifyPluginAsync<{ db: Db; clock: Clock; passwords: PasswordHasher }> = async (
  app,
  { db, clock, passwords },
) => {
  await app.register(adminDashboardRoutes, { dashboard: createDashboard({ db, clock }) });
  await app.register(adminUsersRoutes, { users: createAdminUsersService({ db, clock, passwords }) });
  await app.register(adminLicensesRoutes, { licenses: createAdminLicensesService({ db, clock }) });
  await app.register(adminSecurityEventsRoutes, { db });
};
