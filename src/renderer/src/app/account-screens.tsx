import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { lazyScreens } from './lazy-screens';
import { ScreenTitle } from './screen-focus';

// The screens of a signed-in account, one lazy chunk each. Like the administrators' (see
// admin-screens.tsx), this table is loaded by the router's first signed-in route, so the preload
// lists its lazy imports carry stay out of the first download of /landing and /login.
const { pages, preloadAt } = lazyScreens({
  dashboard: () => import('../features/licenses/pages/dashboard-page'),
  licenses: () => import('../features/licenses/pages/licenses-page'),
  licenseDetail: () => import('../features/licenses/pages/license-detail-page'),
  usage: () => import('../features/licenses/pages/usage-page'),
  profile: () => import('../features/users/pages/profile-page'),
  profileSecurity: () => import('../features/users/pages/security-page'),
  purchase: () => import('../features/payments/pages/purchase-page'),
  billing: () => import('../features/invoices/pages/billing-page'),
  subscriptions: () => import('../features/subscriptions/pages/subscriptions-page'),
  support: () => import('../features/users/pages/support-page'),
  organisations: () => import('../features/organisations/pages/organisations-page'),
  organisationDetail: () => import('../features/organisations/pages/organisation-page'),
  offlineActivation: () => import('../features/offline-activation/pages/offline-activation-page'),
});

export type AccountScreenName = keyof typeof pages;

/** Starts downloading the screen at `pathname` (see AppLayout's `warm`). */
export const preloadAccountScreenAt = preloadAt;

/** Each screen's title in the browser's tab (see `documentTitle`). */
const titles: Record<AccountScreenName, MessageDescriptor> = {
  dashboard: msg`Dashboard`,
  licenses: msg`Licenses`,
  licenseDetail: msg`License details`,
  usage: msg`Usage`,
  profile: msg`Profile`,
  profileSecurity: msg`Security`,
  purchase: msg`Purchase`,
  billing: msg`Billing`,
  subscriptions: msg`Subscriptions`,
  support: msg`Support`,
  organisations: msg`Organizations`,
  organisationDetail: msg`Organization`,
  offlineActivation: msg`Offline activation`,
};

/** Draws one signed-in account's screen by its name in `portalPaths`, with its title. */
export default function AccountScreen({ name }: { name: AccountScreenName }) {
  const Page = pages[name];
  return (
    <>
      <ScreenTitle title={titles[name]} />
      <Page />
    </>
  );
}
