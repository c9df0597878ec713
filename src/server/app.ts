import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE_PATH, apiPaths, UPDATE_FEED_PREFIX } from '../shared/routes.js';
import { type Clock, systemClock } from './platform/clock.js';
import type { Config } from './platform/config.js';
import { createDatabase, type DatabaseHandle, type Db } from './platform/db/database.js';
import { createDrain, type Drain } from './platform/drain.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { createMailTransport } from './platform/mail/mail-transport.js';
import { createAttachmentResolvers } from './platform/mail/attachments.js';
import { createMailer, type Mailer } from './platform/mail/mailer.js';
import { createUnsubscribeLinks } from './platform/mail/unsubscribe.js';
import { listenForQueuedMail } from './platform/mail/queued-mail-notifications.js';
import { createMailOutboxWorker, type MailOutboxWorker } from './platform/mail/outbox-worker.js';
import { startMaintenance } from './platform/maintenance.js';
import { expiredRowPrunes } from './pruning.js';
import { type HostResolver, systemResolver } from './integrations/webhooks/address-guard.js';
import {
  createWebhookDeliveryWorker,
  type WebhookDeliveryWorker,
} from './integrations/webhooks/delivery-worker.js';
import { webhooksRoutes } from './integrations/webhooks/routes.js';
import { createWebhooksService } from './integrations/webhooks/service.js';
import { createAccessTokens } from './identity/auth/access-tokens.js';
import { createAccountSessions } from './identity/auth/account-sessions.js';
import { authRoutes } from './identity/auth/routes.js';
import { passkeyRoutes } from './identity/auth/passkey-routes.js';
import { createPasskeys, relyingPartyOf } from './identity/auth/passkeys.js';
import { createSecondFactorSignIn } from './identity/auth/second-factor-sign-in.js';
import { createSecuritySettingsService } from './identity/auth/security-settings.js';
import { securitySettingsRoutes } from './identity/auth/security-settings-routes.js';
import { createStepUp } from './identity/auth/step-up.js';
import { createSecretCipher } from './identity/auth/totp.js';
import { twoFactorRoutes } from './identity/auth/two-factor-routes.js';
import { createTwoFactorService } from './identity/auth/two-factor-service.js';
import { createPasswordHasher } from './identity/auth/password-hasher.js';
import { adminRoutes } from './admin/routes.js';
import { createDashboardService } from './admin/dashboard-service.js';
import { createAdminLicensesService } from './admin/licenses-service.js';
import { createAdminUsersService } from './admin/users-service.js';
import { type AuthService, createAuthService } from './identity/auth/service.js';
import { healthRoutes } from './platform/health/routes.js';
import { createHealthService } from './platform/health/service.js';
import { usersRoutes } from './identity/users/routes.js';
import { createUnsubscribeService } from './identity/users/unsubscribe.js';
import { unsubscribeRoutes } from './identity/users/unsubscribe-routes.js';
import { downloadRoutes } from './distribution/routes.js';
import { createDownloadsService } from './distribution/service.js';
import { createLicenseDownloadsService } from './distribution/license-downloads.js';
import { createDownloadLinks } from './distribution/signed-links.js';
import { adminReleasesRoutes } from './distribution/admin-routes.js';
import { createAdminReleasesService } from './distribution/admin-releases.js';
import { createUpdateFeedService } from './distribution/update-feed.js';
import { createUpdateLinks } from './distribution/update-links.js';
import { updateRoutes } from './distribution/update-routes.js';
import { featuresRoutes } from './catalogue/features/routes.js';
import { createFeaturesService } from './catalogue/features/service.js';
import { createLeaseSigner } from './licensing/leases/lease-signer.js';
import { isLicenseCheckUrl, licensingRoutes } from './licensing/leases/routes.js';
import { createLicensingSettingsService } from './licensing/leases/service.js';
import { INVOICE_PDF_ATTACHMENT, invoicePdfBytes } from './billing/invoices/attachment.js';
import { invoicesModule } from './billing/invoices/module.js';
import { createRefundsService } from './billing/invoices/refunds.js';
import { createBillingService } from './billing/invoices/service.js';
import { createAdminPaymentsService } from './billing/payments/admin-service.js';
import { createConfiguredProvider } from './billing/payments/configured-provider.js';
import { paymentsModule, warnAboutPaymentProvider } from './billing/payments/module.js';
import { createPaymentsService } from './billing/payments/service.js';
import { createDomainEvents, type DomainEvent } from './domain-events.js';
import type { EventBus } from './platform/events.js';
import { createWebhookHandler } from './billing/payments/webhooks.js';
import type { PaymentProvider } from './billing/payments/provider.js';
import { licensesRoutes } from './licensing/licenses/routes.js';
import { seatActivationRoutes } from './licensing/licenses/seat-activation-routes.js';
import { createCheckAnswers } from './licensing/licenses/check-answers.js';
import { createLicenseCheckReads } from './licensing/licenses/check-repository.js';
import { createLicenseChecksService } from './licensing/licenses/check-service.js';
import { createHeartbeatWriter } from './licensing/licenses/heartbeat-repository.js';
import { createHeartbeats, type Heartbeats } from './licensing/licenses/heartbeats.js';
import { createLicensesService } from './licensing/licenses/service.js';
import { createPlanInUse } from './licensing/licenses/plan-in-use.js';
import { createDownloadPermission } from './licensing/index.js';
import { plansRoutes } from './catalogue/plans/routes.js';
import { createPlansService } from './catalogue/plans/service.js';
import { createPlanCatalogueCache } from './catalogue/plans/catalogue-cache.js';
import { createUsersService } from './identity/users/service.js';
import { adminSecurityEventsRoutes } from './platform/security-log/routes.js';
import { createSecurityEventsService } from './platform/security-log/service.js';
import { addApiKeyCheck } from './platform/http/api-key.js';
import { addPathRules, MAX_PATH_SEGMENT_LENGTH } from './platform/http/path-rules.js';
import { authenticatePlugin } from './identity/plugins/authenticate.js';
import { apiTokensRoutes } from './identity/api-tokens/routes.js';
import { offlineActivationRoutes } from './licensing/offline-activation/routes.js';
import { createOfflineActivationService } from './licensing/offline-activation/service.js';
import { createApiTokensService } from './identity/api-tokens/service.js';
import { stepUpPlugin } from './identity/plugins/step-up.js';
import {
  registerErrorHandler,
  sendFrameworkError,
  sendNotFound,
  writeClientError,
} from './platform/http/error-handler.js';
import { addNoStoreToApiAnswers } from './platform/http/no-store.js';
import { registerCompression } from './platform/http/compression.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { registerRateLimit } from './platform/http/rate-limit.js';
import { addRequestBodyRules } from './platform/http/request-body-rules.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { isPortalRoute, registerWebPortal } from './platform/http/web-portal.js';
import { loadOrCreateSecret } from './platform/secrets.js';
import { registerSessionBindingCookie } from './identity/plugins/session-binding-cookie.js';
import { createScheduler, type Scheduler } from './platform/scheduler.js';
import { resolveTwoFactorKey } from './identity/two-factor-key.js';
import { couponsRoutes } from './catalogue/coupons/routes.js';
import { supportRoutes } from './support/routes.js';
import { adminOrganisationsRoutes } from './licensing/organisations/admin-routes.js';
import { createAdminOrganisationsService } from './licensing/organisations/admin-service.js';
import { invitationRoutes } from './licensing/organisations/invitation-routes.js';
import { createInvitationsService } from './licensing/organisations/invitations.js';
import { organisationsRoutes } from './licensing/organisations/routes.js';
import { createOrganisationsService } from './licensing/organisations/service.js';
import { createSupportService } from './support/service.js';
import { createCouponsService } from './catalogue/coupons/service.js';
import { createReceipts } from './billing/invoices/receipts.js';
import { taxInvoiceWarning } from './billing/invoices/settings.js';
import { createLicenseExpiryNotices } from './licensing/licenses/expiry-notices.js';
import { createSubscriptionsArea } from './billing/subscriptions/module.js';
import { seatPurchaseRoutes } from './billing/seat-purchases/routes.js';
import { createSeatPurchases } from './billing/seat-purchases/service.js';
import { subscriptionsRoutes } from './billing/subscriptions/routes.js';
import { adminSubscriptionsRoutes } from './billing/subscriptions/admin-routes.js';
import { createAdminSubscriptionsService } from './billing/subscriptions/admin-service.js';
import type { SubscriptionsService } from './billing/subscriptions/service.js';

