import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.js';

/**
 * The longest path segment any route or file of the portal has; Fastify's router is given the
 * same limit for parameters (`maxParamLength`), so an over-long segment is refused alike whether
 * it would reach a route, the web portal's files or nothing.
 */
export const MAX_PATH_SEGMENT_LENGTH = 100;

export const malformedPath = () =>
  new HttpError(400, 'malformed_path', 'The URL path has an empty segment (//): remove the extra slash');

export const uriTooLong = () =>
  new HttpError(
    414,
    'uri_too_long',
    `A part of the URL path is longer than ${MAX_PATH_SEGMENT_LENGTH} characters`,
  );

/**
 * Refuses paths no route can mean before anything routes them: an empty segment
 * (`/api/v1//health`, a feed URL joined with an extra slash) and an over-long segment. Without
 * this the web portal's catch-all file route took them and its file sender answered 403, which
 * on the update feed reads as "license refused".
 */
export function addPathRules(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const url = request.url;
    // Only origin-form targets (`/path?query`); anything else is left to the router to refuse.
    if (!url.startsWith('/')) return;
    const path = url.split('?', 1)[0] ?? '';
    if (path.includes('//')) throw malformedPath();
    if (path.split('/').some((segment) => segment.length > MAX_PATH_SEGMENT_LENGTH)) throw uriTooLong();
  });
}
