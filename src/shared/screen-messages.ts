/**
 * The signed-in screens' and the desktop app's error messages (the first screens' are in
 * messages.ts): the server's own message wins when it sends one; these are fallbacks.
 */

export const userMessages = {
  fetchProfileFailed: 'Failed to fetch user profile',
  updateProfileFailed: 'Failed to update profile',
  updatePreferencesFailed: 'Failed to update preferences',
} as const;

export const licenseMessages = {
  fetchLicensesFailed: 'Failed to fetch licenses',
  fetchLicenseFailed: 'Failed to fetch license',
  activationFailed: 'License activation failed',
  baseActivationFailed: 'Base license activation failed',
  validationFailed: 'License validation failed',
  deactivationFailed: 'License deactivation failed',
  fetchUsageFailed: 'Failed to fetch license usage',
  updateUsageFailed: 'Failed to update license usage',
  featureCheckFailed: 'Failed to check feature availability',
  trackUsageFailed: 'Failed to track feature usage',
  fetchFeaturesFailed: 'Failed to fetch features',
  activatePlanFailed: 'Failed to activate plan',
  startTrialFailed: 'The free trial could not be started',
  fetchCurrentPlanFailed: 'Failed to fetch current plan',
  statusCheckFailed: 'Failed to check license status',
  noResponse: 'No response received from server',
  invalidResponseFormat: 'Invalid response format from server',
  notConfigured: 'No license configured',
} as const;

export const adminMessages = {
  fetchUsersFailed: 'Failed to fetch users',
  fetchUserFailed: 'Failed to fetch user',
  createUserFailed: 'Failed to create user',
  updateUserFailed: 'Failed to update user',
  deleteUserFailed: 'Failed to delete user',
  fetchLicensesFailed: 'Failed to fetch licenses',
  fetchLicenseFailed: 'Failed to fetch license',
  createLicenseFailed: 'Failed to create license',
  updateLicenseFailed: 'Failed to update license',
  revokeLicenseFailed: 'Failed to revoke license',
  changeTrialFailed: 'Failed to change the free trial',
  fetchLicenseActivationsFailed: 'Failed to fetch license activations',
  fetchPaymentsFailed: 'Failed to fetch payments',
  fetchPaymentFailed: 'Failed to fetch payment',
  fetchSecurityEventsFailed: 'Failed to fetch security events',
  fetchSystemStatsFailed: 'Failed to fetch system stats',
  fetchFeaturesFailed: 'Failed to fetch features',
  fetchFeatureFailed: 'Failed to fetch feature',
  createFeatureFailed: 'Failed to create feature',
  updateFeatureFailed: 'Failed to update feature',
  deleteFeatureFailed: 'Failed to delete feature',
} as const;
