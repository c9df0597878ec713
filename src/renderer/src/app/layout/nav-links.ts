import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import { portalPaths } from '../../../../shared/routes';
import {
  ArrowRightIcon,
  BuildingIcon,
  CardIcon,
  CartIcon,
  ChartIcon,
  DownloadIcon,
  GaugeIcon,
  GridIcon,
  HelpIcon,
  KeyIcon,
  MailIcon,
  OfflineIcon,
  PackageIcon,
  RefreshIcon,
  ShieldIcon,
  SparkIcon,
  TicketIcon,
  UserIcon,
  UsersIcon,
} from '../../components/brand/icons';

export interface NavItem {
  label: MessageDescriptor;
  to: string;
  icon: ComponentType<{ size?: number }>;
  /** Active only on this exact path (an overview whose children have their own links). */
  exact?: boolean;
}

/** The signed-in user's screens. */
export const userNavItems: readonly NavItem[] = [
  { label: msg`Dashboard`, to: portalPaths.dashboard, icon: GridIcon },
  { label: msg`Licenses`, to: portalPaths.licenses, icon: KeyIcon },
  { label: msg`Usage`, to: portalPaths.usage, icon: ChartIcon },
  { label: msg`Purchase`, to: portalPaths.purchase, icon: CartIcon },
  { label: msg`Subscriptions`, to: portalPaths.subscriptions, icon: RefreshIcon },
  { label: msg`Billing`, to: portalPaths.billing, icon: CardIcon },
  { label: msg`Organizations`, to: portalPaths.organisations, icon: BuildingIcon },
  // Exact: Security, under /profile/security, has its own link.
  { label: msg`Profile`, to: portalPaths.profile, icon: UserIcon, exact: true },
  { label: msg`Security`, to: portalPaths.profileSecurity, icon: ShieldIcon },
  { label: msg`Support`, to: portalPaths.support, icon: HelpIcon },
  { label: msg`Offline activation`, to: portalPaths.offlineActivation, icon: OfflineIcon },
];

/** The administrator's screens. */
export const adminNavItems: readonly NavItem[] = [
  { label: msg`Overview`, to: portalPaths.admin, icon: GaugeIcon, exact: true },
  { label: msg`Users`, to: portalPaths.adminUsers, icon: UsersIcon },
  { label: msg`Organizations`, to: portalPaths.adminOrganisations, icon: BuildingIcon },
  { label: msg`Licenses`, to: portalPaths.adminLicenses, icon: KeyIcon },
  { label: msg`Usage`, to: portalPaths.adminUsage, icon: ChartIcon },
  { label: msg`Payments`, to: portalPaths.adminPayments, icon: CardIcon },
  { label: msg`Subscriptions`, to: portalPaths.adminSubscriptions, icon: RefreshIcon },
  { label: msg`Coupons`, to: portalPaths.adminCoupons, icon: TicketIcon },
  { label: msg`Support requests`, to: portalPaths.adminSupportRequests, icon: MailIcon },
  { label: msg`Webhooks`, to: portalPaths.adminWebhooks, icon: ArrowRightIcon },
  { label: msg`Releases`, to: portalPaths.adminReleases, icon: DownloadIcon },
  { label: msg`Offline activation`, to: portalPaths.adminOfflineActivation, icon: OfflineIcon },
  { label: msg`Features`, to: portalPaths.adminFeatures, icon: SparkIcon },
  { label: msg`Packages`, to: portalPaths.adminPackages, icon: PackageIcon },
  { label: msg`Security`, to: portalPaths.adminSecurity, icon: ShieldIcon },
  { label: msg`API tokens`, to: portalPaths.adminApiTokens, icon: KeyIcon },
];

/** Whether `item` is the current screen (license details count as Licenses). */
export const isActive = (item: NavItem, pathname: string): boolean =>
  item.exact ? pathname === item.to : pathname === item.to || pathname.startsWith(`${item.to}/`);
