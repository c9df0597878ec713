import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** What requests no route matched are counted as: portal pages and unknown paths alike. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts every answer by its route's pattern (`/api/v1/licenses/:id`, never the raw URL, which
 * would make a series per id and carry tokens) and status, with the time it took.
 */
export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequests.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
