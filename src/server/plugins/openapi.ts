import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { PRODUCT_NAME } from '../../shared/constants.js';
import { API_DOCS_PATH, OPENAPI_DOCUMENT_PATH } from '../../shared/routes.js';
import { appVersion } from '../version.js';

/** OpenAPI 3.1 generated from the routes' zod schemas; call before the routes are registered. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${PRODUCT_NAME} portal API`,
        version: appVersion,
        description:
          'Accounts, licenses and payments of the desktop AI assistant. Every call needs the `X-API-Key` ' +
          'header of a known client; calls on behalf of a user also need a bearer access token. ' +
          'Errors are `{ detail, message, code }`.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PATH,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
  app.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, async () => app.swagger());
}
