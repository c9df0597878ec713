import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { lazyScreens } from './lazy-screens';
import { ScreenTitle } from './screen-focus';
import { includeAdminCatalogs } from '../lib/i18n/portal-i18n';

// The administrators' words come with their screens: customers download none of them.
void includeAdminCatalogs();

// The administrators' screens, one lazy chunk each. This table is itself loaded lazily, by the
// router's first admin route: every lazy import carries the list of files to preload with it, and
// kept in the router these lists would be in every visitor's first download (/landing, /login),
// which has a budget of 150 KB that each admin screen was eating into.
const { pages, preloadAt } = lazyScreens({
  admin: () => import('../features/admin/pages/dashboard-page'),
  adminUsers: () => import('../features/admin/pages/users-page'),
  adminLicenses: () => import('../features/admin/pages/licenses-page'),
  adminPayments: () => import('../features/admin/pages/payments-page'),
  adminSubscriptions: () => import('../features/admin/pages/subscriptions-page'),
  adminOrganisations: () => import('../features/admin/pages/organisations-page'),
  adminUsage: () => import('../features/admin/pages/usage-page'),
  adminCoupons: () => import('../features/admin/pages/coupons-page'),
  adminSupportRequests: () => import('../features/admin/pages/support-requests-page'),
  adminWebhooks: () => import('../features/admin/pages/webhooks-page'),
  adminReleases: () => import('../features/admin/pages/releases-page'),
  adminFeatures: () => import('../features/admin/pages/features-page'),
  adminPackages: () => import('../features/admin/pages/packages-page'),
  adminSecurity: () => import('../features/admin/pages/security-page'),
  adminApiTokens: () => import('../features/admin/pages/api-tokens-page'),
  // The customers' page: an administrator's uploads go to the admin routes, for any license.
  adminOfflineActivation: () => import('../features/offline-activation/pages/offline-activation-page'),
});

export type AdminScreenName = keyof typeof pages;

/** Starts downloading the screen at `pathname` (see AppLayout's `warm`). */
export const preloadAdminScreenAt = preloadAt;

/** Each screen's title in the browser's tab (see `documentTitle`). */
const titles: Record<AdminScreenName, MessageDescriptor> = {
  admin: msg`Overview · Admin`,
  adminUsers: msg`Users · Admin`,
  adminLicenses: msg`Licenses · Admin`,
  adminPayments: msg`Payments · Admin`,
  adminSubscriptions: msg`Subscriptions · Admin`,
  adminOrganisations: msg`Organizations · Admin`,
  adminUsage: msg`Usage · Admin`,
  adminCoupons: msg`Coupons · Admin`,
  adminSupportRequests: msg`Support requests · Admin`,
  adminWebhooks: msg`Webhooks · Admin`,
  adminReleases: msg`Releases · Admin`,
  adminFeatures: msg`Features · Admin`,
  adminPackages: msg`Packages · Admin`,
  adminSecurity: msg`Security · Admin`,
  adminApiTokens: msg`API tokens · Admin`,
  adminOfflineActivation: msg`Offline activation · Admin`,
};

/** Draws one administrators' screen by its name in `portalPaths`, with its title. */
export default function AdminScreen({ name }: { name: AdminScreenName }) {
  const Page = pages[name];
  return (
    <>
      <ScreenTitle title={titles[name]} />
      <Page />
    </>
  );
}
