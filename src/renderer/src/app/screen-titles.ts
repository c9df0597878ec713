import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { PRODUCT_NAME } from '../../../shared/constants';
import type { portalPaths } from '../../../shared/routes';

/** What a screen is called in the browser's tab and history: "Licenses · Desktop AI Assistant". */
export const documentTitle = (title: string): string => `${title} · ${PRODUCT_NAME}`;

/**
 * The public screens' titles. The signed-in screens' are in their lazy tables
 * (account-screens.tsx, admin-screens.tsx), out of the first download of /landing and /login.
 */
export const PUBLIC_SCREEN_TITLES = {
  landing: msg`Your AI assistant on the desktop`,
  login: msg`Sign in`,
  register: msg`Create account`,
  forgotPassword: msg`Reset your password`,
  resetPassword: msg`Choose a new password`,
  verifyRegistration: msg`Confirm your e-mail`,
  acceptInvitation: msg`Invitation`,
  offlineThisMachine: msg`Activate this machine by file`,
} satisfies Partial<Record<keyof typeof portalPaths, MessageDescriptor>>;

export type PublicScreenName = keyof typeof PUBLIC_SCREEN_TITLES;
