/** Base path of every API call. */
export const API_BASE_PATH = '/api/v1';
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';

/** The health probes (see docs/operating.md). */
export const healthApiPaths = {
  health: '/health',
  /** The process answers: for an orchestrator's liveness probe (restart when it fails). */
  healthLive: '/health/live',
  /** Database, schema and background loops fine and not draining: for readiness and load balancers. */
  healthReady: '/health/ready',
} as const;

export const authApiPaths = {
  register: '/auth/register',
  verifyRegistration: '/auth/verify-registration',
  resendVerification: '/auth/resend-verification',
  login: '/auth/login',
  loginJson: '/auth/login/json',
  refresh: '/auth/refresh',
  refreshToken: '/auth/refresh-token',
  logout: '/auth/logout',
  logoutAll: '/auth/logout-all',
  /** Ends every session of the caller but the one making the request. */
  logoutOthers: '/auth/logout-others',
  validateToken: '/auth/validate-token',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  changePassword: '/auth/change-password',
  /** The second step of a sign-in that needs a second factor: the challenge and a code. */
  loginSecondFactor: '/auth/login/second-factor',
  /** Options for a passkey sign-in (or a passkey as the second factor of a challenge). */
  passkeyLoginOptions: '/auth/passkeys/options',
  passkeyLogin: '/auth/passkeys/login',
  /** A fresh proof (password, code or passkey) that lets this session make sensitive changes. */
  stepUp: '/auth/step-up',
  stepUpPasskeyOptions: '/auth/step-up/passkey-options',
  /** A passkey's answer to the step-up options: the passkey's way to the same proof. */
  stepUpPasskey: '/auth/step-up/passkey',
  /** Single sign-on (run by licensing, which holds the organisations' providers). */
  ssoDiscover: '/auth/sso/discover',
  ssoStart: '/auth/sso/start',
  ssoCallback: '/auth/sso/callback',
  /** The portal trades the callback's one-time code for its session. */
  ssoComplete: '/auth/sso/complete',
  /** An organisation's SAML service provider: its metadata, and where the assertions are posted. */
  ssoSamlMetadata: '/auth/sso/saml/:organisationId/metadata',
  ssoSamlAcs: '/auth/sso/saml/:organisationId/acs',
} as const;

export const usersApiPaths = {
  me: '/users/me',
  preferences: '/users/me/preferences',
  password: '/users/me/password',
  /** The caller's live sessions (devices signed in), each of which it may end. */
  sessions: '/users/me/sessions',
  session: '/users/me/sessions/:id',
  /** The caller's latest archive of their data (GET), or a new one asked for (POST). */
  dataExport: '/users/me/data-export',
  /** The account's deletion after the grace period: asked for (POST), seen (GET), cancelled (DELETE). */
  deletion: '/users/me/deletion',
} as const;

/** The catalogue's plans: the landing page, a first screen, reads the public list. */
export const plansApiPaths = {
  public: '/plans/public',
  publicDetail: '/plans/public/:id',
  list: '/plans',
  detail: '/plans/:id',
  publish: '/plans/:id/publish',
  stats: '/plans/stats',
} as const;

/** The invitation link's calls: the token in the body is the credential. */
export const invitationsApiPaths = {
  preview: '/invitations/preview',
  accept: '/invitations/accept',
  signUp: '/invitations/sign-up',
} as const;

/**
 * Where electron-updater's generic provider reads a machine's feed: `<prefix><token>/`, the
 * channel files and the files they name below it (`apiPaths.updates.channelFile`, `.file`).
 */
/**
 * SCIM 2.0 (RFC 7644) for identity providers (Entra ID, Okta): outside /api/v1 and its API key,
 * behind the organisation's own bearer token.
 */
export const SCIM_BASE_PATH = '/scim/v2';
export const scimPaths = {
  serviceProviderConfig: '/ServiceProviderConfig',
  resourceTypes: '/ResourceTypes',
  resourceType: '/ResourceTypes/:name',
  schemas: '/Schemas',
  schema: '/Schemas/:id',
  users: '/Users',
  user: '/Users/:id',
  groups: '/Groups',
  group: '/Groups/:id',
} as const;

export const UPDATE_FEED_PREFIX = '/update-feed/';

/** Fills the `:name` parameters of an API path: `pathWith(apiPaths.licenses.detail, { id })`. */
export function pathWith(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Public calls: they never carry a bearer token, so none waits for a refresh. */
export const publicApiPaths: readonly string[] = [
  authApiPaths.register,
  authApiPaths.login,
  authApiPaths.loginJson,
  authApiPaths.forgotPassword,
  authApiPaths.resetPassword,
  authApiPaths.verifyRegistration,
  authApiPaths.loginSecondFactor,
  authApiPaths.passkeyLoginOptions,
  authApiPaths.passkeyLogin,
  // Single sign-on's steps on the sign-in page: the e-mail-first lookup, the start, the hand-over.
  authApiPaths.ssoDiscover,
  authApiPaths.ssoStart,
  authApiPaths.ssoComplete,
  healthApiPaths.health,
  healthApiPaths.healthLive,
  healthApiPaths.healthReady,
  invitationsApiPaths.preview,
  invitationsApiPaths.signUp,
];

/** The portal's screens; the links in e-mails point at these. */
export const portalPaths = {
  root: '/',
  landing: '/landing',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyRegistration: '/verify-registration',
  dashboard: '/dashboard',
  licenses: '/licenses',
  licenseDetail: '/licenses/:licenseId',
  /** Metered AI use of a license this period; `?license=` picks one of several. */
  usage: '/usage',
  profile: '/profile',
  purchase: '/purchase',
  billing: '/billing',
  subscriptions: '/subscriptions',
  support: '/support',
  admin: '/admin',
  adminUsers: '/admin/users',
  adminLicenses: '/admin/licenses',
  adminPayments: '/admin/payments',
  adminSubscriptions: '/admin/subscriptions',
  adminCoupons: '/admin/coupons',
  adminSupportRequests: '/admin/support-requests',
  adminFeatures: '/admin/features',
  adminPackages: '/admin/packages',
  adminSecurity: '/admin/security',
  adminWebhooks: '/admin/webhooks',
  adminApiTokens: '/admin/api-tokens',
  adminReleases: '/admin/releases',
  offlineActivation: '/offline-activation',
  /** The desktop app's side, open without signing in: a machine without network cannot sign in. */
  offlineThisMachine: '/offline-activation/this-machine',
  adminOfflineActivation: '/admin/offline-activation',
  organisations: '/organisations',
  organisationDetail: '/organisations/:organisationId',
  /** The invitation mail's link; the token follows in the fragment (`#token=…`), which no server log sees. */
  acceptInvitation: '/invitations/accept',
  adminOrganisations: '/admin/organisations',
  /** Metered use per customer and feature, top consumers first. */
  adminUsage: '/admin/usage',
  /** Two-factor sign-in, passkeys and API tokens; where an administrator without a second factor is sent when the platform requires one. */
  profileSecurity: '/profile/security',
} as const;
