// The users feature as app/ and other features see it: the signed-in user's profile and preferences.
export {
  selectPreferences,
  selectUserError,
  selectUserProfile,
  selectUserStatus,
  userReducer,
  type UserState,
} from './user-slice';

/**
 * The signed-in header's theme switch (the account's theme applied and saved), loaded with the
 * signed-in screens: it brings the user endpoints, which the first download does without.
 */
export const loadAccountThemeToggle = () => import('./account-theme');

/** The signed-in header's language switch (the account's language shown and saved), loaded likewise. */
export const loadAccountLanguageSelect = () => import('./account-language');

/** Sends an administrator without a required second factor to enrol first; loaded with the admin screens. */
export const loadTwoFactorEnrolmentCheck = () => import('./two-factor/enrolment-check');

/** The step-up dialog (asks for the password or a code when a change needs it), mounted with the signed-in layout. */
export const loadStepUpHost = () => import('./two-factor/step-up-dialog');

/** The banner over every signed-in page while the account waits to be deleted (with its cancel button). */
export const loadDeletionBanner = () => import('./account-data/deletion-banner');
