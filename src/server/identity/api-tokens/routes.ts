import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminApiTokenListQuerySchema,
  adminApiTokenListSchema,
  apiTokenIdParamsSchema,
  apiTokenListSchema,
  apiTokenSchema,
  createApiTokenBodySchema,
  createdApiTokenSchema,
} from '../../../shared/api/api-tokens.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../plugins/authenticate.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { ApiTokensService } from './service.js';

// Tokens can never reach these routes (the tag is never grantable): a token cannot mint tokens.
const tags = ['api-tokens'];

const shownOnce =
  'The answer holds the token itself, the only time it is shown: only its SHA-256 is kept. ' +
  'Send it as `Authorization: Bearer aap_…`. Each scope is `<tag>:read` or `<tag>:write` for an ' +
  'OpenAPI tag; an operation needs the scope of every tag it carries, and write implies read.';

/** Personal tokens of the signed-in account, and administrators' platform tokens and oversight of all. */
export const apiTokensRoutes: FastifyPluginAsyncZod<{ apiTokens: ApiTokensService }> = async (
  app,
  { apiTokens },
) => {
  app.get(
    apiPaths.accountSecurity.apiTokens,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'listApiTokens',
        tags,
        summary: 'Your personal API tokens, newest first (never the tokens themselves)',
        security: bearerSecurity,
        response: { 200: apiTokenListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ data: await apiTokens.listOwn(currentUser(request).user.id, 'personal') }),
  );

  app.post(
    apiPaths.accountSecurity.apiTokens,
    {
      onRequest: app.requireUser,
      // A stolen session cannot quietly mint itself a long-lived credential.
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'createApiToken',
        tags,
        summary: 'Create a personal API token for your own licenses, machines and billing',
        description:
          `${shownOnce} A personal token acts as a customer, even when its owner is an administrator. ` +
          'Needs a recent sign-in or step-up (403 `step_up_required`).',
        security: bearerSecurity,
        body: createApiTokenBodySchema,
        response: { 201: createdApiTokenSchema, ...errorResponses(400, 401, 403, 415) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await apiTokens.create(currentUser(request).user, 'personal', request.body, requestMeta(request)),
        ),
  );

  app.delete(
    apiPaths.accountSecurity.apiToken,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'revokeApiToken',
        tags,
        summary: 'Revoke one of your API tokens; it stops working at once',
        security: bearerSecurity,
        params: apiTokenIdParamsSchema,
        response: { 200: apiTokenSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      apiTokens.revoke(request.params.tokenId, currentUser(request).user, requestMeta(request), {
        anyOwner: false,
      }),
  );

  app.get(
    apiPaths.admin.apiTokens,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'listPlatformApiTokens',
        tags,
        summary: 'Every account’s API tokens with their owners (paged), to find and revoke a leaked one',
        description:
          '`status` is `active` (default), `inactive` (revoked or expired) or `all`; `kind` keeps ' +
          'personal or platform tokens; `search` matches the name, the shown characters or the owner’s address.',
        security: bearerSecurity,
        querystring: adminApiTokenListQuerySchema,
        response: { 200: adminApiTokenListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => apiTokens.listAll(request.query),
  );

  app.post(
    apiPaths.admin.apiTokens,
    {
      onRequest: app.requireAdmin,
      // A stolen session cannot quietly mint itself a long-lived credential.
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'createPlatformApiToken',
        tags,
        summary: 'Create a platform API token that acts as you, an administrator',
        description:
          `${shownOnce} A platform token may also carry the admin and webhooks scopes; it stops ` +
          'working if its owner stops being an administrator. Needs a recent sign-in or step-up ' +
          '(403 `step_up_required`).',
        security: bearerSecurity,
        body: createApiTokenBodySchema,
        response: { 201: createdApiTokenSchema, ...errorResponses(400, 401, 403, 415) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await apiTokens.create(currentUser(request).user, 'platform', request.body, requestMeta(request)),
        ),
  );

  app.delete(
    apiPaths.admin.apiToken,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'revokeAnyApiToken',
        tags,
        summary: 'Revoke any account’s API token, personal or platform',
        security: bearerSecurity,
        params: apiTokenIdParamsSchema,
        response: { 200: apiTokenSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      apiTokens.revoke(request.params.tokenId, currentUser(request).user, requestMeta(request), {
        anyOwner: true,
      }),
  );
};
