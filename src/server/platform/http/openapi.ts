import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { API_DOCS_PATH, OPENAPI_DOCUMENT_PATH } from '../../../shared/routes.js';
import { appVersion } from '../version.js';
import { finishOpenApiDocument, OPENAPI_TAGS } from './openapi-helpers.js';

export interface OpenApiOptions {
  /** The portal's public address (PUBLIC_URL): the document's server, so a generated client knows where to call. */
  publicUrl: string;
}

/** OpenAPI 3.1 generated from the routes' zod schemas; call before the routes are registered. */
export async function registerOpenApi(app: FastifyInstance, { publicUrl }: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${PRODUCT_NAME} portal API`,
        version: appVersion,
        description:
          'Accounts, licenses and payments of the desktop AI assistant. Every call needs the `X-API-Key` ' +
          'header of a known client; calls on behalf of a user also need a bearer token: the access ' +
          'token of a session or a personal API token. Errors are `{ detail, message, code }`.',
      },
      // The paths carry /api/v1 themselves, so the server is the portal's address as it is.
      servers: [{ url: publicUrl, description: 'This portal' }],
      tags: OPENAPI_TAGS,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          scimBearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An organization’s SCIM provisioning token (`scim_…`), made by its owner in the portal’s ' +
              'Provisioning settings; it reaches that organization’s users and groups only.',
          },
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The access token of a signed-in session (a JWT from `POST /api/v1/auth/login/json` or ' +
              '`/auth/refresh`), or a personal API token (`aap_…`, made with ' +
              '`POST /api/v1/users/me/api-tokens`) sent the same way: `Authorization: Bearer aap_…`. ' +
              'An API token reaches an operation only with the scope of each of its tags: ' +
              '`<tag>:read` to read (GET), `<tag>:write` for anything else (which also reads); it ' +
              'never reaches sign-in, second factors or API tokens themselves.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => finishOpenApiDocument(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PATH,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
  app.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, async () => app.swagger());
}
