import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordIdSchema } from '../../shared/api/common.js';
import {
  adminReleaseListQuerySchema,
  adminReleaseListSchema,
  adminReleaseSchema,
  adminUpdateReleaseBodySchema,
} from '../../shared/api/distribution.js';
import { apiPaths } from '../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../platform/http/openapi-helpers.js';
import { actorOf } from '../platform/security-log/admin-actor.js';
import type { AdminReleasesService } from './admin-releases.js';

const tags = ['admin'];

/** Administrators' control of the desktop releases: rollouts, pauses, yanks and notes. */
export const adminReleasesRoutes: FastifyPluginAsyncZod<{ releases: AdminReleasesService }> = async (
  app,
  { releases },
) => {
  app.get(
    apiPaths.adminReleases.list,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListReleases',
        tags,
        summary: 'Desktop releases per platform and channel, with rollout, counters and notes',
        security: bearerSecurity,
        querystring: adminReleaseListQuerySchema,
        response: { 200: adminReleaseListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => releases.list(request.query),
  );

  app.patch(
    apiPaths.adminReleases.detail,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminUpdateRelease',
        tags,
        summary: 'Raise, pause, resume or yank a release, or edit its notes',
        description:
          'The rollout only goes up (409 `rollout_lowered`); a yanked release is never offered again ' +
          'and machines on it are offered the previous good one; it takes no further change (409).',
        security: bearerSecurity,
        params: z.object({ releaseId: recordIdSchema }),
        body: adminUpdateReleaseBodySchema,
        response: { 200: adminReleaseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => releases.update(actorOf(request), request.params.releaseId, request.body),
  );
};
