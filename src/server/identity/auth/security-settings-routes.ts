import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securitySettingsSchema } from '../../../shared/api/two-factor.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import type { SecuritySettingsService } from './security-settings.js';

export interface SecuritySettingsRoutesOptions {
  settings: SecuritySettingsService;
}

// Also tagged two-factor, which no API token can hold: only a signed-in administrator may loosen or
// tighten how administrators sign in.
const tags = ['admin', 'two-factor'];

/** The platform's security settings: whether every administrator must have a second factor. */
export const securitySettingsRoutes: FastifyPluginAsyncZod<SecuritySettingsRoutesOptions> = async (
  app,
  { settings },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    apiPaths.admin.securitySettings,
    {
      schema: {
        operationId: 'adminGetSecuritySettings',
        tags,
        summary: 'Security settings (whether administrators must use two-factor sign-in)',
        security: bearerSecurity,
        response: { 200: securitySettingsSchema, ...errorResponses(401, 403) },
      },
    },
    async () => settings.read(),
  );

  app.put(
    apiPaths.admin.securitySettings,
    {
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'adminUpdateSecuritySettings',
        tags,
        summary: 'Change the security settings',
        description:
          'Needs a recent sign-in or step-up (403 `step_up_required`). Requiring two-factor of administrators is refused (409 `two_factor_required_first`) to an administrator without one.',
        security: bearerSecurity,
        body: securitySettingsSchema.strict(),
        response: { 200: securitySettingsSchema, ...errorResponses(400, 401, 403, 409, 415) },
      },
    },
    async (request) => settings.change(actorOf(request), request.body),
  );
};
