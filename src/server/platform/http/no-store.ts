import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '../../../shared/routes.js';

const API_PREFIX = `${API_BASE_PATH}/`;

/**
 * API answers carry tokens and personal data (profiles, licenses, payments, a license's status by
 * its key), errors included, so no browser or proxy may keep a copy. Every API answer is
 * `no-store` unless its route chose its own caching (the public keys that verify leases).
 * Portal files and the API docs keep their own caching.
 */
export function addNoStoreToApiAnswers(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    // The route the router chose, not the raw URL: `/%61pi/v1/…` reaches the API too. Answers
    // no route took (an unknown API path's 404) go by the URL.
    const api = (request.routeOptions.url ?? request.url).startsWith(API_PREFIX);
    if (api && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
