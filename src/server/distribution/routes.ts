import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiPaths } from '../../shared/api-paths.js';
import { notFound } from '../platform/http-error.js';
import { errorResponses } from '../platform/http/openapi-helpers.js';
import type { DownloadsService } from './service.js';

/**
 * The installer behind a signed link from `GET /licenses/{id}/download`. Browsers follow the link
 * directly, so it carries its own authority and needs neither the API key nor a bearer token.
 */
export const downloadRoutes: FastifyPluginAsyncZod<{ downloads: DownloadsService }> = async (
  app,
  { downloads },
) => {
  app.get(
    apiPaths.downloads.file,
    {
      schema: {
        operationId: 'downloadInstaller',
        tags: ['licenses'],
        summary: 'Download an installer through a signed link',
        // The signed link in the path is the credential: no API key, no bearer token.
        security: [],
        params: z.object({ token: z.string().min(1).max(1024) }),
        response: {
          200: z.any().describe('The installer (application/octet-stream)'),
          ...errorResponses(404, 410),
        },
      },
    },
    async (request, reply) => {
      const { release, path } = await downloads.release(request.params.token);
      const file = await stat(path).catch(() => undefined);
      if (!file) {
        request.log.error({ path }, 'release file missing from the releases folder');
        throw notFound(
          'release_file_missing',
          'The installer file is missing on the server; please tell support',
        );
      }
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(file.size))
        .header(
          'content-disposition',
          `attachment; filename="${release.file_name.replace(/["\\\r\n]/g, '_')}"`,
        )
        .header('x-checksum-sha256', release.sha256)
        .header('cache-control', 'private, no-store')
        .send(createReadStream(path));
    },
  );
};
