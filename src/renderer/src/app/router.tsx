import { type ComponentType, lazy, type LazyExoticComponent, type ReactNode, Suspense, useMemo } from 'react';
import { type RouteObject, useRoutes } from 'react-router-dom';
import { portalPaths } from '../../../shared/routes';
import { AppLayout } from './layout/app-layout';
import { PublicFrame } from './layout/public-frame';
import type { Services } from '../lib/services';
import { PageLoading } from './loading-screens';
import { RouteErrorBoundary } from './route-error-fallback';
import { ScreenFocusScope, ScreenHeadingFocus, ScreenTitle } from './screen-focus';
import { PUBLIC_SCREEN_TITLES } from './screen-titles';
import { HomeRedirect, RedirectIfAuthenticated, RequireAdmin, RequireAuth, UserOnly } from './route-guards';
import { SessionGate } from './session-gate';
import { RequireTwoFactorEnrolment } from './two-factor-enrolment-guard';
import { type LazySliceName, prefetchSlices, SliceLoader } from './slice-loader';
import type { AccountScreenName } from './account-screens';
import type { AdminScreenName } from './admin-screens';

// The slices each area's screens use, loaded when the area is first entered (not on /landing or /login).
const USER_SLICES: readonly LazySliceName[] = ['license'];
const ADMIN_SLICES: readonly LazySliceName[] = ['license', 'admin'];

type Page = LazyExoticComponent<ComponentType>;

// One lazy component per screen: each is its own chunk, loaded on first visit.
const pages = {
  landing: lazy(() => import('../features/plans/pages/landing-page')),
  login: lazy(() => import('../features/auth/pages/login-page')),
  register: lazy(() => import('../features/auth/pages/register-page')),
  forgotPassword: lazy(() => import('../features/auth/pages/forgot-password-page')),
  resetPassword: lazy(() => import('../features/auth/pages/reset-password-page')),
  verifyRegistration: lazy(() => import('../features/auth/pages/verify-registration-page')),
  acceptInvitation: lazy(() => import('../features/organisations/pages/accept-invitation-page')),
  offlineThisMachine: lazy(() => import('../features/offline-activation/pages/this-machine-offline-page')),
} satisfies Partial<Record<keyof typeof portalPaths, Page>>;

// The signed-in screens come through lazy tables of their own (account-screens.tsx, admin-screens.tsx).
const loadAccountScreens = () => import('./account-screens');
const loadAdminScreens = () => import('./admin-screens');
const AccountScreen = lazy(loadAccountScreens);
const AdminScreen = lazy(loadAdminScreens);

// What each area's layout starts downloading at once (see AppLayout): its slices, its table of
// screens and, from the table, the screen at the address entered.
const warmAccountScreen = (pathname: string) => {
  loadAccountScreens().then(
    ({ preloadAccountScreenAt }) => preloadAccountScreenAt(pathname),
    () => undefined,
  );
};
const warmAccountArea = (pathname: string) => {
  prefetchSlices(USER_SLICES);
  warmAccountScreen(pathname);
};
const warmAdminArea = (pathname: string) => {
  prefetchSlices(ADMIN_SLICES);
  loadAdminScreens().then(
    ({ preloadAdminScreenAt }) => preloadAdminScreenAt(pathname),
    () => undefined,
  );
};

export interface AppRoutesOptions {
  services: Services;
  /** What 'Refresh Page' does; the browser reload unless a test observes it. */
  reload?: () => void;
  /** No stored session to restore: the session gate renders the route at once (see SessionGate). */
  nothingToRestore?: boolean;
}

