// Before any module builds a zod schema (see the file).
import './lib/zod-config';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import type { Plan } from '../../shared/api/plans';
import { portalPaths } from '../../shared/routes';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';
import { documentTitle, PUBLIC_SCREEN_TITLES, type PublicScreenName } from './app/screen-titles';
import { makeStore } from './app/store';
import { PrerenderedPlansContext } from './features/plans/prerendered-plans';
import type { CookieJar } from './lib/cookies';
import { portalI18n } from './lib/i18n/portal-i18n';
import { createServices } from './lib/services';

/** A storage that holds nothing: the build has no visitor, and nothing it renders reads one. */
class NoStorage implements Storage {
  readonly length = 0;
  clear() {}
  getItem() {
    return null;
  }
  key() {
    return null;
  }
  removeItem() {}
  setItem() {}
}

const noCookies: CookieJar = {
  get: () => null,
  set: () => undefined,
  remove: () => undefined,
  names: () => [],
  read: async () => null,
  settle: async () => undefined,
};

/**
 * One public page as a visitor with no stored session first sees it, rendered by React's server
 * renderer at build time (scripts/prerender-public-pages.ts) for main.tsx to hydrate: the whole
 * tree main.tsx renders, at `path`, the landing page's plans being `plans`. Resolves once every
 * lazy screen on the way has loaded, so the HTML holds the page itself, not its loading state.
 */
export async function renderPublicPage(path: string, plans: Plan[]): Promise<string> {
  const services = createServices({
    session: new NoStorage(),
    local: new NoStorage(),
    cookies: noCookies,
    bridge: undefined,
    isHttps: () => true,
  });
  const failures: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders store={makeStore({ services })}>
        <PrerenderedPlansContext value={plans}>
          <StaticRouter location={path}>
            <AppRoutes services={services} nothingToRestore />
          </StaticRouter>
        </PrerenderedPlansContext>
      </AppProviders>
    </StrictMode>,
    {
      // Every boundary inline, in place: larger ones would be sent after their loading state with
      // an inline script to swap them in, which the Content Security Policy refuses.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      // A part that fails here would be sent as its loading state and rendered by the client
      // alone: the build fails instead, naming it.
      onError: (error) => {
        failures.push(error);
      },
    },
  );
  if (failures.length > 0)
    throw new AggregateError(failures, `rendering ${path} failed: ${failures.map(String).join('; ')}`);
  return new Response(prelude).text();
}

/**
 * The title of the public page at `path` ("Sign in · Desktop AI Assistant"), in English as the
 * build renders it: the page carries it before its scripts run, which set it from then on.
 */
export function publicPageTitle(path: string): string {
  const name = Object.entries(portalPaths).find(([, screenPath]) => screenPath === path)?.[0];
  if (!name || !(name in PUBLIC_SCREEN_TITLES)) throw new Error(`${path} is not a public screen`);
  return documentTitle(portalI18n._(PUBLIC_SCREEN_TITLES[name as PublicScreenName]));
}
