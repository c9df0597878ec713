import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserDetailSchema,
  adminUserListQuerySchema,
  adminUserListSchema,
  createAdminUserRequestSchema,
  resendConfirmationResponseSchema,
  updateAdminUserRequestSchema,
} from '../../shared/api/admin.js';
import { idParamsSchema as params, noBodySchema } from '../../shared/api/common.js';
import { apiPaths } from '../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../platform/http/openapi-helpers.js';
import { actorOf } from '../platform/security-log/admin-actor.js';
import type { AdminUsersService } from './users-service.js';

const tags = ['admin'];
const paths = apiPaths.admin;

/** `/admin/users`: accounts, administrators only. */
export const adminUsersRoutes: FastifyPluginAsyncZod<{ users: AdminUsersService }> = async (
  app,
  { users },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    paths.users,
    {
      schema: {
        operationId: 'adminListUsers',
        tags,
        summary: 'List users (paged; filter by role, status, e-mail confirmation and creation dates)',
        security: bearerSecurity,
        querystring: adminUserListQuerySchema,
        response: { 200: adminUserListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => users.list(request.query),
  );

  app.post(
    paths.users,
    {
      schema: {
        operationId: 'adminCreateUser',
        tags,
        summary: 'Create a user',
        description: 'The password must pass the same policy as at registration. No e-mail is sent.',
        security: bearerSecurity,
        body: createAdminUserRequestSchema,
        response: { 201: adminUserDetailSchema, ...errorResponses(400, 401, 403, 409, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await users.create(actorOf(request), request.body)),
  );

  app.get(
    paths.user,
    {
      schema: {
        operationId: 'adminGetUser',
        tags,
        summary: 'One user with counts of licenses, active activations and payments',
        security: bearerSecurity,
        params,
        response: { 200: adminUserDetailSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => users.get(request.params.id),
  );

  app.put(
    paths.user,
    {
      // A role change needs a recent sign-in or step-up; other edits do not.
      preHandler: async (request, reply) => {
        const { role } = request.body;
        if (role !== undefined && role !== (await users.get(request.params.id)).role)
          await app.requireStepUp(request, reply);
      },
      schema: {
        operationId: 'adminUpdateUser',
        tags,
        summary: 'Update a user',
        description:
          'A role change or disabling ends the user’s sessions at once. The last active administrator ' +
          'cannot be demoted or disabled (409), nor can administrators demote or disable themselves (400).',
        security: bearerSecurity,
        params,
        body: updateAdminUserRequestSchema,
        response: { 200: adminUserDetailSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => users.update(actorOf(request), request.params.id, request.body),
  );

  app.post(
    paths.resendConfirmation,
    {
      schema: {
        operationId: 'adminResendConfirmation',
        tags,
        summary: 'Send the account a new e-mail confirmation link',
        description:
          'Queued like the link at sign-up. A confirmed or disabled account answers 409. To confirm ' +
          'the address without a mail, `PUT /admin/users/{id}` with `email_verified: true`.',
        security: bearerSecurity,
        params,
        body: noBodySchema,
        response: {
          202: resendConfirmationResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 415),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await users.resendConfirmation(actorOf(request), request.params.id)),
  );

  app.delete(
    paths.user,
    {
      schema: {
        operationId: 'adminDeleteUser',
        tags,
        summary: 'Delete a user with their sessions, licenses and activations',
        description:
          'Payments are kept. The last active administrator cannot be deleted (409), nor can ' +
          'administrators delete themselves (400).',
        security: bearerSecurity,
        params,
        response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await users.remove(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
