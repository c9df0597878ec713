import { describe, expect, it } from 'vitest';
import * as constants from '../../src/shared/constants';
import { adminMessages, authMessages, licenseMessages, userMessages } from '../../src/shared/messages';

/*
 * The behaviour tests compare what the portal shows with the catalogue of src/shared/messages.ts;
 * these pin the catalogue (and the SPEC §9 constants) to the SPEC's exact words and numbers, so a
 * changed text cannot pass unnoticed. docs/spec-coverage.md cites both for each message.
 */

const catalogue: [string, string, string][] = [
  ['§5', 'authMessages.noTokenReceived', 'Authentication failed: No token received'],
  ['§5', 'authMessages.noRefreshToken', 'No refresh token available'],
  ['§5', 'authMessages.noAccessTokenInRefresh', 'No access token in refresh response'],
  [
    '§5',
    'authMessages.nonJsonResponse',
    'Server returned non-JSON response. Please check server configuration.',
  ],
  [
    '§5',
    'authMessages.htmlResponse',
    'Server configuration error: Expected JSON response but received HTML. Please contact support.',
  ],
  ['§8', 'authMessages.accessForbidden', 'Access forbidden'],
  ['§8', 'authMessages.noPermission', 'You do not have permission to access this resource'],
  ['§8', 'authMessages.unexpectedServerError', 'An unexpected server error occurred'],
  ['§8', 'authMessages.loginFailed', 'Login failed. Please check your credentials.'],
  ['§8', 'authMessages.registrationFailed', 'Registration failed'],
  ['§8', 'authMessages.sessionExpired', 'Session expired. Please login again.'],
  ['§8', 'authMessages.logoutFailed', 'Logout failed'],
  ['§8', 'userMessages.fetchProfileFailed', 'Failed to fetch user profile'],
  ['§8', 'userMessages.updateProfileFailed', 'Failed to update profile'],
  ['§8', 'userMessages.updatePreferencesFailed', 'Failed to update preferences'],
  ['§8', 'licenseMessages.fetchLicensesFailed', 'Failed to fetch licenses'],
  ['§8', 'licenseMessages.fetchLicenseFailed', 'Failed to fetch license'],
  ['§8', 'licenseMessages.activationFailed', 'License activation failed'],
  ['§8', 'licenseMessages.baseActivationFailed', 'Base license activation failed'],
  ['§8', 'licenseMessages.validationFailed', 'License validation failed'],
  ['§8', 'licenseMessages.deactivationFailed', 'License deactivation failed'],
  ['§8', 'licenseMessages.fetchUsageFailed', 'Failed to fetch license usage'],
  ['§8', 'licenseMessages.updateUsageFailed', 'Failed to update license usage'],
  ['§8', 'licenseMessages.featureCheckFailed', 'Failed to check feature availability'],
  ['§8', 'licenseMessages.trackUsageFailed', 'Failed to track feature usage'],
  ['§8', 'licenseMessages.fetchFeaturesFailed', 'Failed to fetch features'],
  ['§8', 'licenseMessages.activatePlanFailed', 'Failed to activate plan'],
  ['§8', 'licenseMessages.fetchCurrentPlanFailed', 'Failed to fetch current plan'],
  ['§8', 'licenseMessages.statusCheckFailed', 'Failed to check license status'],
  ['§8', 'licenseMessages.noResponse', 'No response received from server'],
  ['§8', 'licenseMessages.invalidResponseFormat', 'Invalid response format from server'],
  ['§4', 'licenseMessages.notConfigured', 'No license configured'],
  ['§8', 'adminMessages.fetchUsersFailed', 'Failed to fetch users'],
  ['§8', 'adminMessages.fetchUserFailed', 'Failed to fetch user'],
  ['§8', 'adminMessages.createUserFailed', 'Failed to create user'],
  ['§8', 'adminMessages.updateUserFailed', 'Failed to update user'],
  ['§8', 'adminMessages.deleteUserFailed', 'Failed to delete user'],
  ['§8', 'adminMessages.fetchLicensesFailed', 'Failed to fetch licenses'],
  ['§8', 'adminMessages.fetchLicenseFailed', 'Failed to fetch license'],
  ['§8', 'adminMessages.createLicenseFailed', 'Failed to create license'],
  ['§8', 'adminMessages.updateLicenseFailed', 'Failed to update license'],
  ['§8', 'adminMessages.revokeLicenseFailed', 'Failed to revoke license'],
  ['§8', 'adminMessages.fetchLicenseActivationsFailed', 'Failed to fetch license activations'],
  ['§8', 'adminMessages.fetchPaymentsFailed', 'Failed to fetch payments'],
  ['§8', 'adminMessages.fetchPaymentFailed', 'Failed to fetch payment'],
  ['§8', 'adminMessages.fetchSecurityEventsFailed', 'Failed to fetch security events'],
  ['§8', 'adminMessages.fetchSystemStatsFailed', 'Failed to fetch system stats'],
  ['§8', 'adminMessages.fetchFeaturesFailed', 'Failed to fetch features'],
  ['§8', 'adminMessages.fetchFeatureFailed', 'Failed to fetch feature'],
  ['§8', 'adminMessages.createFeatureFailed', 'Failed to create feature'],
  ['§8', 'adminMessages.updateFeatureFailed', 'Failed to update feature'],
  ['§8', 'adminMessages.deleteFeatureFailed', 'Failed to delete feature'],
];

const groups = { authMessages, userMessages, licenseMessages, adminMessages } as Record<
  string,
  Record<string, string>
>;

describe('SPEC §5 and §8 message catalogue', () => {
  it.each(catalogue)('SPEC %s: %s reads exactly %j', (_section, path, text) => {
    const [group = '', key = ''] = path.split('.');
    expect(groups[group]?.[key]).toBe(text);
  });
});

describe('SPEC §9 constants', () => {
  it.each([
    ['API_TIMEOUT_MS', 30_000],
    ['SESSION_INACTIVITY_TIMEOUT_MS', 30 * 60_000],
    ['SESSION_CHECK_INTERVAL_MS', 60_000],
    ['TOKEN_REFRESH_CHECK_INTERVAL_MS', 60_000],
    ['TOKEN_REFRESH_LEAD_MS', 5 * 60_000],
    ['TOKEN_REFRESH_IMMEDIATE_BELOW_MS', 60_000],
    ['REFRESH_COOKIE_MAX_AGE_DAYS', 30],
    ['ENCRYPTION_COOKIE_DEFAULT_MAX_AGE_DAYS', 7],
    ['KEY_DERIVATION_ITERATIONS', [2000, 1000]],
    ['KEY_LENGTH_BITS', 256],
    ['SESSION_ID_BITS', 128],
    ['SECURE_STORAGE_PREFIX', 'secure_'],
    ['DEFAULT_PAGE', 1],
    ['DEFAULT_PAGE_SIZE', 10],
    ['QUERY_CACHE_SECONDS', 60],
  ] as const)('SPEC §9: %s is %j', (name, value) => {
    expect((constants as Record<string, unknown>)[name]).toEqual(value);
  });
});
