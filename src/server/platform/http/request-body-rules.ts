import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';
import { refuseNulCharacters } from '../nul-characters.js';

// The first `charset` parameter of a Content-Type header, quoted or not.
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const UTF_8_LABELS = new Set(['utf-8', 'utf8']);

const hasBody = (request: FastifyRequest): boolean =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/**
 * What every request body must be, whatever the route:
 * - UTF-8 text: every parser reads bodies as UTF-8, so a body declared in another charset would
 *   be misread rather than refused (an absent charset means UTF-8);
 * - free of NUL characters, checked after the route's own validation so that a field's schema
 *   still answers first with its own words.
 */
export function addRequestBodyRules(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const charset = CHARSET_PARAMETER.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && hasBody(request) && !UTF_8_LABELS.has(charset.toLowerCase())) {
      done(
        new HttpError(
          415,
          'unsupported_charset',
          `Request bodies must be UTF-8 (charset=utf-8), not charset=${charset.slice(0, 40)}`,
        ),
      );
      return;
    }
    done(null, payload);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    try {
      // A body kept as raw bytes (the payment webhook) is checked by its route once parsed.
      if (!Buffer.isBuffer(request.body)) refuseNulCharacters(request.body);
      refuseNulCharacters(request.query, 'query');
      // A path parameter reaches the database too: refused alike on SQLite and PostgreSQL.
      refuseNulCharacters(request.params, 'params');
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
