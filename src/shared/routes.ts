/** Base path of every API call. */
export const API_BASE_PATH = '/api/v1';
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';

/** API paths relative to {@link API_BASE_PATH}. */
export const apiPaths = {
  health: '/health',
  /** The process answers: for an orchestrator's liveness probe (restart when it fails). */
  healthLive: '/health/live',
  /** Database, schema and background loops fine and not draining: for readiness and load balancers. */
  healthReady: '/health/ready',
  auth: {
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
  },
  users: {
    me: '/users/me',
    preferences: '/users/me/preferences',
    password: '/users/me/password',
    /** The caller's live sessions (devices signed in), each of which it may end. */
    sessions: '/users/me/sessions',
    session: '/users/me/sessions/:id',
  },
  /** The signed-in account's own factors and tokens. */
  accountSecurity: {
    twoFactor: '/users/me/two-factor',
    totp: '/users/me/two-factor/totp',
    totpConfirm: '/users/me/two-factor/totp/confirm',
    recoveryCodes: '/users/me/two-factor/recovery-codes',
    passkeys: '/users/me/passkeys',
    passkeyRegistrationOptions: '/users/me/passkeys/options',
    passkey: '/users/me/passkeys/:passkeyId',
    apiTokens: '/users/me/api-tokens',
    apiToken: '/users/me/api-tokens/:tokenId',
  },
  /** Opened from a mail, without a session or client key: the signed token is the credential. */
  notifications: {
    unsubscribe: '/notifications/unsubscribe',
  },
  licenses: {
    list: '/licenses',
    detail: '/licenses/:id',
    activate: '/licenses/activate',
    activateBase: '/licenses/activate-base',
    activatePlan: '/licenses/activate-plan',
    currentPlan: '/licenses/current-plan',
    trials: '/licenses/trials',
    validate: '/licenses/validate',
    deactivate: '/licenses/:id/deactivate',
    activation: '/licenses/:id/activations/:activationId',
    usage: '/licenses/:id/usage',
    usageEvents: '/licenses/:id/usage/events',
    usagePacks: '/licenses/:id/usage/packs',
    features: '/licenses/:id/features',
    feature: '/licenses/:id/features/:featureId',
    plan: '/licenses/:id/plan',
    download: '/licenses/:id/download',
  },
  usage: {
    events: '/usage/events',
    license: '/usage/licenses/:id',
  },
  licensing: {
    status: '/licensing/status',
    publicKey: '/licensing/public-key',
  },
  /** A desktop's trial before any account: the hardware id and the app's API key are all it takes. */
  machineTrials: {
    start: '/machine-trials',
  },
  downloads: {
    file: '/downloads/:token',
  },
  /**
   * Updates through electron-updater: a machine's check (key and hardware id) answers a feed URL
   * whose signed token is the credential of the feed's files, as electron-updater fetches them.
   */
  updates: {
    check: '/updates/check',
    channelFile: '/update-feed/:token/:channelFile',
    file: '/update-feed/:token/files/:releaseId/:fileName',
  },
  adminReleases: {
    list: '/admin/releases',
    detail: '/admin/releases/:releaseId',
  },
  /** Activation by file for machines that never go online: a request file in, a license file out. */
  offlineActivation: {
    activate: '/licenses/offline-activations',
    deactivate: '/licenses/offline-deactivations',
    adminActivate: '/admin/offline-activations',
    adminDeactivate: '/admin/offline-deactivations',
  },
  plans: {
    public: '/plans/public',
    publicDetail: '/plans/public/:id',
    list: '/plans',
    detail: '/plans/:id',
    publish: '/plans/:id/publish',
    stats: '/plans/stats',
  },
  payments: {
    createOrder: '/payments/razorpay/create-order',
    verify: '/payments/razorpay/verify',
    webhook: '/payments/razorpay/webhook',
    sandboxCheckout: '/payments/sandbox/orders/:orderId/complete',
    status: '/payments/status/:id',
    history: '/payments/history',
    dismiss: '/payments/history/:id/dismiss',
    config: '/payments/config',
    adminList: '/payments/admin/payments',
    adminDetail: '/payments/admin/payments/:id',
    adminRefunds: '/payments/admin/payments/:id/refunds',
  },
  billing: {
    details: '/billing/details',
    invoices: '/billing/invoices',
    invoice: '/billing/invoices/:id',
    invoicePdf: '/billing/invoices/:id/pdf',
  },
  coupons: {
    preview: '/coupons/preview',
    adminList: '/admin/coupons',
    adminDetail: '/admin/coupons/:id',
  },
  subscriptions: {
    list: '/subscriptions',
    verify: '/subscriptions/verify',
    detail: '/subscriptions/:id',
    cancel: '/subscriptions/:id/cancel',
    resume: '/subscriptions/:id/resume',
    planQuote: '/subscriptions/:id/plan/quote',
    plan: '/subscriptions/:id/plan',
    paymentMethod: '/subscriptions/:id/payment-method',
    cardChange: '/subscriptions/:id/card-change',
    cardChangeVerify: '/subscriptions/:id/card-change/verify',
    payNow: '/subscriptions/:id/pay',
    sandboxCheckout: '/payments/sandbox/subscriptions/:id/complete',
    sandboxRenew: '/subscriptions/:id/sandbox/renew',
  },
  admin: {
    dashboard: '/admin/dashboard',
    users: '/admin/users',
    user: '/admin/users/:id',
    resendConfirmation: '/admin/users/:id/resend-confirmation',
    licenses: '/admin/licenses',
    license: '/admin/licenses/:id',
    revokeLicense: '/admin/licenses/:id/revoke',
    licenseTrial: '/admin/licenses/:id/trial',
    usageGrants: '/admin/licenses/:id/usage/grants',
    licenseActivations: '/admin/licenses/:id/activations',
    activation: '/admin/licenses/:id/activations/:activationId',
    deactivateActivation: '/admin/licenses/:id/activations/:activationId/deactivate',
    securityEvents: '/admin/security-events',
    securityEvent: '/admin/security-events/:id',
    features: '/admin/features',
    feature: '/admin/features/:id',
    featureStats: '/admin/features/stats',
    licensingSettings: '/admin/licensing/settings',
    userInvoices: '/admin/users/:id/invoices',
    securitySettings: '/admin/settings/security',
    apiTokens: '/admin/api-tokens',
    apiToken: '/admin/api-tokens/:tokenId',
  },
  adminWebhooks: {
    endpoints: '/admin/webhooks',
    endpoint: '/admin/webhooks/:endpointId',
    rotateSecret: '/admin/webhooks/:endpointId/rotate-secret',
    deliveries: '/admin/webhooks/:endpointId/deliveries',
    delivery: '/admin/webhooks/deliveries/:deliveryId',
    redeliver: '/admin/webhooks/deliveries/:deliveryId/redeliver',
    eventTypes: '/admin/webhooks/event-types',
    test: '/admin/webhooks/:endpointId/test',
  },
  support: {
    requests: '/support/requests',
  },
  /** Metered use per customer and feature, top consumers first, for administrators. */
  adminUsage: {
    list: '/admin/usage',
  },
  adminSupport: {
    list: '/admin/support-requests',
    handled: '/admin/support-requests/:id/handled',
  },
  /** Organisations the caller belongs to, and (for owners and admins) their members, invitations and seats. */
  organisations: {
    list: '/organisations',
    detail: '/organisations/:organisationId',
    members: '/organisations/:organisationId/members',
    member: '/organisations/:organisationId/members/:userId',
    memberSeat: '/organisations/:organisationId/members/:userId/seat',
    /** Caps on what one member may use of the organisation's metered features per period. */
    memberUsageCaps: '/organisations/:organisationId/members/:userId/usage-caps',
    /** The pool's use and each member's, for owners and admins. */
    usage: '/organisations/:organisationId/usage',
    transferOwnership: '/organisations/:organisationId/transfer-ownership',
    leave: '/organisations/:organisationId/leave',
    invitations: '/organisations/:organisationId/invitations',
    invitation: '/organisations/:organisationId/invitations/:invitationId',
    resendInvitation: '/organisations/:organisationId/invitations/:invitationId/resend',
    seatQuote: '/organisations/:organisationId/seats/quote',
    seats: '/organisations/:organisationId/seats',
    /** A member activates the machine they call from on their seat, by being signed in. */
    activateSeat: '/organisations/:organisationId/seat/activate',
  },
  /** The invitation link's calls: the token in the body is the credential. */
  invitations: {
    preview: '/invitations/preview',
    accept: '/invitations/accept',
    signUp: '/invitations/sign-up',
  },
  adminOrganisations: {
    list: '/admin/organisations',
    detail: '/admin/organisations/:organisationId',
  },
  adminSubscriptions: {
    list: '/admin/subscriptions',
    detail: '/admin/subscriptions/:id',
    cancel: '/admin/subscriptions/:id/cancel',
  },
} as const;

/**
 * Where electron-updater's generic provider reads a machine's feed: `<prefix><token>/`, the
 * channel files and the files they name below it (`apiPaths.updates.channelFile`, `.file`).
 */
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
  apiPaths.auth.register,
  apiPaths.auth.login,
  apiPaths.auth.loginJson,
  apiPaths.auth.forgotPassword,
  apiPaths.auth.resetPassword,
  apiPaths.auth.verifyRegistration,
  apiPaths.auth.loginSecondFactor,
  apiPaths.auth.passkeyLoginOptions,
  apiPaths.auth.passkeyLogin,
  apiPaths.health,
  apiPaths.healthLive,
  apiPaths.healthReady,
  apiPaths.invitations.preview,
  apiPaths.invitations.signUp,
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
