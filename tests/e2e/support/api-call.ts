import { expect } from 'vitest';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import { WEB_API_KEY } from '../../support/test-server.js';
import type { Portal } from './portal.js';

/**
 * A call to the portal's server as the portal makes it (in-process, with the web client's key and
 * `token` when given), which must succeed: its JSON answer. For setting up what a browser test
 * then shows.
 */
export function apiCaller(portal: Portal) {
  return async function call(method: string, path: string, token: string | undefined, body?: unknown) {
    const response = await portal.server.app.inject({
      method: method as 'GET',
      url: `${API_BASE_PATH}${path}`,
      headers: { 'x-api-key': WEB_API_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
    return response.json<Record<string, unknown>>();
  };
}