export function createAppRoutes({
  services,
  reload = () => window.location.reload(),
  nothingToRestore = false,
}: AppRoutesOptions): RouteObject[] {
  // Each screen has its own error boundary, so a failing page leaves the layout and navigation
  // usable; its own title, and (once its page is there) focus on its heading after a navigation.
  const framed = (path: string, page: ReactNode, title?: ReactNode): RouteObject => ({
    path,
    element: (
      <RouteErrorBoundary onReload={reload}>
        {title}
        <Suspense fallback={<PageLoading />}>
          {page}
          <ScreenHeadingFocus />
        </Suspense>
      </RouteErrorBoundary>
    ),
  });
  const screen = (name: keyof typeof pages): RouteObject => {
    const Page = pages[name];
    return framed(portalPaths[name], <Page />, <ScreenTitle title={PUBLIC_SCREEN_TITLES[name]} />);
  };
  // The signed-in screens' tables set their titles themselves.
  const accountScreen = (name: AccountScreenName): RouteObject =>
    framed(portalPaths[name], <AccountScreen name={name} />);
  const adminScreen = (name: AdminScreenName): RouteObject =>
    framed(portalPaths[name], <AdminScreen name={name} />);

  return [
    {
      element: (
        <RouteErrorBoundary onReload={reload}>
          <SessionGate services={services} nothingToRestore={nothingToRestore} />
        </RouteErrorBoundary>
      ),
      children: [
        {
          element: <PublicFrame />,
          children: [
            screen('landing'),
            {
              element: <RedirectIfAuthenticated />,
              children: [screen('login'), screen('register'), screen('forgotPassword')],
            },
            screen('resetPassword'),
            screen('verifyRegistration'),
            // Signed in or not: the page itself tells who may join and how.
            screen('acceptInvitation'),
            // Signed in or not: a machine without network cannot sign in.
            screen('offlineThisMachine'),
          ],
        },
        {
          element: <RequireAuth />,
          children: [
            {
              element: <UserOnly />,
              children: [
                {
                  element: <AppLayout warm={warmAccountArea} />,
                  children: [
                    {
                      element: <SliceLoader slices={USER_SLICES} />,
                      children: [
                        accountScreen('dashboard'),
                        accountScreen('licenses'),
                        accountScreen('licenseDetail'),
                        accountScreen('usage'),
                        accountScreen('profile'),
                        accountScreen('purchase'),
                        accountScreen('billing'),
                        accountScreen('subscriptions'),
                        accountScreen('organisations'),
                        accountScreen('organisationDetail'),
                        accountScreen('support'),
                        accountScreen('offlineActivation'),
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
        {
          // Every signed-in account, administrators included: where a second factor is enrolled.
          element: <RequireAuth />,
          children: [
            { element: <AppLayout warm={warmAccountScreen} />, children: [accountScreen('profileSecurity')] },
          ],
        },
        {
          element: <RequireAdmin />,
          children: [
            {
              element: <RequireTwoFactorEnrolment />,
              children: [
                {
                  element: <AppLayout warm={warmAdminArea} />,
                  children: [
                    {
                      element: <SliceLoader slices={ADMIN_SLICES} />,
                      children: [
                        adminScreen('admin'),
                        adminScreen('adminUsers'),
                        adminScreen('adminLicenses'),
                        adminScreen('adminPayments'),
                        adminScreen('adminSubscriptions'),
                        adminScreen('adminOrganisations'),
                        adminScreen('adminUsage'),
                        adminScreen('adminCoupons'),
                        adminScreen('adminSupportRequests'),
                        adminScreen('adminWebhooks'),
                        adminScreen('adminReleases'),
                        adminScreen('adminFeatures'),
                        adminScreen('adminPackages'),
                        adminScreen('adminSecurity'),
                        adminScreen('adminApiTokens'),
                        adminScreen('adminOfflineActivation'),
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
        { path: portalPaths.root, element: <HomeRedirect /> },
        { path: '*', element: <HomeRedirect /> },
      ],
    },
  ];
}

/**
 * The portal's routes, rendered inside a `<BrowserRouter>` (or a `<MemoryRouter>` in tests). The
 * declarative router is enough here (no loaders or actions; error boundaries are the portal's own)
 * and keeps react-router's data-router machinery out of the first download.
 */
export function AppRoutes({ services, reload, nothingToRestore }: AppRoutesOptions) {
  const routes = useMemo(
    () => createAppRoutes({ services, reload, nothingToRestore }),
    [services, reload, nothingToRestore],
  );
  return <ScreenFocusScope>{useRoutes(routes)}</ScreenFocusScope>;
}
