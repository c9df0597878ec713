import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noBodySchema } from '../../../shared/api/common.js';
import {
  addOrganisationDomainBodySchema,
  DOMAIN_PROOF_LABEL,
  MAX_ORGANISATION_DOMAINS,
  organisationDomainListSchema,
  organisationDomainParamsSchema,
  organisationDomainSchema,
} from '../../../shared/api/organisation-domains.js';
import { organisationParamsSchema } from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { organisationActorOf, outsiders } from '../organisations/route-parts.js';
import type { OrganisationDomainsService } from './service.js';

const tags = ['organisations'];
const paths = apiPaths.organisations;
const ownerOnly = `The owner only (403 \`owner_only\` for admins and members). ${outsiders}`;

/** The mail domains an organisation claims and proves with a TXT record. */
export const organisationDomainRoutes: FastifyPluginAsyncZod<{
  domains: OrganisationDomainsService;
}> = async (app, { domains }) => {
  app.get(
    paths.domains,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'listOrganisationDomains',
        tags,
        summary: 'The mail domains the organization claims, each with the TXT record that proves it',
        description: `Owners and admins (403 \`organisation_admin_required\` for members). ${outsiders}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 200: organisationDomainListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => domains.list(request.params.organisationId, currentUser(request).user),
  );

  app.post(
    paths.domains,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'addOrganisationDomain',
        tags,
        summary: 'Claim a mail domain: the answer names the TXT record to publish',
        description:
          `Publish the answer’s \`record_value\` as a TXT record at \`${DOMAIN_PROOF_LABEL}.<domain>\`, then ` +
          'verify. 400 for a malformed domain or one whose addresses anyone can get (gmail.com and the like); ' +
          '409 `domain_already_added` when this organization claimed it already, `domain_claimed` when ' +
          `another organization has verified it, \`too_many_domains\` past ${MAX_ORGANISATION_DOMAINS}. ${ownerOnly}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: addOrganisationDomainBodySchema,
        response: { 201: organisationDomainSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await domains.add(request.params.organisationId, organisationActorOf(request), request.body)),
  );

  app.post(
    paths.verifyDomain,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'verifyOrganisationDomain',
        tags,
        summary: 'Check DNS for the domain’s TXT record; verified once it is there',
        description:
          'Answers the claim: `verified` once the record was found, else still `pending` with ' +
          '`check_failure` saying what DNS had instead (no record, no such name, servers not answering). ' +
          `409 \`domain_claimed\` when another organization verified the domain first. ${ownerOnly}`,
        security: bearerSecurity,
        params: organisationDomainParamsSchema,
        body: noBodySchema,
        response: { 200: organisationDomainSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      domains.verify(request.params.organisationId, request.params.domainId, organisationActorOf(request)),
  );

  app.delete(
    paths.domain,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'removeOrganisationDomain',
        tags,
        summary: 'Give up a domain claim, verified or not',
        description: ownerOnly,
        security: bearerSecurity,
        params: organisationDomainParamsSchema,
        response: { 204: z.null().describe('Removed'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await domains.remove(
        request.params.organisationId,
        request.params.domainId,
        organisationActorOf(request),
      );
      return reply.code(204).send(null);
    },
  );
};
