import { describe, expect, it } from 'vitest';
import { authMessages } from '../../src/shared/messages';
import { adminMessages, licenseMessages, userMessages } from '../../src/shared/screen-messages';

/*
 * The behaviour tests compare what the portal shows with the catalogue of src/shared/messages.ts;
 * these pin each catalogue entry to its exact words, so a changed text cannot pass unnoticed.
 * docs/spec-coverage.md cites both for each message.
 */

const catalogue: [string, string][] = [
  ['authMessages.noTokenReceived', 'Authentication failed: No token received'],
  ['authMessages.noRefreshToken', 'No refresh token available'],
  ['authMessages.noAccessTokenInRefresh', 'No access token in refresh response'],
  ['authMessages.nonJsonResponse', 'Server returned non-JSON response. Please check server configuration.'],
  [
    'authMessages.htmlResponse',
    'Server configuration error: Expected JSON response but received HTML. Please contact support.',
  ],
  ['authMessages.accessForbidden', 'Access forbidden'],
  ['authMessages.noPermission', 'You do not have permission to access this resource'],
  ['authMessages.unexpectedServerError', 'An unexpected server error occurred'],
  ['authMessages.loginFailed', 'Login failed. Please check your credentials.'],
  ['authMessages.registrationFailed', 'Registration failed'],
  ['authMessages.sessionExpired', 'Session expired. Please login again.'],
  ['authMessages.logoutFailed', 'Logout failed'],
  ['userMessages.fetchProfileFailed', 'Failed to fetch user profile'],
  ['userMessages.updateProfileFailed', 'Failed to update profile'],
  ['userMessages.updatePreferencesFailed', 'Failed to update preferences'],
  ['licenseMessages.fetchLicensesFailed', 'Failed to fetch licenses'],
  ['licenseMessages.fetchLicenseFailed', 'Failed to fetch license'],
  ['licenseMessages.activationFailed', 'License activation failed'],
  ['licenseMessages.baseActivationFailed', 'Base license activation failed'],
  ['licenseMessages.validationFailed', 'License validation failed'],
  ['licenseMessages.deactivationFailed', 'License deactivation failed'],
  ['licenseMessages.fetchUsageFailed', 'Failed to fetch license usage'],
  ['licenseMessages.updateUsageFailed', 'Failed to update license usage'],
  ['licenseMessages.featureCheckFailed', 'Failed to check feature availability'],
  ['licenseMessages.trackUsageFailed', 'Failed to track feature usage'],
  ['licenseMessages.fetchFeaturesFailed', 'Failed to fetch features'],
  ['licenseMessages.activatePlanFailed', 'Failed to activate plan'],
  ['licenseMessages.fetchCurrentPlanFailed', 'Failed to fetch current plan'],
  ['licenseMessages.statusCheckFailed', 'Failed to check license status'],
  ['licenseMessages.noResponse', 'No response received from server'],
  ['licenseMessages.invalidResponseFormat', 'Invalid response format from server'],
  ['licenseMessages.notConfigured', 'No license configured'],
  ['adminMessages.fetchUsersFailed', 'Failed to fetch users'],
  ['adminMessages.fetchUserFailed', 'Failed to fetch user'],
  ['adminMessages.createUserFailed', 'Failed to create user'],
  ['adminMessages.updateUserFailed', 'Failed to update user'],
  ['adminMessages.deleteUserFailed', 'Failed to delete user'],
  ['adminMessages.fetchLicensesFailed', 'Failed to fetch licenses'],
  ['adminMessages.fetchLicenseFailed', 'Failed to fetch license'],
  ['adminMessages.createLicenseFailed', 'Failed to create license'],
  ['adminMessages.updateLicenseFailed', 'Failed to update license'],
  ['adminMessages.revokeLicenseFailed', 'Failed to revoke license'],
  ['adminMessages.fetchLicenseActivationsFailed', 'Failed to fetch license activations'],
  ['adminMessages.fetchPaymentsFailed', 'Failed to fetch payments'],
  ['adminMessages.fetchPaymentFailed', 'Failed to fetch payment'],
  ['adminMessages.fetchSecurityEventsFailed', 'Failed to fetch security events'],
  ['adminMessages.fetchSystemStatsFailed', 'Failed to fetch system stats'],
  ['adminMessages.fetchFeaturesFailed', 'Failed to fetch features'],
  ['adminMessages.fetchFeatureFailed', 'Failed to fetch feature'],
  ['adminMessages.createFeatureFailed', 'Failed to create feature'],
  ['adminMessages.updateFeatureFailed', 'Failed to update feature'],
  ['adminMessages.deleteFeatureFailed', 'Failed to delete feature'],
];

const groups = { authMessages, userMessages, licenseMessages, adminMessages } as Record<
  string,
  Record<string, string>
>;

describe('message catalogue', () => {
  it.each(catalogue)('%s reads exactly %j', (path, text) => {
    const [group = '', key = ''] = path.split('.');
    expect(groups[group]?.[key]).toBe(text);
  });
});
