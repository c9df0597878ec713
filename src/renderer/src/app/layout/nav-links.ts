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
  label: string;
  to: string;
  icon: ComponentType<{ size?: number }>;
  /** Active only on this exact path (an overview whose children have their own links). */
  exact?: boolean;
}

/** The signed-in user's screens. */
export const userNavItems: readonly NavItem[] = [
  { label: 'Dashboard', to: portalPaths.dashboard, icon: GridIcon },
  { label: 'Licenses', to: portalPaths.licenses, icon: KeyIcon },
  { label: 'Usage', to: portalPaths.usage, icon: ChartIcon },
  { label: 'Purchase', to: portalPaths.purchase, icon: CartIcon },
  { label: 'Subscriptions', to: portalPaths.subscriptions, icon: RefreshIcon },
  { label: 'Billing', to: portalPaths.billing, icon: CardIcon },
  { label: 'Organizations', to: portalPaths.organisations, icon: BuildingIcon },
  // Exact: Security, under /profile/security, has its own link.
  { label: 'Profile', to: portalPaths.profile, icon: UserIcon, exact: true },
  { label: 'Security', to: portalPaths.profileSecurity, icon: ShieldIcon },
  { label: 'Support', to: portalPaths.support, icon: HelpIcon },
  { label: 'Offline activation', to: portalPaths.offlineActivation, icon: OfflineIcon },
];

/** The administrator's screens. */
export const adminNavItems: readonly NavItem[] = [
  { label: 'Overview', to: portalPaths.admin, icon: GaugeIcon, exact: true },
  { label: 'Users', to: portalPaths.adminUsers, icon: UsersIcon },
  { label: 'Organizations', to: portalPaths.adminOrganisations, icon: BuildingIcon },
  { label: 'Licenses', to: portalPaths.adminLicenses, icon: KeyIcon },
  { label: 'Usage', to: portalPaths.adminUsage, icon: ChartIcon },
  { label: 'Payments', to: portalPaths.adminPayments, icon: CardIcon },
  { label: 'Subscriptions', to: portalPaths.adminSubscriptions, icon: RefreshIcon },
  { label: 'Coupons', to: portalPaths.adminCoupons, icon: TicketIcon },
  { label: 'Support requests', to: portalPaths.adminSupportRequests, icon: MailIcon },
  { label: 'Webhooks', to: portalPaths.adminWebhooks, icon: ArrowRightIcon },
  { label: 'Releases', to: portalPaths.adminReleases, icon: DownloadIcon },
  { label: 'Offline activation', to: portalPaths.adminOfflineActivation, icon: OfflineIcon },
  { label: 'Features', to: portalPaths.adminFeatures, icon: SparkIcon },
  { label: 'Packages', to: portalPaths.adminPackages, icon: PackageIcon },
  { label: 'Security', to: portalPaths.adminSecurity, icon: ShieldIcon },
  { label: 'API tokens', to: portalPaths.adminApiTokens, icon: KeyIcon },
];

/** Whether `item` is the current screen (license details count as Licenses). */
export const isActive = (item: NavItem, pathname: string): boolean =>
  item.exact ? pathname === item.to : pathname === item.to || pathname.startsWith(`${item.to}/`);
