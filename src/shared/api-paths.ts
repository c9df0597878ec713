import { authApiPaths, healthApiPaths, invitationsApiPaths, plansApiPaths, usersApiPaths } from './routes.js';

/*
 * The API's paths of the signed-in screens and the administrators' console, by area: apart from
 * the ones the first screen needs (in routes.ts), so the portal's first download carries none of
 * these, only the screens that call them. The server reads them all through `apiPaths`.
 */

/** An archive's download from the mailed link: the token is the credential (no client key). */
export const dataExportsApiPaths = {
  download: '/data-exports/:token',
} as const;

/** The signed-in account's own factors and tokens. */
export const accountSecurityApiPaths = {
  twoFactor: '/users/me/two-factor',
  totp: '/users/me/two-factor/totp',
  totpConfirm: '/users/me/two-factor/totp/confirm',
  recoveryCodes: '/users/me/two-factor/recovery-codes',
  passkeys: '/users/me/passkeys',
  passkeyRegistrationOptions: '/users/me/passkeys/options',
  passkey: '/users/me/passkeys/:passkeyId',
  apiTokens: '/users/me/api-tokens',
  apiToken: '/users/me/api-tokens/:tokenId',
} as const;

/** Opened from a mail, without a session or client key: the signed token is the credential. */
export const notificationsApiPaths = {
  unsubscribe: '/notifications/unsubscribe',
} as const;

export const licensesApiPaths = {
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
} as const;

export const usageApiPaths = {
  events: '/usage/events',
  license: '/usage/licenses/:id',
} as const;

export const licensingApiPaths = {
  status: '/licensing/status',
  publicKey: '/licensing/public-key',
} as const;

/**
 * Floating licenses: a machine checks a seat out with the key and its hardware id, holds it by
 * heartbeats and gives it back; the license's owner and administrators see and free the seats.
 */
export const floatingApiPaths = {
  checkout: '/licensing/floating/checkout',
  heartbeat: '/licensing/floating/heartbeat',
  release: '/licensing/floating/release',
  borrow: '/licensing/floating/borrow',
  returnBorrowed: '/licensing/floating/return',
  seats: '/licenses/:id/floating/seats',
  seat: '/licenses/:id/floating/seats/:seatId',
  peaks: '/licenses/:id/floating/peaks',
  /** A member's machine checks a seat of the organisation's floating pool out by being signed in. */
  memberCheckout: '/organisations/:organisationId/floating/checkout',
} as const;

/** A desktop's trial before any account: the hardware id and the app's API key are all it takes. */
export const machineTrialsApiPaths = {
  start: '/machine-trials',
} as const;

export const downloadsApiPaths = {
  file: '/downloads/:token',
} as const;

/**
 * Updates through electron-updater: a machine's check (key and hardware id) answers a feed URL
 * whose signed token is the credential of the feed's files, as electron-updater fetches them.
 */
export const updatesApiPaths = {
  check: '/updates/check',
  channelFile: '/update-feed/:token/:channelFile',
  file: '/update-feed/:token/files/:releaseId/:fileName',
} as const;

export const adminReleasesApiPaths = {
  list: '/admin/releases',
  detail: '/admin/releases/:releaseId',
} as const;

/** Activation by file for machines that never go online: a request file in, a license file out. */
export const offlineActivationApiPaths = {
  activate: '/licenses/offline-activations',
  deactivate: '/licenses/offline-deactivations',
  adminActivate: '/admin/offline-activations',
  adminDeactivate: '/admin/offline-deactivations',
} as const;

export const paymentsApiPaths = {
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
} as const;

export const billingApiPaths = {
  details: '/billing/details',
  invoices: '/billing/invoices',
  invoice: '/billing/invoices/:id',
  invoicePdf: '/billing/invoices/:id/pdf',
} as const;

export const couponsApiPaths = {
  preview: '/coupons/preview',
  adminList: '/admin/coupons',
  adminDetail: '/admin/coupons/:id',
} as const;

export const subscriptionsApiPaths = {
  list: '/subscriptions',
  verify: '/subscriptions/verify',
  detail: '/subscriptions/:id',
  cancel: '/subscriptions/:id/cancel',
  resume: '/subscriptions/:id/resume',
  pause: '/subscriptions/:id/pause',
  unpause: '/subscriptions/:id/unpause',
  planQuote: '/subscriptions/:id/plan/quote',
  plan: '/subscriptions/:id/plan',
  paymentMethod: '/subscriptions/:id/payment-method',
  cardChange: '/subscriptions/:id/card-change',
  cardChangeVerify: '/subscriptions/:id/card-change/verify',
  payNow: '/subscriptions/:id/pay',
  sandboxCheckout: '/payments/sandbox/subscriptions/:id/complete',
  sandboxRenew: '/subscriptions/:id/sandbox/renew',
} as const;