/** What tests and the entry point may supply instead of the defaults. */
export interface AppOverrides {
  clock?: Clock;
  database?: DatabaseHandle;
  logger?: boolean;
  /** Where the log goes instead of standard output (tests read what the server logged). */
  logStream?: { write(line: string): void };
  /** Replaces the provider PAYMENT_PROVIDER selects (tests point Razorpay's SDK at a fake API). */
  paymentProvider?: PaymentProvider;
  /** Resolves webhook endpoints' host names (tests play DNS, e.g. a name that turns private). */
  webhookResolver?: HostResolver;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** Sends the queued mail; `drain()` waits until nothing is due. */
    mailOutbox: MailOutboxWorker;
    /** Queues mail in a transaction; modules register their attachment resolvers on it. */
    mailer: Mailer;
    authService: AuthService;
    /** Machines' check-ins waiting to be written; `flush()` writes them now. */
    heartbeats: Heartbeats;
    /** Renewals, grace periods and reminders; `runOnce()` does what is due now. */
    scheduler: Scheduler;
    /** The customers' subscriptions (the CLI's sandbox renewal uses it). */
    subscriptions: SubscriptionsService;
    /** Sends queued webhook deliveries; `drain()` sends what is due now. */
    webhookDeliveries: WebhookDeliveryWorker;
    /** Begun on SIGTERM: readiness fails while requests are still served (see shutdown.ts). */
    drain: Drain;
    /** What the contexts announce, with the outgoing webhooks listening. */
    events: EventBus<DomainEvent>;
  }
}

