import { afterEach, beforeAll, beforeEach } from 'vitest';
import { loadPasswordRule } from '../../../src/renderer/src/features/auth/password-strength';
import { FakeApi } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

/**
 * Opens `path` in the whole portal (providers, session gate, router) against a fake API on
 * loopback, as an anonymous visitor.
 */
export async function openPortalPage(api: FakeApi, path: string) {
  const services = await servicesFor(api, 'anonymous');
  return renderApp(services, path);
}

export async function startFakeApi(): Promise<FakeApi> {
  const api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [] }));
  return api;
}

/**
 * For suites of pages with a new-password field: a fresh fake API for each test, and the strength
 * meter's rule (zxcvbn, loaded on first use) loaded once up front, so that one-off cost stays out
 * of the time each test allows. Returns the current test's fake API.
 */
export function usePasswordPageApi(): () => FakeApi {
  let api: FakeApi | undefined;
  beforeAll(async () => {
    await loadPasswordRule();
  }, 30_000);
  beforeEach(async () => {
    api = await startFakeApi();
  });
  afterEach(() => api?.close());
  return () => {
    if (!api) throw new Error('the fake API is started in beforeEach');
    return api;
  };
}
