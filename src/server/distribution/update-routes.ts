import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { updateCheckRequestSchema, updateCheckResponseSchema } from '../../shared/api/distribution.js';
import { apiPaths } from '../../shared/api-paths.js';
import { notFound } from '../platform/http-error.js';
import { apiKeySecurity, errorResponses } from '../platform/http/openapi-helpers.js';
import type { UpdateFeedService } from './update-feed.js';

const tags = ['licensing'];
const tokenSchema = z.string().min(1).max(1024);

/**
 * Updates for the desktop app. The check is a machine's call like the license check (key and
 * hardware id in the body, the client key in the header); the feed it answers is read by
 * electron-updater, which sends neither, so the signed token in the path is the credential.
 */
export const updateRoutes: FastifyPluginAsyncZod<{ updates: UpdateFeedService }> = async (
  app,
  { updates },
) => {
  app.post(
    apiPaths.updates.check,
    {
      schema: {
        operationId: 'checkForUpdates',
        tags,
        summary: "A machine's update check: counts its version and answers its update feed URL",
        description:
          'Needs an active license this machine is activated on, or holds a floating seat of now, known as ' +
          'the license check knows it (by seat key, fingerprint components or hardware id; else 403 with the reason, as the ' +
          "license check gives it). Give the answer's feed_url to electron-updater's generic provider.",
        security: apiKeySecurity,
        body: updateCheckRequestSchema,
        response: { 200: updateCheckResponseSchema, ...errorResponses(400, 403) },
      },
    },
    async (request) => updates.check(request.body),
  );

  app.get(
    apiPaths.updates.channelFile,
    {
      schema: {
        operationId: 'getUpdateChannelFile',
        tags,
        summary: 'An update channel file (latest.yml, latest-mac.yml, beta-linux.yml…) for electron-updater',
        description:
          "electron-builder's generic update format: the version offered to this machine (staged " +
          'rollouts decided per machine), its file with SHA-512 and size, the release date and notes.',
        security: [],
        params: z.object({ token: tokenSchema, channelFile: z.string().min(1).max(64) }),
        response: {
          200: z.any().describe('The channel file (text/yaml)'),
          ...errorResponses(403, 404, 410),
        },
      },
    },
    async (request, reply) =>
      reply
        .type('text/yaml; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(await updates.channelFile(request.params.token, request.params.channelFile)),
  );

  app.get(
    apiPaths.updates.file,
    {
      schema: {
        operationId: 'downloadUpdateFile',
        tags,
        summary: 'The file a channel file names, for electron-updater to download and verify',
        security: [],
        params: z.object({
          token: tokenSchema,
          releaseId: z.string().min(1).max(64),
          fileName: z.string().min(1).max(255),
        }),
        response: {
          200: z.any().describe('The file (application/octet-stream)'),
          ...errorResponses(403, 404, 410),
        },
      },
    },
    async (request, reply) => {
      const { token, releaseId, fileName } = request.params;
      const path = await updates.file(token, releaseId, fileName);
      const file = await stat(path).catch(() => undefined);
      if (!file) {
        request.log.error({ path }, 'release file missing from the releases folder');
        throw notFound(
          'release_file_missing',
          'The update file is missing on the server; please tell support',
        );
      }
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('cache-control', 'private, no-store')
        .send(createReadStream(path));
    },
  );
};
