import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noBodySchema } from '../../../shared/api/common.js';
import { organisationParamsSchema } from '../../../shared/api/organisations.js';
import {
  provisioningGroupParamsSchema,
  provisioningGroupRoleBodySchema,
  provisioningSettingsSchema,
  scimTokenCreatedSchema,
} from '../../../shared/api/scim.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { organisationActorOf, outsiders } from '../organisations/index.js';
import type { ProvisioningSettingsService } from './settings.js';

const tags = ['organisations'];
const paths = apiPaths.organisations;
const ownerOnly = `The owner only (403 \`owner_only\` for admins and members). ${outsiders}`;

/** The organisation's Provisioning settings: its SCIM token and which pushed group gives which role. */
export const provisioningSettingsRoutes: FastifyPluginAsyncZod<{
  settings: ProvisioningSettingsService;
}> = async (app, { settings }) => {
  app.get(
    paths.provisioning,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'getOrganisationProvisioning',
        tags,
        summary:
          'SCIM provisioning: the base URL, the token’s summary (never the token) and the pushed groups',
        description: `Owners and admins (403 \`organisation_admin_required\` for members). ${outsiders}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 200: provisioningSettingsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => settings.get(request.params.organisationId, currentUser(request).user),
  );

  app.post(
    paths.provisioningToken,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'createOrganisationProvisioningToken',
        tags,
        summary: 'Create the organization’s SCIM token: the answer shows it this once',
        description: `409 \`scim_token_exists\` when there is one (rotate it instead). ${ownerOnly}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: noBodySchema,
        response: { 201: scimTokenCreatedSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await settings.create(request.params.organisationId, organisationActorOf(request))),
  );

  app.post(
    paths.rotateProvisioningToken,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'rotateOrganisationProvisioningToken',
        tags,
        summary: 'Replace the SCIM token: the old one stops at once, the answer shows the new one this once',
        description: `404 \`scim_token_not_found\` when there is none. ${ownerOnly}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: noBodySchema,
        response: { 200: scimTokenCreatedSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => settings.rotate(request.params.organisationId, organisationActorOf(request)),
  );

  app.delete(
    paths.provisioningToken,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'revokeOrganisationProvisioningToken',
        tags,
        summary: 'Revoke the SCIM token: provisioning stops until a new one is created',
        description: `404 \`scim_token_not_found\` when there is none. ${ownerOnly}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 204: z.null().describe('Revoked'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await settings.revoke(request.params.organisationId, organisationActorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    paths.provisioningGroupRole,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'mapOrganisationProvisioningGroup',
        tags,
        summary: 'Map a pushed group to an organization role (or to none): its members’ roles follow',
        description: `404 \`scim_group_not_found\` for a group not pushed. ${ownerOnly}`,
        security: bearerSecurity,
        params: provisioningGroupParamsSchema,
        body: provisioningGroupRoleBodySchema,
        response: { 200: provisioningSettingsSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) =>
      settings.mapGroup(
        request.params.organisationId,
        request.params.groupId,
        request.body,
        organisationActorOf(request),
      ),
  );
};
