import fp from 'fastify-plugin';
import type { LicensingEvent, LicensingEvents } from '../licensing/index.js';
import type { EventSubscriber } from '../platform/events.js';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import { adminSecurityEventsRoutes } from '../platform/security-log/routes.js';
import { createSecurityEventsService } from '../platform/security-log/service.js';
import { createDashboardService } from './dashboard-service.js';
import { createAdminLicensesService } from './licenses-service.js';
import { createRevokedLicenseMail } from './revoked-license-mail.js';
import { adminRoutes } from './routes.js';
import { createUsageGrants } from './usage-grants-service.js';
import { createAdminUsersService } from './users-service.js';

export interface AdminOptions {
  /**
   * Where an administrator's changes to licenses are announced (the composition's bus), and where
   * admin hears its own revocations for the owner's mail.
   */
  events: LicensingEvents & EventSubscriber<LicensingEvent>;
}

/** The operator's API: the dashboard, users, licenses and the security log. */
export const adminContext = fp<AdminOptions>(
  async (app, { events }) => {
    const { config, clock, db } = app.platform;
    const { mailer } = app;
    // The owner hears of an administrator's revocation in its transaction, after its webhook is queued.
    events.on('license.revoked', createRevokedLicenseMail({ mailer, publicUrl: config.publicUrl }));
    await registerApiRoutes(app, async (api) => {
      await api.register(adminRoutes, {
        dashboard: createDashboardService({ db, clock }),
        users: createAdminUsersService({ db, clock, passwords: app.identity.passwords, mailer }),
        licenses: createAdminLicensesService({ db, clock, events }),
        grants: createUsageGrants({ db, clock, validMonths: config.usagePackValidMonths }),
      });
      await api.register(adminSecurityEventsRoutes, { securityEvents: createSecurityEventsService({ db }) });
    });
  },
  { name: 'admin', dependencies: ['platform', 'identity', 'licensing'] },
);
