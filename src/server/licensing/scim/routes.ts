import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  scimErrorSchema,
  scimGroupSchema,
  scimIdParamsSchema,
  scimListQuerySchema,
  scimListSchema,
  scimPatchBodySchema,
  scimResourceBodySchema,
  scimResourceQuerySchema,
  scimUserSchema,
} from '../../../shared/api/scim.js';
import { scimPaths } from '../../../shared/routes.js';
import { HttpError } from '../../platform/http-error.js';
import { listOf, resourceTypes, schemas, serviceProviderConfig } from './discovery.js';
import { scimErrorFields, scimNotFound } from './errors.js';
import type { ScimGroups } from './groups.js';
import type { ScimCaller, ScimUsers } from './users.js';

const tags = ['scim'];
const security = [{ scimBearer: [] }];
const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
const documentSchema = z.record(z.string(), z.unknown());
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, scimErrorSchema])) as Record<
    number,
    typeof scimErrorSchema
  >;

/** Whether `excludedAttributes` leaves `attribute` out (Entra ID asks for groups without members). */
const excludes = (query: { excludedAttributes?: string | undefined }, attribute: string) =>
  (query.excludedAttributes ?? '')
    .split(',')
    .some((name) => name.trim().toLowerCase() === attribute.toLowerCase());

const scimBody = (status: number, code: string, message: string, scimType?: string) => ({
  ...scimErrorFields(status, scimType),
  detail: message,
  message,
  code,
});

/** Every error of the SCIM routes in the SCIM error schema, with `detail`, `message` and `code` too. */
function sendScimError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    const scimType = typeof error.extra.scimType === 'string' ? error.extra.scimType : undefined;
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send(scimBody(error.statusCode, error.code, error.message, scimType));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const field = first?.instancePath.slice(1).replaceAll('/', '.') ?? '';
    return reply
      .code(400)
      .send(
        scimBody(
          400,
          'scim_invalid_value',
          `${field ? `${field}: ` : ''}${first?.message ?? 'Invalid request'}`,
          'invalidValue',
        ),
      );
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply
        .code(415)
        .send(scimBody(415, 'unsupported_media_type', 'Send application/scim+json or application/json'));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply.code(413).send(scimBody(413, 'payload_too_large', 'Request body is too large'));
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return reply
        .code(400)
        .send(scimBody(400, 'scim_invalid_syntax', 'Request body is not valid JSON', 'invalidSyntax'));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return reply
      .code(error.statusCode)
      .send(scimBody(error.statusCode, 'bad_request', 'The request could not be understood'));
  request.log.error({ err: error }, 'unhandled SCIM error');
  return reply
    .code(500)
    .send(scimBody(500, 'internal_error', 'Something went wrong on our side. Try again later.'));
}

/**
 * SCIM 2.0 for identity providers under /scim/v2: Users and Groups of the organisation whose
 * token is sent, and the discovery documents. Bodies are read as application/scim+json or JSON;
 * every answer is application/scim+json, errors in the SCIM error schema.
 */
