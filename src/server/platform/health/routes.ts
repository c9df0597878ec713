import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema, healthUnavailableSchema } from '../../../shared/api/health.js';
import { apiPaths } from '../../../shared/routes.js';
import { appVersion } from '../version.js';
import type { HealthService, Unreadiness } from './service.js';

const unavailableMessages: Record<Unreadiness, string> = {
  shutting_down: 'This server is shutting down; send requests to another instance',
  database_unreachable: 'The database does not answer',
};

/**
 * Liveness and readiness in one: 200 while the database answers, 503 when it does not or while
 * the server drains before stopping (SIGTERM), so a load balancer sends new requests elsewhere.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    apiPaths.health,
    {
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'Server and database status',
        security: [],
        response: { 200: healthResponseSchema, 503: healthUnavailableSchema },
      },
    },
    async (request, reply) => {
      const databaseUp = await health.databaseUp(request.log);
      const status = {
        database: databaseUp ? ('ok' as const) : ('unreachable' as const),
        version: appVersion,
        uptime_seconds: Math.floor(process.uptime()),
      };
      const unreadiness = health.unreadiness(databaseUp);
      if (!unreadiness) return reply.code(200).send({ status: 'ok', ...status });
      const message = unavailableMessages[unreadiness];
      return reply
        .code(503)
        .send({ status: 'unavailable', ...status, detail: message, message, code: unreadiness });
    },
  );
};