export const adminApiPaths = {
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
  resetDeactivations: '/admin/licenses/:id/deactivations/reset',
  securityEvents: '/admin/security-events',
  /** The whole log (or a filtered part) as CSV or JSON Lines, streamed. */
  securityEventsExport: '/admin/security-events/export',
  securityEvent: '/admin/security-events/:id',
  features: '/admin/features',
  feature: '/admin/features/:id',
  featureStats: '/admin/features/stats',
  licensingSettings: '/admin/licensing/settings',
  userInvoices: '/admin/users/:id/invoices',
  userDataExport: '/admin/users/:id/data-export',
  eraseUser: '/admin/users/:id/erase',
  securitySettings: '/admin/settings/security',
  apiTokens: '/admin/api-tokens',
  apiToken: '/admin/api-tokens/:tokenId',
} as const;

export const adminWebhooksApiPaths = {
  endpoints: '/admin/webhooks',
  endpoint: '/admin/webhooks/:endpointId',
  rotateSecret: '/admin/webhooks/:endpointId/rotate-secret',
  deliveries: '/admin/webhooks/:endpointId/deliveries',
  delivery: '/admin/webhooks/deliveries/:deliveryId',
  redeliver: '/admin/webhooks/deliveries/:deliveryId/redeliver',
  eventTypes: '/admin/webhooks/event-types',
  test: '/admin/webhooks/:endpointId/test',
} as const;

export const supportApiPaths = {
  requests: '/support/requests',
} as const;

/** Metered use per customer and feature, top consumers first, for administrators. */
export const adminUsageApiPaths = {
  list: '/admin/usage',
} as const;

export const adminSupportApiPaths = {
  list: '/admin/support-requests',
  handled: '/admin/support-requests/:id/handled',
} as const;

/** Organisations the caller belongs to, and (for owners and admins) their members, invitations and seats. */
export const organisationsApiPaths = {
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
  /** Mail domains the organisation claims, each proven by a TXT record (single sign-on's first step). */
  domains: '/organisations/:organisationId/domains',
  domain: '/organisations/:organisationId/domains/:domainId',
  verifyDomain: '/organisations/:organisationId/domains/:domainId/verify',
  /** The organisation's OpenID Connect provider, and a test sign-in through it. */
  sso: '/organisations/:organisationId/sso',
  ssoTest: '/organisations/:organisationId/sso/test',
  /** The organisation's SAML identity provider, set from its metadata (PUT; GET and DELETE are /sso's). */
  ssoSaml: '/organisations/:organisationId/sso/saml',
  /** SCIM provisioning: the organisation's bearer token, and which pushed group maps to which role. */
  provisioning: '/organisations/:organisationId/provisioning',
  provisioningToken: '/organisations/:organisationId/provisioning/token',
  rotateProvisioningToken: '/organisations/:organisationId/provisioning/token/rotate',
  provisioningGroupRole: '/organisations/:organisationId/provisioning/groups/:groupId/role',
  /** Exports for audits, streamed as CSV or JSON Lines. */
  seatLedgerExport: '/organisations/:organisationId/exports/seat-ledger',
  securityEventsExport: '/organisations/:organisationId/exports/security-events',
} as const;

export const adminOrganisationsApiPaths = {
  list: '/admin/organisations',
  detail: '/admin/organisations/:organisationId',
} as const;

export const adminSubscriptionsApiPaths = {
  list: '/admin/subscriptions',
  detail: '/admin/subscriptions/:id',
  cancel: '/admin/subscriptions/:id/cancel',
  pause: '/admin/subscriptions/:id/pause',
  unpause: '/admin/subscriptions/:id/unpause',
} as const;

/**
 * Every API path, relative to {@link API_BASE_PATH}, by area. The portal imports the areas it calls
 * (`authApiPaths`, …) rather than this object, so its first download carries only theirs.
 */
export const apiPaths = {
  health: healthApiPaths.health,
  healthLive: healthApiPaths.healthLive,
  healthReady: healthApiPaths.healthReady,
  auth: authApiPaths,
  users: usersApiPaths,
  dataExports: dataExportsApiPaths,
  accountSecurity: accountSecurityApiPaths,
  notifications: notificationsApiPaths,
  licenses: licensesApiPaths,
  usage: usageApiPaths,
  licensing: licensingApiPaths,
  floating: floatingApiPaths,
  machineTrials: machineTrialsApiPaths,
  downloads: downloadsApiPaths,
  updates: updatesApiPaths,
  adminReleases: adminReleasesApiPaths,
  offlineActivation: offlineActivationApiPaths,
  plans: plansApiPaths,
  payments: paymentsApiPaths,
  billing: billingApiPaths,
  coupons: couponsApiPaths,
  subscriptions: subscriptionsApiPaths,
  admin: adminApiPaths,
  adminWebhooks: adminWebhooksApiPaths,
  support: supportApiPaths,
  adminUsage: adminUsageApiPaths,
  adminSupport: adminSupportApiPaths,
  organisations: organisationsApiPaths,
  invitations: invitationsApiPaths,
  adminOrganisations: adminOrganisationsApiPaths,
  adminSubscriptions: adminSubscriptionsApiPaths,
} as const;
