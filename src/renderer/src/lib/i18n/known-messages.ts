import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  GENERIC_FALLBACK,
  authMessages,
  renderErrorMessages,
  unreachableMessages,
} from '../../../../shared/messages';
import { adminMessages, licenseMessages, userMessages } from '../../../../shared/screen-messages';
import { DESKTOP_APP_MESSAGES, DESKTOP_APP_PATTERNS } from './desktop-app-messages';
import { DESKTOP_LICENSE_MESSAGES, DESKTOP_LICENSE_PATTERNS } from './desktop-license-messages';
import { FORM_MESSAGES, FORM_PATTERNS, type KnownPattern } from './form-messages';
import { LICENSE_CHECK_MESSAGES, LICENSE_CHECK_PATTERNS } from './license-check-messages';
import { PASSWORD_FEEDBACK_MESSAGES, PASSWORD_PATTERNS } from './password-feedback-messages';

/**
 * Every message the portal shows in SPEC's exact English (src/shared/messages.ts) or the server
 * sends a customer as its `message`, by its English, with its key in the catalogs: the English
 * stays as it is in the code and on the wire, and `knownText` (portal-i18n.ts) shows it in the
 * language chosen. Loaded with a language other than English, so the first download does without it.
 *
 * Messages the server builds around a value ("Try again in 3 minutes", field "detail"s) are not here:
 * they are shown as sent, except the shared schemas' few (KNOWN_PATTERNS, see form-messages.ts).
 * The desktop shell's main process speaks English too: its messages are in desktop-*-messages.ts.
 */
