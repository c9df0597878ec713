/** Base path of every API call (SPEC §7). */
export const API_BASE_PATH = '/api/v1';
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';

/** API paths relative to {@link API_BASE_PATH}. */
export const apiPaths = {
  health: '/health',
  auth: {
    register: '/auth/register',
    verifyRegistration: '/auth/verify-registration',
    resendVerification: '/auth/resend-verification',
    login: '/auth/login',
    loginJson: '/auth/login/json',
    refresh: '/auth/refresh',
    refreshToken: '/auth/refresh-token',
    logout: '/auth/logout',
    validateToken: '/auth/validate-token',
    forgotPassword: '/auth/forgot-password',
    resetPassword: '/auth/reset-password',
    changePassword: '/auth/change-password',
  },
  users: {
    me: '/users/me',
    preferences: '/users/me/preferences',
    password: '/users/me/password',
  },
} as const;

/** Calls that never carry a bearer token (SPEC §6). */
export const publicApiPaths: readonly string[] = [
  apiPaths.auth.register,
  apiPaths.auth.login,
  apiPaths.auth.loginJson,
  apiPaths.auth.forgotPassword,
  apiPaths.auth.resetPassword,
  apiPaths.auth.verifyRegistration,
  apiPaths.health,
];

/** Portal routes of SPEC §2; the links in e-mails point at these. */
export const portalPaths = {
  landing: '/landing',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyRegistration: '/verify-registration',
  dashboard: '/dashboard',
  admin: '/admin',
} as const;
