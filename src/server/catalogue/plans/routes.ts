import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createPlanRequestSchema,
  deletePlanResponseSchema,
  planListQuerySchema,
  planListSchema,
  planSchema,
  planStatsSchema,
  publicPlanListSchema,
  updatePlanRequestSchema,
} from '../../../shared/api/plans.js';
import { idParamsSchema as params, noBodySchema } from '../../../shared/api/common.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import type { PlansService } from './service.js';

const tags = ['plans'];
const paths = apiPaths.plans;

/** The public catalogue for everyone; listing all plans and changing them for administrators. */
export const plansRoutes: FastifyPluginAsyncZod<{ plans: PlansService }> = async (app, { plans }) => {
  app.get(
    paths.public,
    {
      schema: {
        operationId: 'listPublicPlans',
        tags,
        summary: 'Plans on offer, in display order',
        security: apiKeySecurity,
        response: { 200: publicPlanListSchema },
      },
    },
    async () => plans.listPublic(),
  );

  app.get(
    paths.publicDetail,
    {
      schema: {
        operationId: 'getPublicPlan',
        tags,
        summary: 'One plan on offer',
        security: apiKeySecurity,
        params,
        response: { 200: planSchema, ...errorResponses(404) },
      },
    },
    async (request) => plans.getPublic(request.params.id),
  );

  await app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();
    admin.addHook('onRequest', app.requireAdmin);

    admin.get(
      paths.list,
      {
        schema: {
          operationId: 'adminListPlans',
          tags,
          summary: 'All plans, archived ones included (paged)',
          security: bearerSecurity,
          querystring: planListQuerySchema,
          response: { 200: planListSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => plans.list(request.query),
    );

    admin.get(
      paths.stats,
      {
        schema: {
          operationId: 'adminGetPlanStats',
          tags,
          summary: 'Plan counts and licenses per plan',
          security: bearerSecurity,
          response: { 200: planStatsSchema, ...errorResponses(401, 403) },
        },
      },
      async () => plans.stats(),
    );

    admin.get(
      paths.detail,
      {
        schema: {
          operationId: 'adminGetPlan',
          tags,
          summary: 'One plan',
          security: bearerSecurity,
          params,
          response: { 200: planSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => plans.get(request.params.id),
    );

    admin.post(
      paths.list,
      {
        schema: {
          operationId: 'adminCreatePlan',
          tags,
          summary: 'Create a plan',
          security: bearerSecurity,
          body: createPlanRequestSchema,
          response: { 201: planSchema, ...errorResponses(400, 401, 403, 409, 415) },
        },
      },
      async (request, reply) => reply.code(201).send(await plans.create(request.body, actorOf(request))),
    );

    admin.put(
      paths.detail,
      {
        schema: {
          operationId: 'adminUpdatePlan',
          tags,
          summary: 'Update a plan; `features` replaces its features and limits',
          security: bearerSecurity,
          params,
          body: updatePlanRequestSchema,
          response: { 200: planSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
        },
      },
      async (request) => plans.update(request.params.id, request.body, actorOf(request)),
    );

    admin.post(
      paths.publish,
      {
        schema: {
          operationId: 'adminPublishPlan',
          tags,
          summary: 'Publish a draft plan: it is listed and sold from now on',
          description:
            'A plan is created as a draft. Publishing needs at least one feature (409 `plan_without_features`) and refuses an archived plan (409 `plan_archived`); a published plan is answered as it is.',
          security: bearerSecurity,
          params,
          body: noBodySchema,
          response: { 200: planSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
        },
      },
      async (request) => plans.publish(request.params.id, actorOf(request)),
    );

    admin.delete(
      paths.detail,
      {
        schema: {
          operationId: 'adminDeletePlan',
          tags,
          summary: 'Delete a plan, or archive it when licenses refer to it',
          security: bearerSecurity,
          params,
          response: { 200: deletePlanResponseSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => plans.remove(request.params.id, actorOf(request)),
    );
  });
};
