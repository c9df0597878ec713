import { type ComponentType, lazy, type LazyExoticComponent, type ReactNode, Suspense, useMemo } from 'react';
import { type RouteObject, useRoutes } from 'react-router-dom';
import { portalPaths } from '../../../shared/routes';
import { AppLayout } from './layout/app-layout';
import { PublicFrame } from './layout/public-frame';
import type { Services } from '../lib/services';
import { PageLoading } from './loading-screens';
import { RouteErrorBoundary } from './route-error-fallback';
import { HomeRedirect, RedirectIfAuthenticated, RequireAdmin, RequireAuth, UserOnly } from './route-guards';
import { SessionGate } from './session-gate';
import { RequireTwoFactorEnrolment } from './two-factor-enrolment-guard';
import { type LazySliceName, SliceLoader } from './slice-loader';
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
  dashboard: lazy(() => import('../features/license/pages/dashboard-page')),
  licenses: lazy(() => import('../features/license/pages/licenses-page')),
  licenseDetail: lazy(() => import('../features/license/pages/license-detail-page')),
  profile: lazy(() => import('../features/user/pages/profile-page')),
  profileSecurity: lazy(() => import('../features/user/pages/security-page')),
  purchase: lazy(() => import('../features/payments/pages/purchase-page')),
  billing: lazy(() => import('../features/billing/pages/billing-page')),
  subscriptions: lazy(() => import('../features/subscriptions/pages/subscriptions-page')),
  support: lazy(() => import('../features/user/pages/support-page')),
  organisations: lazy(() => import('../features/organisations/pages/organisations-page')),
  organisationDetail: lazy(() => import('../features/organisations/pages/organisation-page')),
  acceptInvitation: lazy(() => import('../features/organisations/pages/accept-invitation-page')),
  offlineActivation: lazy(() => import('../features/offline-activation/pages/offline-activation-page')),
  offlineThisMachine: lazy(() => import('../features/offline-activation/pages/this-machine-offline-page')),
} satisfies Partial<Record<keyof typeof portalPaths, Page>>;

// The administrators' screens come through one lazy table of their own (admin-screens.tsx).
const AdminScreen = lazy(() => import('./admin-screens'));

export interface AppRoutesOptions {
  services: Services;
  /** What 'Refresh Page' does; the browser reload unless a test observes it. */
  reload?: () => void;
}

export function createAppRoutes({
  services,
  reload = () => window.location.reload(),
}: AppRoutesOptions): RouteObject[] {
  // Each screen has its own error boundary, so a failing page leaves the layout and navigation usable.
  const framed = (path: string, page: ReactNode): RouteObject => ({
    path,
    element: (
      <RouteErrorBoundary onReload={reload}>
        <Suspense fallback={<PageLoading />}>{page}</Suspense>
      </RouteErrorBoundary>
    ),
  });
  const screen = (name: keyof typeof pages): RouteObject => {
    const Page = pages[name];
    return framed(portalPaths[name], <Page />);
  };
  const adminScreen = (name: AdminScreenName): RouteObject =>
    framed(portalPaths[name], <AdminScreen name={name} />);

  return [
    {
      element: (
        <RouteErrorBoundary onReload={reload}>
          <SessionGate services={services} />
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
                  element: <AppLayout />,
                  children: [
                    {
                      element: <SliceLoader slices={USER_SLICES} />,
                      children: [
                        screen('dashboard'),
                        screen('licenses'),
                        screen('licenseDetail'),
                        screen('profile'),
                        screen('purchase'),
                        screen('billing'),
                        screen('subscriptions'),
                        screen('organisations'),
                        screen('organisationDetail'),
                        screen('support'),
                        screen('offlineActivation'),
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
          children: [{ element: <AppLayout />, children: [screen('profileSecurity')] }],
        },
        {
          element: <RequireAdmin />,
          children: [
            {
              element: <RequireTwoFactorEnrolment />,
              children: [
                {
                  element: <AppLayout />,
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
export function AppRoutes({ services, reload }: AppRoutesOptions) {
  const routes = useMemo(() => createAppRoutes({ services, reload }), [services, reload]);
  return useRoutes(routes);
}
