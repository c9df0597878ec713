/** The portal's error messages: the server's own message wins when it sends one; these are fallbacks. */

export const authMessages = {
  loginFailed: 'Login failed. Please check your credentials.',
  registrationFailed: 'Registration failed',
  sessionExpired: 'Session expired. Please login again.',
  /** A second step whose challenge expired (or was spent), after a password or a single sign-on. */
  signInExpiredPassword: 'This sign-in has expired. Sign in again with your password.',
  signInExpiredSso: "This sign-in has expired. Sign in again through your organization's identity provider.",
  logoutFailed: 'Logout failed',
  noTokenReceived: 'Authentication failed: No token received',
  noRefreshToken: 'No refresh token available',
  noAccessTokenInRefresh: 'No access token in refresh response',
  nonJsonResponse: 'Server returned non-JSON response. Please check server configuration.',
  htmlResponse:
    'Server configuration error: Expected JSON response but received HTML. Please contact support.',
  accessForbidden: 'Access forbidden',
  noPermission: 'You do not have permission to access this resource',
  unexpectedServerError: 'An unexpected server error occurred',
} as const;

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

export const renderErrorMessages = {
  title: 'Something went wrong',
  text: 'An error occurred while rendering this page. Please try refreshing the page or contact support if the problem persists.',
  refreshButton: 'Refresh Page',
} as const;

/** What the portal says when the server does not answer at all (no connection, server down). */
export const unreachableMessages = {
  title: 'Can’t reach the server',
  /** A call's failure. */
  message: 'Can’t reach the server. Check your connection, then try again.',
  /** A screen that could not be loaded. */
  text: 'The server did not answer, so this screen could not be loaded. Check your connection.',
  retryButton: 'Try again',
  stillUnreachable: 'Still no answer.',
} as const;

/** A call's failure when neither the server nor the endpoint says more; translated like the rest. */
export const GENERIC_FALLBACK = 'Request failed';
