import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  healthResponseSchema,
  healthUnavailableSchema,
  livenessSchema,
  type ReadinessFailure,
  readinessSchema,
  readinessUnavailableSchema,
} from '../../../shared/api/health.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { appVersion } from '../version.js';
import type { HealthService, Unreadiness } from './service.js';

const unavailableMessages: Record<Unreadiness, string> = {
  shutting_down: 'This server is shutting down; send requests to another instance',
  database_unreachable: 'The database does not answer',
};

const readinessMessages: Record<ReadinessFailure, string> = {
  ...unavailableMessages,
  migrations_pending: 'The database schema is older than this server: run the migrations',
  worker_stopped: 'A background worker of this server has stopped',
};

/**
 * `/health`: liveness and readiness in one (SPEC), 200 while the database answers, 503 when it
 * does not or while the server drains before stopping (SIGTERM). `/health/live` and
 * `/health/ready` are the two an orchestrator probes apart: live only says the process answers
 * (failing it restarts the process), ready says whether to send it requests.
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

  app.get(
    apiPaths.healthLive,
    {
      schema: {
        operationId: 'getLiveness',
        tags: ['health'],
        summary: 'Liveness: the process answers (also while draining)',
        security: [],
        response: { 200: livenessSchema },
      },
    },
    async () => ({ status: 'ok' as const, uptime_seconds: Math.floor(process.uptime()) }),
  );

  app.get(
    apiPaths.healthReady,
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary:
          'Readiness: database, migrations, mail and webhook workers, scheduler; 503 naming what failed',
        security: [],
        response: { 200: readinessSchema, 503: readinessUnavailableSchema },
      },
    },
    async (request, reply) => {
      const { checks, failure, failed } = await health.readiness(request.log);
      if (!failure) return reply.code(200).send({ status: 'ok', checks, version: appVersion });
      const message = `${readinessMessages[failure]} (failed: ${failed.join(', ')})`;
      return reply.code(503).send({
        status: 'unavailable',
        checks,
        version: appVersion,
        failed,
        detail: message,
        message,
        code: failure,
      });
    },
  );
};
