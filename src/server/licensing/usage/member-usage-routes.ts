import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberUsageSchema, setMemberCapsBodySchema } from '../../../shared/api/member-usage.js';
import { organisationUsageSchema } from '../../../shared/api/organisation-usage.js';
import { memberParamsSchema, organisationParamsSchema } from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import { managers } from '../organisations/route-parts.js';
import type { MemberUsageService } from './member-usage.js';

const tags = ['organisations', 'usage'];
const paths = apiPaths.organisations;
/** An organisation's shared pool of metered use: each member's share and the caps on it. */
export const memberUsageRoutes: FastifyPluginAsyncZod<{ memberUsage: MemberUsageService }> = async (
  app,
  { memberUsage },
) => {
  app.get(
    paths.usage,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'getOrganisationUsage',
        tags,
        summary: 'The pool’s metered use this period and each member’s, with their caps',
        description: managers,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 200: organisationUsageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      memberUsage.organisationUsage(request.params.organisationId, currentUser(request).user),
  );

  app.put(
    paths.memberUsageCaps,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'setOrganisationMemberUsageCaps',
        tags,
        summary: 'Cap what one member may use of a metered feature per period (null removes a cap)',
        description:
          'Each cap names a metered feature of the organization’s plan by id or key (400 `feature_not_included`, ' +
          '`feature_not_metered`); a whole number from 0. The member’s events past their cap are refused with ' +
          '`member_cap_reached`; the pool’s own allowance still holds for everyone. 404 `member_not_found` for ' +
          `an account outside the organization, 409 \`no_seats\` before it has a license. ${managers}`,
        security: bearerSecurity,
        params: memberParamsSchema,
        body: setMemberCapsBodySchema,
        response: { 200: memberUsageSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) =>
      memberUsage.setCaps(request.params.organisationId, request.params.userId, request.body, {
        user: currentUser(request).user,
        meta: requestMeta(request),
      }),
  );
};