export const scimRoutes: FastifyPluginAsyncZod<{
  users: ScimUsers;
  groups: ScimGroups;
  callerOf: (request: FastifyRequest) => Promise<ScimCaller>;
  publicUrl: string;
}> = async (app, { users, groups, callerOf, publicUrl }) => {
  app.addContentTypeParser(
    'application/scim+json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );
  app.setErrorHandler(sendScimError);
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        scimBody(404, 'not_found', `Nothing found at ${request.method} ${request.url.split('?')[0] ?? ''}`),
      ),
  );
  app.addHook('onSend', async (_request, reply, payload) => {
    if (typeof payload === 'string') reply.header('content-type', SCIM_CONTENT_TYPE);
    return payload;
  });
  const callers = new WeakMap<FastifyRequest, ScimCaller>();
  app.addHook('onRequest', async (request) => {
    callers.set(request, await callerOf(request));
  });
  const caller = (request: FastifyRequest): ScimCaller => {
    const found = callers.get(request);
    if (!found) throw new Error('SCIM request without its caller');
    return found;
  };

  const described = (operationId: string, summary: string, description?: string) => ({
    operationId,
    tags,
    summary,
    ...(description ? { description } : {}),
    security,
  });

  app.get(
    scimPaths.serviceProviderConfig,
    {
      schema: {
        ...described('scimServiceProviderConfig', 'What this SCIM server supports'),
        response: { 200: documentSchema, ...errors(401) },
      },
    },
    async () => serviceProviderConfig(publicUrl),
  );
  app.get(
    scimPaths.resourceTypes,
    {
      schema: {
        ...described('scimResourceTypes', 'The resource types served: User and Group'),
        response: { 200: documentSchema, ...errors(401) },
      },
    },
    async () => listOf(resourceTypes(publicUrl)),
  );
  app.get(
    scimPaths.resourceType,
    {
      schema: {
        ...described('scimResourceType', 'One resource type'),
        params: z.object({ name: z.string().max(100) }),
        response: { 200: documentSchema, ...errors(401, 404) },
      },
    },
    async (request) => {
      const found = resourceTypes(publicUrl).find((type) => type.id === request.params.name);
      if (!found) throw scimNotFound('Resource', request.params.name);
      return found;
    },
  );
  app.get(
    scimPaths.schemas,
    {
      schema: {
        ...described('scimSchemas', 'The attributes kept of users and groups'),
        response: { 200: documentSchema, ...errors(401) },
      },
    },
    async () => listOf(schemas(publicUrl)),
  );
  app.get(
    scimPaths.schema,
    {
      schema: {
        ...described('scimSchema', 'One schema'),
        params: z.object({ id: z.string().max(200) }),
        response: { 200: documentSchema, ...errors(401, 404) },
      },
    },
    async (request) => {
      const found = schemas(publicUrl).find((schema) => schema.id === request.params.id);
      if (!found) throw scimNotFound('Resource', request.params.id);
      return found;
    },
  );

  const filterNote =
    'Filters: `eq` on userName, externalId, id and emails.value (also as `emails[type eq "work"].value`), ' +
    'joined with `and`; anything else is 400 `invalidFilter`. Paged by startIndex (1-based) and count (at most 1000).';

  app.get(
    scimPaths.users,
    {
      schema: {
        ...described('scimListUsers', 'The organization’s provisioned users', filterNote),
        querystring: scimListQuerySchema,
        response: { 200: scimListSchema(scimUserSchema), ...errors(400, 401) },
      },
    },
    async (request) => users.list(caller(request), request.query, !excludes(request.query, 'groups')),
  );
  app.post(
    scimPaths.users,
    {
      schema: {
        ...described(
          'scimCreateUser',
          'Provision a person: invited (or joined, with an account) and given a seat',
          '409 `uniqueness` when the userName or externalId exists; 409 `seats_full` when no seat is free.',
        ),
        body: scimResourceBodySchema,
        response: { 201: scimUserSchema, ...errors(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await users.create(caller(request), request.body)),
  );
  app.get(
    scimPaths.user,
    {
      schema: {
        ...described('scimGetUser', 'One provisioned user'),
        params: scimIdParamsSchema,
        querystring: scimResourceQuerySchema,
        response: { 200: scimUserSchema, ...errors(401, 404) },
      },
    },
    async (request) => users.get(caller(request), request.params.id, !excludes(request.query, 'groups')),
  );
  app.put(
    scimPaths.user,
    {
      schema: {
        ...described(
          'scimReplaceUser',
          'Replace a provisioned user; active false takes their seat back',
          'Reactivating (active true) seats them again: 409 `seats_full` when no seat is free, and they stay inactive.',
        ),
        params: scimIdParamsSchema,
        body: scimResourceBodySchema,
        response: { 200: scimUserSchema, ...errors(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request) => users.replace(caller(request), request.params.id, request.body),
  );
  app.patch(
    scimPaths.user,
    {
      schema: {
        ...described(
          'scimPatchUser',
          'Change a provisioned user as Entra ID and Okta send it (active "False" takes the seat back)',
          'Deactivating the organization’s owner is 400 `mutability`; reactivating with no seat free is ' +
            '409 `seats_full` (they stay inactive, as a creation is refused).',
        ),
        params: scimIdParamsSchema,
        body: scimPatchBodySchema,
        response: { 200: scimUserSchema, ...errors(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request) => users.patch(caller(request), request.params.id, request.body),
  );
  app.delete(
    scimPaths.user,
    {
      schema: {
        ...described(
          'scimDeleteUser',
          'Deprovision a person: they leave the organization, their seat and machines end',
          'Deleting the organization’s owner is 400 `mutability`.',
        ),
        params: scimIdParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await users.remove(caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    scimPaths.groups,
    {
      schema: {
        ...described(
          'scimListGroups',
          'The organization’s provisioned groups',
          'Filters: `eq` on displayName, externalId and id.',
        ),
        querystring: scimListQuerySchema,
        response: { 200: scimListSchema(scimGroupSchema), ...errors(400, 401) },
      },
    },
    async (request) => groups.list(caller(request), request.query, !excludes(request.query, 'members')),
  );
  app.post(
    scimPaths.groups,
    {
      schema: {
        ...described('scimCreateGroup', 'Provision a group of users'),
        body: scimResourceBodySchema,
        response: { 201: scimGroupSchema, ...errors(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await groups.create(caller(request), request.body)),
  );
  app.get(
    scimPaths.group,
    {
      schema: {
        ...described('scimGetGroup', 'One provisioned group'),
        params: scimIdParamsSchema,
        querystring: scimResourceQuerySchema,
        response: { 200: scimGroupSchema, ...errors(401, 404) },
      },
    },
    async (request) => groups.get(caller(request), request.params.id, !excludes(request.query, 'members')),
  );
  app.put(
    scimPaths.group,
    {
      schema: {
        ...described('scimReplaceGroup', 'Replace a group and its members; members’ roles follow'),
        params: scimIdParamsSchema,
        body: scimResourceBodySchema,
        response: { 200: scimGroupSchema, ...errors(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request) => groups.replace(caller(request), request.params.id, request.body),
  );
  app.patch(
    scimPaths.group,
    {
      schema: {
        ...described(
          'scimPatchGroup',
          'Add or remove members, rename; members’ roles follow the owner’s mapping',
        ),
        params: scimIdParamsSchema,
        body: scimPatchBodySchema,
        response: { 200: scimGroupSchema, ...errors(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request) => groups.patch(caller(request), request.params.id, request.body),
  );
  app.delete(
    scimPaths.group,
    {
      schema: {
        ...described('scimDeleteGroup', 'Delete a group: its members lose the role it gave'),
        params: scimIdParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...errors(401, 404) },
      },
    },
    async (request, reply) => {
      await groups.remove(caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
