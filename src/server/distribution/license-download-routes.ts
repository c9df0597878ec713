import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  downloadQuerySchema,
  downloadResponseSchema,
  licenseIdSchema,
  licenseRefusalSchema,
} from '../../shared/api/licenses.js';
import { apiPaths } from '../../shared/api-paths.js';
import { currentUser } from '../platform/http/current-user.js';
import { bearerSecurity, errorResponses } from '../platform/http/openapi-helpers.js';
import type { LicenseDownloadsService } from './license-downloads.js';

/** Refused downloads answer with the license's status fields as well as the error, as license checks do. */
const refusals = { 400: licenseRefusalSchema, 403: licenseRefusalSchema, 404: licenseRefusalSchema };

/** A license's newest installers, under the license's own path: `GET /licenses/{id}/download`. */
export const licenseDownloadRoutes: FastifyPluginAsyncZod<{ downloads: LicenseDownloadsService }> = async (
  app,
  { downloads },
) => {
  app.addHook('onRequest', app.requireUser);
  app.get(
    apiPaths.licenses.download,
    {
      schema: {
        operationId: 'getLicenseDownloads',
        tags: ['licenses'],
        summary: 'Newest desktop installers with signed links, sizes and SHA-256 checksums',
        security: bearerSecurity,
        params: z.object({ id: licenseIdSchema }),
        querystring: downloadQuerySchema,
        response: { 200: downloadResponseSchema, ...refusals, ...errorResponses(401) },
      },
    },
    async (request) =>
      downloads.download(currentUser(request).user, request.params.id, request.query.platform),
  );
};
