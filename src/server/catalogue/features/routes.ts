import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createFeatureRequestSchema,
  featureListQuerySchema,
  featureListSchema,
  featureSchema,
  featureStatsSchema,
  updateFeatureRequestSchema,
} from '../../../shared/api/features.js';
import { idParamsSchema as params } from '../../../shared/api/common.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import type { FeaturesService } from './service.js';

const tags = ['features'];
const paths = apiPaths.admin;

/** `/admin/features`: the entitlement catalogue, administrators only. */
export const featuresRoutes: FastifyPluginAsyncZod<{ features: FeaturesService }> = async (
  app,
  { features },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    paths.features,
    {
      schema: {
        operationId: 'adminListFeatures',
        tags,
        summary: 'List features (paged)',
        security: bearerSecurity,
        querystring: featureListQuerySchema,
        response: { 200: featureListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => features.list(request.query),
  );

  app.get(
    paths.featureStats,
    {
      schema: {
        operationId: 'adminGetFeatureStats',
        tags,
        summary: 'Feature counts, plans using each and use this month',
        security: bearerSecurity,
        response: { 200: featureStatsSchema, ...errorResponses(401, 403) },
      },
    },
    async () => features.stats(),
  );

  app.post(
    paths.features,
    {
      schema: {
        operationId: 'adminCreateFeature',
        tags,
        summary: 'Create a feature',
        security: bearerSecurity,
        body: createFeatureRequestSchema,
        response: { 201: featureSchema, ...errorResponses(400, 401, 403, 409, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await features.create(request.body, actorOf(request))),
  );

  app.get(
    paths.feature,
    {
      schema: {
        operationId: 'adminGetFeature',
        tags,
        summary: 'One feature',
        security: bearerSecurity,
        params,
        response: { 200: featureSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => features.get(request.params.id),
  );

  app.put(
    paths.feature,
    {
      schema: {
        operationId: 'adminUpdateFeature',
        tags,
        summary: 'Update a feature',
        security: bearerSecurity,
        params,
        body: updateFeatureRequestSchema,
        response: { 200: featureSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => features.update(request.params.id, request.body, actorOf(request)),
  );

  app.delete(
    paths.feature,
    {
      schema: {
        operationId: 'adminDeleteFeature',
        tags,
        summary: 'Delete a feature that no plan includes',
        security: bearerSecurity,
        params,
        response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await features.remove(request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );
};
