import type { FastifyInstance, FastifyRequest } from 'fastify';
import { constantTimeEqual } from '../crypto.js';
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

/** Checks `X-API-Key` on every request of the (encapsulated) scope it is added to. */
export function addApiKeyCheck(
  scope: FastifyInstance,
  { keys, exempt, exemptPrefixes = [] }: ApiKeyOptions,
): void {
  scope.decorateRequest('apiClient', null);
  scope.addHook('onRequest', async (request: FastifyRequest) => {
    const path = request.url.split('?')[0] ?? '';
    if (exempt.includes(path) || exemptPrefixes.some((prefix) => path.startsWith(prefix))) return;
    const presented = request.headers['x-api-key'];
    const match =
      typeof presented === 'string' ? keys.find(({ key }) => constantTimeEqual(key, presented)) : undefined;
    if (!match) throw unauthorized('invalid_api_key', 'A valid X-API-Key header is required');
    request.apiClient = match.client;
  });
}
