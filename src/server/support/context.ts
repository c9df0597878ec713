import fp from 'fastify-plugin';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import { supportRoutes } from './routes.js';
import { createSupportService } from './service.js';

/** Support: the customers' requests, mailed to the support address with an acknowledgement. */
export const supportContext = fp(
  async (app) => {
    const { config, clock, db } = app.platform;
    await registerApiRoutes(app, async (api) => {
      await api.register(supportRoutes, {
        support: createSupportService({
          db,
          clock,
          mailer: app.mailer,
          publicUrl: config.publicUrl,
          supportEmail: config.supportEmail,
        }),
      });
    });
  },
  { name: 'support', dependencies: ['platform', 'identity'] },
);
