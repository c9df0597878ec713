import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type LicenseCheckRequest,
  leaseSigningKeysSchema,
  licenseRefusalSchema,
  licenseStatusQuerySchema,
  licenseStatusSchema,
  licensingSettingsSchema,
  validateLicenseRequestSchema,
} from '../../../shared/api/licenses.js';
import { apiPaths } from '../../../shared/api-paths.js';
import type { Clock } from '../../platform/clock.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { LicenseChecksService } from '../licenses/check-service.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import { type LicenseCheckObserver, resultOfRefusal } from './check-observer.js';
import { createCheckRateLimit } from './check-rate-limit.js';
import type { LeaseSigner } from './lease-signer.js';
import type { LicensingSettingsService } from './service.js';

export interface LicensingRoutesOptions {
  checks: LicenseChecksService;
  leases: LeaseSigner;
  settings: LicensingSettingsService;
  /** Checks per minute and client address on the two license-check routes. */
  checksPerMinute: number;
  clock: Clock;
  /** Told of each check's result (the metrics). */
  onCheck?: LicenseCheckObserver;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const refusals = { 400: licenseRefusalSchema, 403: licenseRefusalSchema, 404: licenseRefusalSchema };
const tags = ['licensing'];

/**
 * License checks for machines: the key and hardware id are the credentials, so no sign-in is
 * needed (the desktop shell checks in the background). Every valid answer carries a signed lease.
 */
export const licensingRoutes: FastifyPluginAsyncZod<LicensingRoutesOptions> = async (
  app,
  { checks, leases, settings, checksPerMinute, clock, onCheck = () => undefined },
) => {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<ZodTypeProvider>();
    // The route every desktop calls, kept lean: no logger child per request (errors still reach
    // the log), a limit counted in memory, and an answer written as the bytes the service made.
    api.setChildLoggerFactory((logger) => logger);
    api.addHook(
      'onRequest',
      createCheckRateLimit(checksPerMinute, () => clock.now().getTime()),
    );
    const answer = async (reply: FastifyReply, body: LicenseCheckRequest) => {
      let answered: Buffer;
      try {
        answered = await checks.validate(body);
      } catch (error) {
        onCheck(resultOfRefusal(error));
        throw error;
      }
      onCheck('active');
      return reply.type(JSON_TYPE).send(answered);
    };
    // Not compressed: the answer is small, and it carries the key and a lease (as sign-in answers
    // carry tokens, whose length must not leak through compression). Refusals are typed error
    // bodies, written as they are instead of being parsed again by zod.
    const route = {
      compress: false as const,
      serializerCompiler: () => (data: unknown) => JSON.stringify(data),
    };

    api.post(
      apiPaths.licenses.validate,
      {
        ...route,
        schema: {
          operationId: 'validateLicense',
          tags: ['licenses'],
          summary: 'Validate a license key on a machine',
          description:
            'Valid: `{valid: true, …, lease}`. Otherwise a 4xx error with `valid: false`, `status` and the reason.',
          security: apiKeySecurity,
          body: validateLicenseRequestSchema,
          response: { 200: licenseStatusSchema, ...refusals, ...errorResponses(415, 429) },
        },
      },
      (request, reply) => answer(reply, request.body),
    );

    api.get(
      apiPaths.licensing.status,
      {
        ...route,
        schema: {
          operationId: 'getLicensingStatus',
          tags,
          summary: 'License status of a machine (query: license_key, hardware_id)',
          security: apiKeySecurity,
          querystring: licenseStatusQuerySchema,
          response: { 200: licenseStatusSchema, ...refusals, ...errorResponses(429) },
        },
      },
      (request, reply) => answer(reply, request.query),
    );
  });

  app.get(
    apiPaths.licensing.publicKey,
    {
      schema: {
        operationId: 'getLeaseSigningKeys',
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
          operationId: 'adminGetLicensingSettings',
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
          operationId: 'adminUpdateLicensingSettings',
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
