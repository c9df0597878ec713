import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '../../../src/renderer/src/app/providers';
import { createAppRoutes } from '../../../src/renderer/src/app/router';
import { makeStore } from '../../../src/renderer/src/app/store';
import type { Services } from '../../../src/renderer/src/lib/services';
import { type FakeApi, testUser } from './fake-api';
import { tabServices } from './services';

export type Visitor = 'anonymous' | 'user' | 'admin';

/** Signs a visitor in the way the portal would find them on start-up: tokens in secure storage. */
export async function servicesFor(api: FakeApi, visitor: Visitor): Promise<Services> {
  const { services } = tabServices(api.baseURL);
  if (visitor !== 'anonymous') {
    api.role = visitor;
    const issued = api.issue();
    await services.tokens.save({
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      user: { ...testUser, role: visitor },
    });
  }
  return services;
}

/** The whole portal (providers, session gate, guards, lazy pages) in a memory router. */
export function renderApp(services: Services, path: string, reload: () => void = () => undefined) {
  const store = makeStore({ services });
  const router = createMemoryRouter(createAppRoutes({ services, reload }), { initialEntries: [path] });
  const view = render(
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, store };
}
