import { PRODUCT_NAME } from '../../../shared/constants';
import type { portalPaths } from '../../../shared/routes';

/** The screens the router draws, by their name in `portalPaths` (`/` only redirects). */
export type ScreenName = Exclude<keyof typeof portalPaths, 'root'>;

/** What each screen is called in the browser's tab and history, before the product's name. */
export const SCREEN_TITLES: Record<ScreenName, string> = {
  landing: 'Your AI assistant on the desktop',
  login: 'Sign in',
  register: 'Create account',
  forgotPassword: 'Reset your password',
  resetPassword: 'Choose a new password',
  verifyRegistration: 'Confirm your e-mail',
  acceptInvitation: 'Invitation',
  offlineThisMachine: 'Activate this machine by file',
  dashboard: 'Dashboard',
  licenses: 'Licenses',
  licenseDetail: 'License details',
  profile: 'Profile',
  profileSecurity: 'Security',
  purchase: 'Purchase',
  billing: 'Billing',
  subscriptions: 'Subscriptions',
  support: 'Support',
  organisations: 'Organizations',
  organisationDetail: 'Organization',
  offlineActivation: 'Offline activation',
  admin: 'Overview · Admin',
  adminUsers: 'Users · Admin',
  adminLicenses: 'Licenses · Admin',
  adminPayments: 'Payments · Admin',
  adminSubscriptions: 'Subscriptions · Admin',
  adminOrganisations: 'Organizations · Admin',
  adminCoupons: 'Coupons · Admin',
  adminSupportRequests: 'Support requests · Admin',
  adminWebhooks: 'Webhooks · Admin',
  adminReleases: 'Releases · Admin',
  adminFeatures: 'Features · Admin',
  adminPackages: 'Packages · Admin',
  adminSecurity: 'Security · Admin',
  adminApiTokens: 'API tokens · Admin',
  adminOfflineActivation: 'Offline activation · Admin',
};

/** The document's title for a screen: "Licenses · Desktop AI Assistant". */
export const documentTitle = (screen: ScreenName): string => `${SCREEN_TITLES[screen]} · ${PRODUCT_NAME}`;