export const KNOWN_MESSAGES: ReadonlyMap<string, MessageDescriptor> = new Map([
  [GENERIC_FALLBACK, msg({ id: 'portal.requestFailed', message: 'Request failed' })],
  [
    authMessages.loginFailed,
    msg({ id: 'auth.loginFailed', message: 'Login failed. Please check your credentials.' }),
  ],
  [authMessages.registrationFailed, msg({ id: 'auth.registrationFailed', message: 'Registration failed' })],
  [
    authMessages.sessionExpired,
    msg({ id: 'auth.sessionExpired', message: 'Session expired. Please login again.' }),
  ],
  [
    authMessages.signInExpiredPassword,
    msg({
      id: 'auth.signInExpiredPassword',
      message: 'This sign-in has expired. Sign in again with your password.',
    }),
  ],
  [
    authMessages.signInExpiredSso,
    msg({
      id: 'auth.signInExpiredSso',
      message: "This sign-in has expired. Sign in again through your organization's identity provider.",
    }),
  ],
  [authMessages.logoutFailed, msg({ id: 'auth.logoutFailed', message: 'Logout failed' })],
  [
    authMessages.noTokenReceived,
    msg({ id: 'auth.noTokenReceived', message: 'Authentication failed: No token received' }),
  ],
  [authMessages.noRefreshToken, msg({ id: 'auth.noRefreshToken', message: 'No refresh token available' })],
  [
    authMessages.noAccessTokenInRefresh,
    msg({ id: 'auth.noAccessTokenInRefresh', message: 'No access token in refresh response' }),
  ],
  [
    authMessages.nonJsonResponse,
    msg({
      id: 'auth.nonJsonResponse',
      message: 'Server returned non-JSON response. Please check server configuration.',
    }),
  ],
  [
    authMessages.htmlResponse,
    msg({
      id: 'auth.htmlResponse',
      message:
        'Server configuration error: Expected JSON response but received HTML. Please contact support.',
    }),
  ],
  [authMessages.accessForbidden, msg({ id: 'auth.accessForbidden', message: 'Access forbidden' })],
  [
    authMessages.noPermission,
    msg({ id: 'auth.noPermission', message: 'You do not have permission to access this resource' }),
  ],
  [
    authMessages.unexpectedServerError,
    msg({ id: 'auth.unexpectedServerError', message: 'An unexpected server error occurred' }),
  ],
  [
    userMessages.fetchProfileFailed,
    msg({ id: 'user.fetchProfileFailed', message: 'Failed to fetch user profile' }),
  ],
  [
    userMessages.updateProfileFailed,
    msg({ id: 'user.updateProfileFailed', message: 'Failed to update profile' }),
  ],
  [
    userMessages.updatePreferencesFailed,
    msg({ id: 'user.updatePreferencesFailed', message: 'Failed to update preferences' }),
  ],
  [
    licenseMessages.fetchLicensesFailed,
    msg({ id: 'license.fetchLicensesFailed', message: 'Failed to fetch licenses' }),
  ],
  [
    licenseMessages.fetchLicenseFailed,
    msg({ id: 'license.fetchLicenseFailed', message: 'Failed to fetch license' }),
  ],
  [
    licenseMessages.activationFailed,
    msg({ id: 'license.activationFailed', message: 'License activation failed' }),
  ],
  [
    licenseMessages.baseActivationFailed,
    msg({ id: 'license.baseActivationFailed', message: 'Base license activation failed' }),
  ],
  [
    licenseMessages.validationFailed,
    msg({ id: 'license.validationFailed', message: 'License validation failed' }),
  ],
  [
    licenseMessages.deactivationFailed,
    msg({ id: 'license.deactivationFailed', message: 'License deactivation failed' }),
  ],
  [
    licenseMessages.fetchUsageFailed,
    msg({ id: 'license.fetchUsageFailed', message: 'Failed to fetch license usage' }),
  ],
  [
    licenseMessages.updateUsageFailed,
    msg({ id: 'license.updateUsageFailed', message: 'Failed to update license usage' }),
  ],
  [
    licenseMessages.featureCheckFailed,
    msg({ id: 'license.featureCheckFailed', message: 'Failed to check feature availability' }),
  ],
  [
    licenseMessages.trackUsageFailed,
    msg({ id: 'license.trackUsageFailed', message: 'Failed to track feature usage' }),
  ],
  [
    licenseMessages.fetchFeaturesFailed,
    msg({ id: 'license.fetchFeaturesFailed', message: 'Failed to fetch features' }),
  ],
  [
    licenseMessages.activatePlanFailed,
    msg({ id: 'license.activatePlanFailed', message: 'Failed to activate plan' }),
  ],
  [
    licenseMessages.startTrialFailed,
    msg({ id: 'license.startTrialFailed', message: 'The free trial could not be started' }),
  ],
  [
    licenseMessages.fetchCurrentPlanFailed,
    msg({ id: 'license.fetchCurrentPlanFailed', message: 'Failed to fetch current plan' }),
  ],
  [
    licenseMessages.statusCheckFailed,
    msg({ id: 'license.statusCheckFailed', message: 'Failed to check license status' }),
  ],
  [
    licenseMessages.noResponse,
    msg({ id: 'license.noResponse', message: 'No response received from server' }),
  ],
  [
    licenseMessages.invalidResponseFormat,
    msg({ id: 'license.invalidResponseFormat', message: 'Invalid response format from server' }),
  ],
  [licenseMessages.notConfigured, msg({ id: 'license.notConfigured', message: 'No license configured' })],
  [adminMessages.fetchUsersFailed, msg({ id: 'admin.fetchUsersFailed', message: 'Failed to fetch users' })],
  [adminMessages.fetchUserFailed, msg({ id: 'admin.fetchUserFailed', message: 'Failed to fetch user' })],
  [adminMessages.createUserFailed, msg({ id: 'admin.createUserFailed', message: 'Failed to create user' })],
  [adminMessages.updateUserFailed, msg({ id: 'admin.updateUserFailed', message: 'Failed to update user' })],
  [adminMessages.deleteUserFailed, msg({ id: 'admin.deleteUserFailed', message: 'Failed to delete user' })],
  [
    adminMessages.createLicenseFailed,
    msg({ id: 'admin.createLicenseFailed', message: 'Failed to create license' }),
  ],
  [
    adminMessages.updateLicenseFailed,
    msg({ id: 'admin.updateLicenseFailed', message: 'Failed to update license' }),
  ],
  [
    adminMessages.revokeLicenseFailed,
    msg({ id: 'admin.revokeLicenseFailed', message: 'Failed to revoke license' }),
  ],
  [
    adminMessages.changeTrialFailed,
    msg({ id: 'admin.changeTrialFailed', message: 'Failed to change the free trial' }),
  ],
  [
    adminMessages.fetchLicenseActivationsFailed,
    msg({ id: 'admin.fetchLicenseActivationsFailed', message: 'Failed to fetch license activations' }),
  ],
  [
    adminMessages.fetchPaymentsFailed,
    msg({ id: 'admin.fetchPaymentsFailed', message: 'Failed to fetch payments' }),
  ],
  [
    adminMessages.fetchPaymentFailed,
    msg({ id: 'admin.fetchPaymentFailed', message: 'Failed to fetch payment' }),
  ],
  [
    adminMessages.fetchSecurityEventsFailed,
    msg({ id: 'admin.fetchSecurityEventsFailed', message: 'Failed to fetch security events' }),
  ],
  [
    adminMessages.fetchSystemStatsFailed,
    msg({ id: 'admin.fetchSystemStatsFailed', message: 'Failed to fetch system stats' }),
  ],
  [
    adminMessages.fetchFeatureFailed,
    msg({ id: 'admin.fetchFeatureFailed', message: 'Failed to fetch feature' }),
  ],
  [
    adminMessages.createFeatureFailed,
    msg({ id: 'admin.createFeatureFailed', message: 'Failed to create feature' }),
  ],
  [
    adminMessages.updateFeatureFailed,
    msg({ id: 'admin.updateFeatureFailed', message: 'Failed to update feature' }),
  ],
  [
    adminMessages.deleteFeatureFailed,
    msg({ id: 'admin.deleteFeatureFailed', message: 'Failed to delete feature' }),
  ],
  [renderErrorMessages.title, msg({ id: 'renderError.title', message: 'Something went wrong' })],
  [
    renderErrorMessages.text,
    msg({
      id: 'renderError.text',
      message:
        'An error occurred while rendering this page. Please try refreshing the page or contact support if the problem persists.',
    }),
  ],
  [renderErrorMessages.refreshButton, msg({ id: 'renderError.refreshButton', message: 'Refresh Page' })],
  [unreachableMessages.title, msg({ id: 'unreachable.title', message: 'Can’t reach the server' })],
  [
    unreachableMessages.message,
    msg({
      id: 'unreachable.message',
      message: 'Can’t reach the server. Check your connection, then try again.',
    }),
  ],
  [
    unreachableMessages.text,
    msg({
      id: 'unreachable.text',
      message: 'The server did not answer, so this screen could not be loaded. Check your connection.',
    }),
  ],
  [unreachableMessages.retryButton, msg({ id: 'unreachable.retryButton', message: 'Try again' })],
  [
    unreachableMessages.stillUnreachable,
    msg({ id: 'unreachable.stillUnreachable', message: 'Still no answer.' }),
  ],
  [
    'Incorrect e-mail or password',
    msg({ id: 'server.invalid_credentials', message: 'Incorrect e-mail or password' }),
  ],
  [
    'This account is disabled. Contact support.',
    msg({ id: 'server.account_disabled', message: 'This account is disabled. Contact support.' }),
  ],
  [
    'Confirm your e-mail address before signing in: follow the link we sent when you registered.',
    msg({
      id: 'server.email_not_verified',
      message: 'Confirm your e-mail address before signing in: follow the link we sent when you registered.',
    }),
  ],
  [
    'Too many requests. Wait a minute and try again.',
    msg({ id: 'server.rate_limited', message: 'Too many requests. Wait a minute and try again.' }),
  ],
  ['Not authenticated', msg({ id: 'server.not_authenticated', message: 'Not authenticated' })],
  ['Invalid or expired token', msg({ id: 'server.invalid_token', message: 'Invalid or expired token' })],
  [
    'The server is busy signing people in. Try again in a moment.',
    msg({
      id: 'server.server_busy',
      message: 'The server is busy signing people in. Try again in a moment.',
    }),
  ],
  [
    'That code is not right. Try again.',
    msg({ id: 'server.invalid_code', message: 'That code is not right. Try again.' }),
  ],
  [
    'That code is not right. Enter the current code from your app.',
    msg({
      id: 'server.invalid_code_app',
      message: 'That code is not right. Enter the current code from your app.',
    }),
  ],
  [
    'The current password is incorrect',
    msg({ id: 'server.invalid_current_password', message: 'The current password is incorrect' }),
  ],
  [
    'That password is not right.',
    msg({ id: 'server.invalid_password', message: 'That password is not right.' }),
  ],
  [
    'This reset link is invalid or has expired. Ask for a new one.',
    msg({
      id: 'server.invalid_reset_token',
      message: 'This reset link is invalid or has expired. Ask for a new one.',
    }),
  ],
  [
    'This invitation has expired. Ask for a new one.',
    msg({ id: 'server.invitation_expired', message: 'This invitation has expired. Ask for a new one.' }),
  ],
  [
    'This invitation was withdrawn. Ask for a new one.',
    msg({ id: 'server.invitation_revoked', message: 'This invitation was withdrawn. Ask for a new one.' }),
  ],
  [
    'This invitation was already accepted: sign in instead.',
    msg({ id: 'server.invitation_used', message: 'This invitation was already accepted: sign in instead.' }),
  ],
  [
    'This sign-in has expired or was already used. Start again.',
    msg({
      id: 'server.sso_code_invalid',
      message: 'This sign-in has expired or was already used. Start again.',
    }),
  ],
  [
    'This passkey request has expired or was already used. Try again.',
    msg({
      id: 'server.passkey_ceremony_expired',
      message: 'This passkey request has expired or was already used. Try again.',
    }),
  ],
  [
    'This passkey is not registered with any account here.',
    msg({
      id: 'server.passkey_not_recognised',
      message: 'This passkey is not registered with any account here.',
    }),
  ],
  [
    'The passkey could not be verified. Try again.',
    msg({
      id: 'server.passkey_verification_failed',
      message: 'The passkey could not be verified. Try again.',
    }),
  ],
  [
    'The passkey could not be registered. Try again.',
    msg({
      id: 'server.passkey_registration_failed',
      message: 'The passkey could not be registered. Try again.',
    }),
  ],
  [
    'This passkey is already registered.',
    msg({ id: 'server.passkey_already_registered', message: 'This passkey is already registered.' }),
  ],
  [
    'Sign in to confirm it is you; an API token cannot.',
    msg({ id: 'server.session_required', message: 'Sign in to confirm it is you; an API token cannot.' }),
  ],
  [
    'That session has ended already, or is not yours.',
    msg({ id: 'server.session_not_found', message: 'That session has ended already, or is not yours.' }),
  ],
  [
    'Your preferences were being changed elsewhere. Try again.',
    msg({
      id: 'server.preferences_busy',
      message: 'Your preferences were being changed elsewhere. Try again.',
    }),
  ],
  ['License not found', msg({ id: 'server.license_not_found', message: 'License not found' })],
  [
    'No license has this key',
    msg({ id: 'server.license_not_found_key', message: 'No license has this key' }),
  ],
  [
    'This plan is not available',
    msg({ id: 'server.plan_not_available', message: 'This plan is not available' }),
  ],
  [
    'This plan is archived; archived plans are not sold again.',
    msg({ id: 'server.plan_archived', message: 'This plan is archived; archived plans are not sold again.' }),
  ],
  ['No coupon has this code', msg({ id: 'server.coupon_not_found', message: 'No coupon has this code' })],
  [
    'This coupon has been used as often as it allows',
    msg({ id: 'server.coupon_exhausted', message: 'This coupon has been used as often as it allows' }),
  ],
  [
    'This order is already paid',
    msg({ id: 'server.payment_already_completed', message: 'This order is already paid' }),
  ],
  [
    'This subscription has already ended',
    msg({ id: 'server.subscription_ended', message: 'This subscription has already ended' }),
  ],
  [
    'This free trial has already ended.',
    msg({ id: 'server.trial_already_ended', message: 'This free trial has already ended.' }),
  ],
  [
    'Every seat of the organization is taken: buy more seats or free one first.',
    msg({
      id: 'server.seats_full',
      message: 'Every seat of the organization is taken: buy more seats or free one first.',
    }),
  ],
  [
    'You are not a member of this organization.',
    msg({ id: 'server.not_a_member', message: 'You are not a member of this organization.' }),
  ],
  [
    'There is no such organization.',
    msg({ id: 'server.organisation_not_found', message: 'There is no such organization.' }),
  ],
  [
    'This release is not available',
    msg({ id: 'server.release_not_available', message: 'This release is not available' }),
  ],
  [
    'The request contains characters that are not allowed',
    msg({ id: 'server.invalid_characters', message: 'The request contains characters that are not allowed' }),
  ],
  [
    'The request could not be understood',
    msg({ id: 'server.request_not_understood', message: 'The request could not be understood' }),
  ],
  ...FORM_MESSAGES,
  ...PASSWORD_FEEDBACK_MESSAGES,
  ...LICENSE_CHECK_MESSAGES,
  ...DESKTOP_LICENSE_MESSAGES,
  ...DESKTOP_APP_MESSAGES,
]);

/** Messages built around a value that the portal still knows, tried in order after the map. */
export const KNOWN_PATTERNS: readonly KnownPattern[] = [
  ...FORM_PATTERNS,
  ...PASSWORD_PATTERNS,
  ...LICENSE_CHECK_PATTERNS,
  ...DESKTOP_LICENSE_PATTERNS,
  ...DESKTOP_APP_PATTERNS,
];
