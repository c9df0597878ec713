import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiPaths } from '../../../shared/routes.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { HttpError, notFound } from '../../http-error.js';
import { errorResponses } from '../../plugins/openapi-helpers.js';
import { findRelease, releaseFilePath } from './releases.js';
import type { DownloadLinks } from './signed-links.js';

export interface DownloadRoutesOptions {
  db: Db;
  clock: Clock;
  links: DownloadLinks;
  releasesDir: string;
}

const expired = () =>
  new HttpError(
    410,
    'download_link_expired',
    'This download link has expired. Start the download again from your license page.',
  );

/**
 * The installer behind a signed link from `GET /licenses/{id}/download`. Browsers follow the link
 * directly, so it carries its own authority and needs neither the API key nor a bearer token.
 */
export const downloadRoutes: FastifyPluginAsyncZod<DownloadRoutesOptions> = async (
  app,
  { db, clock, links, releasesDir },
) => {
  app.get(
    apiPaths.downloads.file,
    {
      schema: {
        tags: ['licenses'],
        summary: 'Download an installer through a signed link',
        params: z.object({ token: z.string().min(1).max(1024) }),
        response: {
          200: z.any().describe('The installer (application/octet-stream)'),
          ...errorResponses(404, 410),
        },
      },
    },
    async (request, reply) => {
      const grant = links.verify(request.params.token, Math.floor(clock.now().getTime() / 1000));
      if (!grant) throw expired();
      const release = await findRelease(db, grant.releaseId);
      if (!release) throw notFound('release_not_found', 'This release is no longer available');
      const path = releaseFilePath(releasesDir, release);
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
