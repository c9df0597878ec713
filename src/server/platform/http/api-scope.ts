import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH, UPDATE_FEED_PREFIX } from '../../../shared/routes.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { addApiKeyCheck, type ApiKeyOptions } from './api-key.js';

/** The API key rule of every route under /api/v1: which keys are known, and which paths need none. */
export function apiKeyRule(keys: ApiKeyOptions['keys']): ApiKeyOptions {
  return {
    keys,
    // Razorpay's webhook sends no client key; its signature is checked instead.
    // Nor does a mail provider's one-click unsubscribe: its signed token is the credential.
    exempt: [
      `${API_BASE_PATH}${apiPaths.health}`,
      `${API_BASE_PATH}${apiPaths.healthLive}`,
      `${API_BASE_PATH}${apiPaths.healthReady}`,
      `${API_BASE_PATH}${apiPaths.payments.webhook}`,
      `${API_BASE_PATH}${apiPaths.notifications.unsubscribe}`,
      // Nor does an identity provider sending the browser back: the state and its cookie are checked.
      `${API_BASE_PATH}${apiPaths.auth.ssoCallback}`,
    ],
    // Nor do download links and electron-updater's feed requests: their signed token is.
    exemptPrefixes: [
      `${API_BASE_PATH}${apiPaths.downloads.file.replace(':token', '')}`,
      `${API_BASE_PATH}${apiPaths.dataExports.download.replace(':token', '')}`,
      `${API_BASE_PATH}${UPDATE_FEED_PREFIX}`,
      // Nor do a SAML identity provider reading our metadata and the browser posting its answer:
      // the answer's signature, audience, recipient and request are checked.
      `${API_BASE_PATH}${apiPaths.auth.ssoSamlMetadata.replace(':organisationId/metadata', '')}`,
    ],
  };
}

/**
 * Registers a context's routes under /api/v1, behind the API key check: each context gets a scope
 * of its own, so the portal's pages and the JSON 404 of an unknown path stay outside the check
 * exactly as when every route shared one scope.
 */
export async function registerApiRoutes(
  app: FastifyInstance,
  routes: (api: FastifyInstance) => Promise<void>,
): Promise<void> {
  await app.register(
    async (api) => {
      addApiKeyCheck(api, app.platform.apiKeys);
      await routes(api);
    },
    { prefix: API_BASE_PATH },
  );
}
