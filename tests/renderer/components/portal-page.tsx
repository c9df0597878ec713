import { setServices } from '../../../src/renderer/src/lib/services';
import { FakeApi } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

/**
 * Opens `path` in the whole portal (providers, session gate, router) against a fake API on
 * loopback, as an anonymous visitor. The page-level API functions use the app's services, so
 * those are pointed at the same fake API.
 */
export async function openPortalPage(api: FakeApi, path: string) {
  const services = await servicesFor(api, 'anonymous');
  setServices(services);
  return renderApp(services, path);
}

export async function startFakeApi(): Promise<FakeApi> {
  const api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [] }));
  return api;
}
