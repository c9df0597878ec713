import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '../http-error.js';

export interface ApiKeyOptions {
  keys: { client: string; key: string }[];
  /** Full paths that monitoring reaches without a client key. */
  exempt: string[];
  /** Path prefixes opened without a key, such as signed download links a browser follows. */
  exemptPrefixes?: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Which configured client (web, desktop, …) sent the request. */
    apiClient: string | null;
  }
}

/** Gives every request the client its key names (null until a scope's check has found one). */
export function decorateApiClient(app: FastifyInstance): void {
  app.decorateRequest('apiClient', null);
}

/**
 * Checks `X-API-Key` on every request of the (encapsulated) scope it is added to; the request was
 * given `apiClient` by {@link decorateApiClient} at the root.
 */
export function addApiKeyCheck(
  scope: FastifyInstance,
  { keys, exempt, exemptPrefixes = [] }: ApiKeyOptions,
): void {
  // Digests of the configured keys, made once: a request costs one digest of what it presents,
  // compared in constant time with each of them (equal lengths, so nothing leaks through timing).
  const digest = (key: string) => createHash('sha256').update(key).digest();
  const known = keys.map(({ client, key }) => ({ client, digest: digest(key) }));
  scope.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    if (exempt.includes(path) || exemptPrefixes.some((prefix) => path.startsWith(prefix))) return done();
    const presented = request.headers['x-api-key'];
    let client: string | null = null;
    if (typeof presented === 'string') {
      const presentedDigest = digest(presented);
      // Every key is compared, so the time does not tell which one matched.
      for (const candidate of known)
        if (timingSafeEqual(candidate.digest, presentedDigest) && client === null) client = candidate.client;
    }
    if (client === null) return done(unauthorized('invalid_api_key', 'A valid X-API-Key header is required'));
    request.apiClient = client;
    done();
  });
}
