import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '../../../shared/api/health.js';
import { apiPaths } from '../../../shared/routes.js';
import { appVersion } from '../../version.js';
import type { HealthService } from './service.js';

/** Liveness and readiness in one: 200 while the database answers, 503 when it does not. */
export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    apiPaths.health,
    {
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'Server and database status',
        security: [],
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (request, reply) => {
      const databaseUp = await health.databaseUp(request.log);
      return reply.code(databaseUp ? 200 : 503).send({
        status: databaseUp ? 'ok' : 'unavailable',
        database: databaseUp ? 'ok' : 'unreachable',
        version: appVersion,
        uptime_seconds: Math.floor(process.uptime()),
      });
    },
  );
};
