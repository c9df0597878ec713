import { render } from '@testing-library/react';
import { act } from 'react';
import {
  type Location,
  MemoryRouter,
  type NavigateFunction,
  type NavigationType,
  useLocation,
  useNavigate,
  useNavigationType,
} from 'react-router-dom';
import { AppProviders } from '../../../src/renderer/src/app/providers';
import { AppRoutes } from '../../../src/renderer/src/app/router';
import { makeStore } from '../../../src/renderer/src/app/store';
import type { Services } from '../../../src/renderer/src/lib/services';
import { type FakeApi, testUser } from './fake-api';
import { tabServices } from './services';
import { localStorageKeys } from '../../../src/shared/storage-keys';

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

/**
 * The whole portal at `path` for a signed-in user (or administrator) whose account chose `language`
 * (the account's language wins over the browser's), on `machine` when the screen reads this
 * machine's license.
 */
export async function renderAppInLanguage(
  api: FakeApi,
  path: string,
  language: string,
  machine?: string,
  role: 'user' | 'admin' = 'user',
) {
  const account = { ...testUser, role, preferences: { ...testUser.preferences, language } };
  api.on('GET /users/me', () => ({ json: account }));
  const { services } = tabServices(api.baseURL);
  api.role = role;
  const issued = api.issue();
  await services.tokens.save({
    accessToken: issued.access_token,
    refreshToken: issued.refresh_token,
    user: account,
  });
  if (machine) services.local.setItem(localStorageKeys.hardwareId, machine);
  return renderApp(services, path);
}

/** What tests read of the router and do with it: where the portal is, and going elsewhere. */
export interface TestRouter {
  /** `historyAction`: how the current entry was reached (PUSH, REPLACE or POP). */
  state: { location: Location; historyAction: NavigationType };
  navigate(to: string): Promise<void>;
}

type Probe = { state: { location?: Location; historyAction?: NavigationType }; nav?: NavigateFunction };

/** Keeps `router` up to date with the rendered router's location and navigate function. */
function RouterProbe({ router }: { router: Probe }) {
  router.state.location = useLocation();
  router.state.historyAction = useNavigationType();
  router.nav = useNavigate();
  return null;
}

/**
 * The whole portal (providers, session gate, guards, lazy pages) in a memory router: the same
 * `AppRoutes` the browser build renders in its `<BrowserRouter>`.
 */
export function renderApp(services: Services, path: string, reload: () => void = () => undefined) {
  const store = makeStore({ services });
  const probe: Probe = { state: {} };
  const view = render(
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes services={services} reload={reload} />
        <RouterProbe router={probe} />
      </MemoryRouter>
    </AppProviders>,
  );
  const router: TestRouter = {
    state: {
      get location() {
        if (!probe.state.location) throw new Error('the router has not rendered');
        return probe.state.location;
      },
      get historyAction() {
        if (!probe.state.historyAction) throw new Error('the router has not rendered');
        return probe.state.historyAction;
      },
    },
    async navigate(to) {
      await act(async () => {
        await probe.nav?.(to);
      });
    },
  };
  return { ...view, router, store };
}
