import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '../../../shared/api/health.js';
import { apiPaths } from '../../../shared/routes.js';
import type { Db } from '../../db/database.js';
import { appVersion } from '../../version.js';

/** Liveness and readiness in one: 200 while the database answers, 503 when it does not. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    apiPaths.health,
    {
      schema: {
        tags: ['health'],
        summary: 'Server and database status',
        security: [],
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (request, reply) => {
      let databaseUp = true;
      try {
        await sql`select 1`.execute(db);
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        databaseUp = false;
      }
      return reply.code(databaseUp ? 200 : 503).send({
        status: databaseUp ? 'ok' : 'unavailable',
        database: databaseUp ? 'ok' : 'unreachable',
        version: appVersion,
        uptime_seconds: Math.floor(process.uptime()),
      });
    },
  );
};
