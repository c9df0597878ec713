import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminOrganisationDetailSchema,
  adminOrganisationListQuerySchema,
  adminOrganisationListSchema,
  organisationParamsSchema,
} from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { AdminOrganisationsService } from './admin-service.js';

const tags = ['organisations', 'admin'];

/** Administrators find organisations and see inside them; they act on one through the organisation routes. */
export const adminOrganisationsRoutes: FastifyPluginAsyncZod<{
  adminOrganisations: AdminOrganisationsService;
}> = async (app, { adminOrganisations }) => {
  app.get(
    apiPaths.adminOrganisations.list,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListOrganisations',
        tags,
        summary: 'Every organization (paged), newest first unless sorted otherwise',
        description: '`search` matches part of the name or of a member’s e-mail address.',
        security: bearerSecurity,
        querystring: adminOrganisationListQuerySchema,
        response: { 200: adminOrganisationListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => adminOrganisations.list(request.query),
  );

  app.get(
    apiPaths.adminOrganisations.detail,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminGetOrganisation',
        tags,
        summary: 'One organization with its members, invitations, seats and subscription',
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 200: adminOrganisationDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => adminOrganisations.detail(request.params.organisationId),
  );
};