/** Builds the whole server (API, docs, web portal) without listening; migrates the database first. */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      overrides.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
            ...(overrides.logStream ? { stream: overrides.logStream } : {}),
          },
    bodyLimit: config.bodyLimitBytes,
    // Every desktop checks its license in the background: a log line per check would drown the rest
    // (a check that fails with a server error is still logged by the error handler).
    logController: new LogController({
      disableRequestLogging: (request: { url?: string }) => isLicenseCheckUrl(request.url ?? ''),
    }),
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    // A request that reaches a closing server on a keep-alive connection is served like any other
    // (the database closes only after the last connection): Fastify's own 503 has a body of its
    // own shape, and a balancer that does not retry would count it as lost.
    return503OnClosing: false,
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: writeClientError,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_LENGTH },
  });
  // The API reads JSON (and one form route): a text/plain body gets 415 like any other type
  // instead of reaching the schemas as a string.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Before every route and plugin, so malformed paths are refused alike everywhere.
  addPathRules(app);

  const clock = overrides.clock ?? systemClock;
  const { db, dialect, raw } =
    overrides.database ??
    createDatabase({
      ...config,
      onConnectionError: (error) =>
        app.log.warn({ err: error }, 'PostgreSQL connection lost; the pool reconnects'),
    });
  // Filled by the modules whose mail carries files (invoice PDFs); read by the worker when it sends.
  const attachmentResolvers = createAttachmentResolvers();
  const mailOutbox = createMailOutboxWorker({
    db,
    dialect,
    clock,
    transport: createMailTransport(config.mail, app.log),
    settings: config.mail,
    log: app.log,
    attachments: attachmentResolvers,
  });
  const queuedMail =
    dialect === 'postgres' && config.databaseUrl
      ? listenForQueuedMail(config.databaseUrl, mailOutbox.wake, app.log)
      : undefined;
  // The license check's own connection and the heartbeat writer prepare statements on the tables.
  await migrateToLatest(db);
  const checkReads = createLicenseCheckReads(raw);
  const heartbeats = createHeartbeats({
    writer: createHeartbeatWriter(raw),
    flushIntervalMs: config.licensing.heartbeatFlushMs,
    onFlushError: (error) =>
      app.log.warn({ err: error }, 'machine check-ins not written; retried at the next flush'),
  });
  // Set once the scheduler runs; it stops before the database closes.
  let stopScheduler = async (): Promise<void> => {};
  // Set once the webhook worker runs; a delivery in flight finishes before the database closes.
  let stopWebhooks = async (): Promise<void> => {};
  app.addHook('onClose', async () => {
    // First: a mail send may take minutes, and a shutdown cut short must not lose the check-ins.
    await heartbeats
      .close()
      .catch((error: unknown) =>
        app.log.error({ err: error }, 'machine check-ins could not be written at shutdown'),
      );
    await queuedMail?.close();
    await mailOutbox.close();
    checkReads.close();
    await stopScheduler();
    await stopWebhooks();
    await db.destroy();
  });

  const jwtSecret = new TextEncoder().encode(
    config.jwt.secret ?? loadOrCreateSecret(config.dataDir, 'jwt-secret'),
  );
  const unsubscribeLinks = createUnsubscribeLinks(jwtSecret, config.publicUrl);
  const mailer = createMailer({
    clock,
    publicUrl: config.publicUrl,
    dialect,
    wake: mailOutbox.wake,
    attachments: attachmentResolvers,
    unsubscribeLinks,
  });
  // The receipt mail's invoice PDF, rendered from the issued invoice when the worker sends it.
  mailer.registerAttachmentResolver(INVOICE_PDF_ATTACHMENT, invoicePdfBytes);
  const accessTokens = createAccessTokens(
    {
      secret: jwtSecret,
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
      ttlSeconds: config.jwt.accessTtlSeconds,
    },
    clock,
  );
  const passwords = createPasswordHasher(config.passwordHashing);
  const leases = await createLeaseSigner({
    dataDir: config.dataDir,
    configuredKey: config.licensing.signingKey,
    issuer: config.jwt.issuer,
    ttlSeconds: config.licensing.leaseTtlSeconds,
    clock,
  });
  const downloadLinks = createDownloadLinks(jwtSecret);
  const planCatalogue = createPlanCatalogueCache(db);
  const onCatalogueChange = planCatalogue.clear;
  const paymentProvider = overrides.paymentProvider ?? createConfiguredProvider(config);
  warnAboutPaymentProvider(paymentProvider, app.log);

  // Every module's service, built from the database (repositories are functions of it or of a
  // transaction), the clock and what else it needs; routes receive services, never the database.
  const auth = createAuthService({
    db,
    clock,
    accessTokens,
    passwords,
    mailer,
    publicUrl: config.publicUrl,
    lockout: config.lockout,
  });
  const twoFactor = createTwoFactorService({
    db,
    clock,
    cipher: createSecretCipher(await resolveTwoFactorKey({ db, dialect }, clock, config)),
  });
  const coupons = createCouponsService({ db, clock });
  const events = createDomainEvents(clock);
  app.decorate('events', events);
  const notTaxInvoices = taxInvoiceWarning(config.invoices);
  if (notTaxInvoices) app.log.warn(notTaxInvoices);
  const receipts = createReceipts({ mailer, publicUrl: config.publicUrl, clock });
  const refunds = createRefundsService({
    db,
    clock,
    events,
    provider: paymentProvider,
    invoicing: config.invoices,
    log: app.log,
    mailer,
    publicUrl: config.publicUrl,
  });
  const subscriptionsArea = createSubscriptionsArea({
    db,
    clock,
    events,
    provider: paymentProvider,
    config,
    mailer,
    coupons,
    receipts,
    refundCredit: refunds.refundCredit,
    reserveCredit: refunds.reserveCredit,
    log: app.log,
  });
  const drain = createDrain();
  app.decorate('drain', drain);
  const services = {
    health: createHealthService({ db, drain }),
    users: createUsersService({ db, clock }),
    plans: createPlansService({
      db,
      clock,
      onCatalogueChange,
      paymentCurrency: config.payments.currency,
      planInUse: createPlanInUse(db),
    }),
    features: createFeaturesService({ db, clock, onCatalogueChange }),
    licenses: createLicensesService({ db, clock, events, leases }),
    licenseDownloads: createLicenseDownloadsService({
      db,
      clock,
      downloadLinks,
      apiUrl: `${config.publicUrl}${API_BASE_PATH}`,
      mayDownload: createDownloadPermission({ db, clock }),
    }),
    licenseChecks: createLicenseChecksService({
      clock,
      leases,
      planCatalogue,
      reads: checkReads,
      heartbeats,
      answers: createCheckAnswers(config.licensing.checkCacheEntries),
      leaseReuseShare: config.licensing.leaseReuseShare,
    }),
    licensingSettings: createLicensingSettingsService({ db, clock }),
    dashboard: createDashboardService({ db, clock }),
    adminUsers: createAdminUsersService({ db, clock, passwords, mailer }),
    adminLicenses: createAdminLicensesService({ db, clock, events, mailer, publicUrl: config.publicUrl }),
    securityEvents: createSecurityEventsService({ db }),
    payments: createPaymentsService({
      db,
      clock,
      events,
      provider: paymentProvider,
      currency: config.payments.currency,
      invoicing: config.invoices,
      coupons,
      receipts,
      checkoutExpiryMinutes: config.payments.checkoutExpiryMinutes,
      log: app.log,
    }),
    paymentWebhooks: createWebhookHandler({
      db,
      clock,
      events,
      provider: paymentProvider,
      invoicing: config.invoices,
      subscriptionEvents: subscriptionsArea.webhookEvents,
      receipts,
      log: app.log,
    }),
    adminPayments: createAdminPaymentsService({
      db,
      clock,
      checkoutExpiryMinutes: config.payments.checkoutExpiryMinutes,
    }),
    billing: createBillingService({ db, clock }),
    refunds,
    downloads: createDownloadsService({
      db,
      clock,
      links: downloadLinks,
      releasesDir: config.licensing.releasesDir,
    }),
  };
  app.decorate('db', db);
  // Also sends the mail left queued when the server last stopped (or crashed).
  mailOutbox.start(auth.mailPreparers);
  app.decorate('mailOutbox', mailOutbox);
  app.decorate('mailer', mailer);
  app.decorate('authService', auth);
  app.decorate('heartbeats', heartbeats);
  const scheduler = createScheduler({
    db,
    clock,
    intervalMs: config.schedulerIntervalMs,
    jobs: [
      ...subscriptionsArea.jobs,
      // The server's own refunds (a refused second subscription, a cancellation now) the provider did not take yet.
      { name: 'refunds left pending', run: () => refunds.retryPending() },
      {
        name: 'license expiry notices',
        run: createLicenseExpiryNotices({
          db,
          clock,
          events,
          mailer,
          publicUrl: config.publicUrl,
          reminderDays: config.subscriptions.expiryReminderDays,
        }).run,
      },
    ],
    log: app.log,
  });
  app.decorate('scheduler', scheduler);
  app.decorate('subscriptions', subscriptionsArea.service);
  const webhookPolicy = {
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
    resolver: overrides.webhookResolver ?? systemResolver,
  };
  const webhookDeliveries = createWebhookDeliveryWorker({
    db,
    dialect,
    clock,
    mailer,
    settings: { ...config.webhooks, ...webhookPolicy, publicUrl: config.publicUrl },
    log: app.log,
  });
  // Also sends what was left queued when the server last stopped.
  webhookDeliveries.start();
  app.decorate('webhookDeliveries', webhookDeliveries);
  stopWebhooks = () => webhookDeliveries.close();
  stopScheduler = () => scheduler.close();

  registerSecurityHeaders(app, { provider: config.payments.provider });
  const bindingCookie = registerSessionBindingCookie(app, { publicUrl: config.publicUrl });
  await registerCompression(app);
  addNoStoreToApiAnswers(app);
  addRequestBodyRules(app);
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      maxAge: 600,
    });
  }
  await registerRateLimit(app, config);
  await registerOpenApi(app, { publicUrl: config.publicUrl });
  const apiTokens = createApiTokensService({ db, clock });
  await app.register(authenticatePlugin, { auth, apiTokens });
  await app.register(stepUpPlugin, { db, clock });

  const rateLimitPerMinute = config.authRateLimitPerMinute;
  await app.register(
    async (api) => {
      addApiKeyCheck(api, {
        keys: config.apiKeys,
        // Razorpay's webhook sends no client key; its signature is checked instead.
        // Nor does a mail provider's one-click unsubscribe: its signed token is the credential.
        exempt: [
          `${API_BASE_PATH}${apiPaths.health}`,
          `${API_BASE_PATH}${apiPaths.payments.webhook}`,
          `${API_BASE_PATH}${apiPaths.notifications.unsubscribe}`,
        ],
        // Nor do download links and electron-updater's feed requests: their signed token is.
        exemptPrefixes: [
          `${API_BASE_PATH}${apiPaths.downloads.file.replace(':token', '')}`,
          `${API_BASE_PATH}${UPDATE_FEED_PREFIX}`,
        ],
      });
      await api.register(healthRoutes, { health: services.health });
      await api.register(authRoutes, {
        auth,
        rateLimitPerMinute,
        bindingCookie,
        secondFactorSignIn: createSecondFactorSignIn({
          db,
          clock,
          lockout: config.lockout,
          twoFactor,
          startSession: auth.startSession,
        }),
        stepUp: createStepUp({ db, clock, lockout: config.lockout, passwords, twoFactor }),
        sessions: createAccountSessions({ db, clock }),
      });
      await api.register(twoFactorRoutes, { twoFactor, rateLimitPerMinute });
      await api.register(securitySettingsRoutes, {
        settings: createSecuritySettingsService({ db, clock }),
      });
      await api.register(passkeyRoutes, {
        passkeys: createPasskeys({
          db,
          clock,
          rp: relyingPartyOf(config.publicUrl),
          lockout: config.lockout,
          startSession: auth.startSession,
        }),
        rateLimitPerMinute,
      });
      await api.register(usersRoutes, { users: services.users });
      await api.register(unsubscribeRoutes, {
        unsubscribe: createUnsubscribeService({ db, links: unsubscribeLinks, users: services.users }),
        publicUrl: config.publicUrl,
      });
      await api.register(plansRoutes, { plans: services.plans });
      await api.register(featuresRoutes, { features: services.features });
      await api.register(licensesRoutes, {
        licenses: services.licenses,
        downloads: services.licenseDownloads,
      });
      await api.register(seatActivationRoutes, { seats: services.licenses });
      await api.register(adminRoutes, {
        dashboard: services.dashboard,
        users: services.adminUsers,
        licenses: services.adminLicenses,
      });
      await api.register(adminSecurityEventsRoutes, { securityEvents: services.securityEvents });
      await api.register(paymentsModule, {
        payments: services.payments,
        handleWebhook: services.paymentWebhooks,
        adminPayments: services.adminPayments,
      });
      await api.register(subscriptionsRoutes, { subscriptions: subscriptionsArea.service });
      await api.register(seatPurchaseRoutes, {
        seatPurchases: createSeatPurchases({
          db,
          clock,
          events,
          provider: paymentProvider,
          pricing: subscriptionsArea.charges.pricing,
          invoices: config.invoices,
          receipts,
        }),
      });
      await api.register(couponsRoutes, { coupons });
      await api.register(supportRoutes, {
        support: createSupportService({
          db,
          clock,
          mailer,
          publicUrl: config.publicUrl,
          supportEmail: config.supportEmail,
        }),
      });
      await api.register(adminSubscriptionsRoutes, {
        adminSubscriptions: createAdminSubscriptionsService({
          db,
          clock,
          subscriptions: subscriptionsArea.service,
        }),
      });
      await api.register(invoicesModule, { billing: services.billing, refunds: services.refunds });
      await api.register(licensingRoutes, {
        checks: services.licenseChecks,
        leases,
        settings: services.licensingSettings,
        checksPerMinute: config.licensing.checksPerMinute,
        clock,
      });
      await api.register(downloadRoutes, { downloads: services.downloads });
      await api.register(updateRoutes, {
        updates: createUpdateFeedService({
          db,
          clock,
          links: createUpdateLinks(jwtSecret),
          releasesDir: config.licensing.releasesDir,
          apiUrl: `${config.publicUrl}${API_BASE_PATH}`,
        }),
      });
      await api.register(adminReleasesRoutes, { releases: createAdminReleasesService({ db, clock }) });
      await api.register(webhooksRoutes, {
        webhooks: createWebhooksService({ db, clock, policy: webhookPolicy, wake: webhookDeliveries.wake }),
      });
      await api.register(apiTokensRoutes, { apiTokens });
      await api.register(offlineActivationRoutes, {
        offline: createOfflineActivationService({ db, clock, leases, licenses: services.licenses }),
      });
      const invitations = createInvitationsService({
        db,
        clock,
        events,
        mailer,
        publicUrl: config.publicUrl,
        ttlHours: config.organisationInvitationTtlHours,
        passwords,
        auth,
      });
      await api.register(organisationsRoutes, {
        organisations: createOrganisationsService({ db, clock, events, mailer, publicUrl: config.publicUrl }),
        invitations,
      });
      await api.register(invitationRoutes, { invitations, rateLimitPerMinute });
      await api.register(adminOrganisationsRoutes, {
        adminOrganisations: createAdminOrganisationsService({ db, clock }),
      });
    },
    { prefix: API_BASE_PATH },
  );

  // The portal sends the `web:` key of API_KEYS; the server hands it over with the page.
  const webApiKey = config.apiKeys.find(({ client }) => client === 'web')?.key;
  const servePortal = await registerWebPortal(app, config.webDir, webApiKey);
  app.setNotFoundHandler((request, reply) =>
    servePortal && isPortalRoute(request) ? servePortal(request, reply) : sendNotFound(request, reply),
  );
  startMaintenance(app, db, clock, { prunes: expiredRowPrunes(config.lockout) });
  return app;
}
