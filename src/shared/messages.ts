/**
 * The portal's error messages: the server's own message wins when it sends one; these are fallbacks.
 * Those of the first screens (signing in, a failed page, no server); the signed-in screens' are in
 * screen-messages.ts, so the first download carries none of their words.
 */

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
