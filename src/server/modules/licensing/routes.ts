import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  leaseSigningKeysSchema,
  licenseRefusalSchema,
  licenseStatusQuerySchema,
  licenseStatusSchema,
  licensingSettingsSchema,
  validateLicenseRequestSchema,
} from '../../../shared/api/licenses.js';
import { apiPaths } from '../../../shared/routes.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../plugins/openapi-helpers.js';
import type { LicenseChecksService } from '../licenses/check-service.js';
import { actorOf } from '../security/admin-actor.js';
import type { LeaseSigner } from './lease-signer.js';
import type { LicensingSettingsService } from './service.js';

export interface LicensingRoutesOptions {
  checks: LicenseChecksService;
  leases: LeaseSigner;
  settings: LicensingSettingsService;
  /** Checks per minute and client address on the two license-check routes. */
  checksPerMinute: number;
}

const refusals = { 400: licenseRefusalSchema, 403: licenseRefusalSchema, 404: licenseRefusalSchema };
const tags = ['licensing'];

/**
 * License checks for machines: the key and hardware id are the credentials, so no sign-in is
 * needed (the desktop shell checks in the background). Every valid answer carries a signed lease.
 */
export const licensingRoutes: FastifyPluginAsyncZod<LicensingRoutesOptions> = async (
  app,
  { checks, leases, settings, checksPerMinute },
) => {
  const limited = { rateLimit: { max: checksPerMinute, timeWindow: '1 minute' } };
  // The hot path of every desktop app: answers are built from typed objects (LicenseStatusAnswer or
  // an error body), so they are written as they are instead of being parsed again by zod.
  const plainJson = () => (data: unknown) => JSON.stringify(data);

  app.post(
    apiPaths.licenses.validate,
    {
      config: limited,
      serializerCompiler: plainJson,
      schema: {
        tags: ['licenses'],
        summary: 'Validate a license key on a machine',
        description:
          'Valid: `{valid: true, …, lease}`. Otherwise a 4xx error with `valid: false`, `status` and the reason.',
        security: apiKeySecurity,
        body: validateLicenseRequestSchema,
        response: { 200: licenseStatusSchema, ...refusals, ...errorResponses(415, 429) },
      },
    },
    async (request) => checks.validate(request.body),
  );

  app.get(
    apiPaths.licensing.status,
    {
      config: limited,
      serializerCompiler: plainJson,
      schema: {
        tags,
        summary: 'License status of a machine (query: license_key, hardware_id)',
        security: apiKeySecurity,
        querystring: licenseStatusQuerySchema,
        response: { 200: licenseStatusSchema, ...refusals, ...errorResponses(429) },
      },
    },
    async (request) => checks.validate(request.query),
  );

  app.get(
    apiPaths.licensing.publicKey,
    {
      schema: {
        tags,
        summary: 'Keys that verify offline leases (JWK set, active key first)',
        security: apiKeySecurity,
        response: { 200: leaseSigningKeysSchema },
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(leases.publicKeys()),
  );

  await app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();
    admin.addHook('onRequest', app.requireAdmin);
    admin.get(
      apiPaths.admin.licensingSettings,
      {
        schema: {
          tags,
          summary: 'Licensing settings (seat reclaim window)',
          security: bearerSecurity,
          response: { 200: licensingSettingsSchema, ...errorResponses(401, 403) },
        },
      },
      async () => settings.read(),
    );
    admin.put(
      apiPaths.admin.licensingSettings,
      {
        schema: {
          tags,
          summary: 'Change the licensing settings',
          security: bearerSecurity,
          body: licensingSettingsSchema.strict(),
          response: { 200: licensingSettingsSchema, ...errorResponses(400, 401, 403, 415) },
        },
      },
      async (request) => settings.change(actorOf(request), request.body),
    );
  });
};
