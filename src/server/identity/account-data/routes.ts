import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountDeletionRequestSchema,
  accountDeletionSchema,
  dataExportAnswerSchema,
  dataExportDownloadParamsSchema,
  dataExportSchema,
  eraseUserRequestSchema,
} from '../../../shared/api/account-data.js';
import { idParamsSchema, noBodySchema } from '../../../shared/api/common.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import { currentUser } from '../plugins/authenticate.js';
import type { AccountDeletionService } from './deletion.js';
import type { DataExports } from './exports.js';

export interface AccountDataRoutesOptions {
  exports: DataExports;
  deletion: AccountDeletionService;
}

const tags = ['account-data'];

/** The customer's own data: the export and the account's deletion, and the archive's download. */
export const accountDataRoutes: FastifyPluginAsyncZod<AccountDataRoutesOptions> = async (
  app,
  { exports, deletion },
) => {
  const paths = apiPaths.users;

  app.get(
    paths.dataExport,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'getDataExport',
        tags,
        summary: 'The latest archive of the caller’s data: being made (with its progress), ready, or expired',
        security: bearerSecurity,
        response: { 200: dataExportAnswerSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ export: await exports.latest(currentUser(request).user.id) }),
  );

  app.post(
    paths.dataExport,
    {
      onRequest: app.requireUser,
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'requestDataExport',
        tags,
        summary:
          'Ask for an archive of the caller’s data, mailed as a link valid 24 hours (the one being made, if any)',
        security: bearerSecurity,
        body: noBodySchema,
        response: { 202: dataExportSchema, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const { user } = currentUser(request);
      const made = await exports.request(user.id, { actorId: user.id, meta: requestMeta(request) });
      return reply.code(202).send(made);
    },
  );

  app.get(
    paths.deletion,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'getAccountDeletion',
        tags,
        summary: 'Whether the caller’s account is waiting to be deleted, and until when',
        security: bearerSecurity,
        response: { 200: accountDeletionSchema, ...errorResponses(401) },
      },
    },
    async (request) => deletion.status(currentUser(request).user),
  );

  app.post(
    paths.deletion,
    {
      onRequest: app.requireUser,
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'requestAccountDeletion',
        tags,
        summary:
          'Delete the caller’s account after the grace period: subscriptions are cancelled, licenses end, machines stop at their next check',
        security: bearerSecurity,
        body: accountDeletionRequestSchema,
        response: { 202: accountDeletionSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await deletion.request(currentUser(request).user.id, requestMeta(request))),
  );

  app.delete(
    paths.deletion,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'cancelAccountDeletion',
        tags,
        summary: 'Cancel the account’s deletion while the grace period lasts',
        security: bearerSecurity,
        response: { 200: accountDeletionSchema, ...errorResponses(401, 409) },
      },
    },
    async (request) => deletion.cancel(currentUser(request).user.id, requestMeta(request)),
  );

  app.get(
    apiPaths.dataExports.download,
    {
      schema: {
        operationId: 'downloadDataExport',
        tags,
        summary: 'The archive (tar.gz) behind a mailed link; the link is the credential',
        // The token in the path is the credential: no API key, no bearer token.
        security: [],
        params: dataExportDownloadParamsSchema,
        response: {
          200: z.any().describe('The archive (application/gzip)'),
          ...errorResponses(400, 404, 410),
        },
      },
    },
    async (request, reply) => {
      const { filename, bytes } = await exports.download(request.params.token);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );

  const adminTags = ['admin'];

  app.post(
    apiPaths.admin.userDataExport,
    {
      onRequest: app.requireAdmin,
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'adminRequestUserDataExport',
        tags: adminTags,
        summary: 'Ask for an archive of a user’s data; the link is mailed to the user',
        security: bearerSecurity,
        params: idParamsSchema,
        body: noBodySchema,
        response: { 202: dataExportSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const made = await exports.request(request.params.id, { actorId: actor.id, meta: actor.meta });
      return reply.code(202).send(made);
    },
  );

  app.post(
    apiPaths.admin.eraseUser,
    {
      onRequest: app.requireAdmin,
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'adminEraseUser',
        tags: adminTags,
        summary:
          'Erase a user now: subscriptions cancelled, licenses ended, personal data erased; invoices and the log kept',
        security: bearerSecurity,
        params: idParamsSchema,
        body: eraseUserRequestSchema,
        response: { 204: z.null().describe('Erased'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deletion.eraseByAdministrator(actorOf(request), request.params.id, request.body.reason);
      return reply.code(204).send(null);
    },
  );
};
