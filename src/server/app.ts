import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE_PATH, apiPaths, UPDATE_FEED_PREFIX } from '../shared/routes.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { createDatabase, type DatabaseHandle, type Db } from './db/database.js';
import { createDrain, type Drain } from './drain.js';
import { migrateToLatest } from './db/migrate.js';
import { createMailTransport } from './mail/mail-transport.js';
import { createAttachmentResolvers } from './mail/attachments.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createUnsubscribeLinks } from './mail/unsubscribe.js';
import { listenForQueuedMail } from './mail/queued-mail-notifications.js';
import { createMailOutboxWorker, type MailOutboxWorker } from './mail/outbox-worker.js';
import { startMaintenance } from './maintenance.js';
import { type HostResolver, systemResolver } from './modules/webhooks/address-guard.js';
import {
  createWebhookDeliveryWorker,
  type WebhookDeliveryWorker,
} from './modules/webhooks/delivery-worker.js';
import { webhooksRoutes } from './modules/webhooks/routes.js';
import { createWebhooksService } from './modules/webhooks/service.js';
import { createAccessTokens } from './modules/auth/access-tokens.js';
import { createAccountSessions } from './modules/auth/account-sessions.js';
import { authRoutes } from './modules/auth/routes.js';
import { passkeyRoutes } from './modules/auth/passkey-routes.js';
import { createPasskeys, relyingPartyOf } from './modules/auth/passkeys.js';
import { createSecondFactorSignIn } from './modules/auth/second-factor-sign-in.js';
import { createSecuritySettingsService } from './modules/auth/security-settings.js';
import { securitySettingsRoutes } from './modules/auth/security-settings-routes.js';
import { createStepUp } from './modules/auth/step-up.js';
import { createSecretCipher } from './modules/auth/totp.js';
import { twoFactorRoutes } from './modules/auth/two-factor-routes.js';
import { createTwoFactorService } from './modules/auth/two-factor-service.js';
import { createPasswordHasher } from './modules/auth/password-hasher.js';
import { adminRoutes } from './modules/admin/routes.js';
import { createDashboardService } from './modules/admin/dashboard-service.js';
import { createAdminLicensesService } from './modules/admin/licenses-service.js';
import { createAdminUsersService } from './modules/admin/users-service.js';
import { type AuthService, createAuthService } from './modules/auth/service.js';
import { healthRoutes } from './modules/health/routes.js';
import { createHealthService } from './modules/health/service.js';
import { usersRoutes } from './modules/users/routes.js';
import { createUnsubscribeService } from './modules/users/unsubscribe.js';
import { unsubscribeRoutes } from './modules/users/unsubscribe-routes.js';
import { downloadRoutes } from './modules/downloads/routes.js';
import { createDownloadsService } from './modules/downloads/service.js';
import { createDownloadLinks } from './modules/downloads/signed-links.js';
import { adminReleasesRoutes } from './modules/downloads/admin-routes.js';
import { createAdminReleasesService } from './modules/downloads/admin-releases.js';
import { createUpdateFeedService } from './modules/downloads/update-feed.js';
import { createUpdateLinks } from './modules/downloads/update-links.js';
import { updateRoutes } from './modules/downloads/update-routes.js';
import { featuresRoutes } from './modules/features/routes.js';
import { createFeaturesService } from './modules/features/service.js';
import { createLeaseSigner } from './modules/licensing/lease-signer.js';
import { isLicenseCheckUrl, licensingRoutes } from './modules/licensing/routes.js';
import { createLicensingSettingsService } from './modules/licensing/service.js';
import { INVOICE_PDF_ATTACHMENT, invoicePdfBytes } from './modules/invoices/attachment.js';
import { invoicesModule } from './modules/invoices/module.js';
import { createRefundsService } from './modules/invoices/refunds.js';
import { createBillingService } from './modules/invoices/service.js';
import { createAdminPaymentsService } from './modules/payments/admin-service.js';
import { createConfiguredProvider } from './modules/payments/configured-provider.js';
import { paymentsModule, warnAboutPaymentProvider } from './modules/payments/module.js';
import { createPaymentsService } from './modules/payments/service.js';
import { createWebhookHandler } from './modules/payments/webhooks.js';
import type { PaymentProvider } from './modules/payments/provider.js';
import { licensesRoutes } from './modules/licenses/routes.js';
import { seatActivationRoutes } from './modules/licenses/seat-activation-routes.js';
import { createCheckAnswers } from './modules/licenses/check-answers.js';
import { createLicenseCheckReads } from './modules/licenses/check-repository.js';
import { createLicenseChecksService } from './modules/licenses/check-service.js';
import { createHeartbeatWriter } from './modules/licenses/heartbeat-repository.js';
import { createHeartbeats, type Heartbeats } from './modules/licenses/heartbeats.js';
import { createLicensesService } from './modules/licenses/service.js';
import { plansRoutes } from './modules/plans/routes.js';
import { createPlansService } from './modules/plans/service.js';
import { createPlanCatalogueCache } from './modules/plans/catalogue-cache.js';
import { createUsersService } from './modules/users/service.js';
import { adminSecurityEventsRoutes } from './modules/security/routes.js';
import { createSecurityEventsService } from './modules/security/service.js';
import { addApiKeyCheck } from './plugins/api-key.js';
import { addPathRules, MAX_PATH_SEGMENT_LENGTH } from './plugins/path-rules.js';
import { authenticatePlugin } from './plugins/authenticate.js';
import { apiTokensRoutes } from './modules/api-tokens/routes.js';
import { offlineActivationRoutes } from './modules/offline-activation/routes.js';
import { createOfflineActivationService } from './modules/offline-activation/service.js';
import { createApiTokensService } from './modules/api-tokens/service.js';
import { stepUpPlugin } from './plugins/step-up.js';
import {
  registerErrorHandler,
  sendFrameworkError,
  sendNotFound,
  writeClientError,
} from './plugins/error-handler.js';
import { addNoStoreToApiAnswers } from './plugins/no-store.js';
import { registerCompression } from './plugins/compression.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { addRequestBodyRules } from './plugins/request-body-rules.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { isPortalRoute, registerWebPortal } from './plugins/web-portal.js';
import { loadOrCreateSecret } from './secrets.js';
import { registerSessionBindingCookie } from './plugins/session-binding-cookie.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { resolveTwoFactorKey } from './two-factor-key.js';
import { couponsRoutes } from './modules/coupons/routes.js';
import { supportRoutes } from './modules/support/routes.js';
import { adminOrganisationsRoutes } from './modules/organisations/admin-routes.js';
import { createAdminOrganisationsService } from './modules/organisations/admin-service.js';
import { invitationRoutes } from './modules/organisations/invitation-routes.js';
import { createInvitationsService } from './modules/organisations/invitations.js';
import { organisationsRoutes } from './modules/organisations/routes.js';
import { createOrganisationsService } from './modules/organisations/service.js';
import { createSupportService } from './modules/support/service.js';
import { createCouponsService } from './modules/coupons/service.js';
import { createReceipts } from './modules/invoices/receipts.js';
import { taxInvoiceWarning } from './modules/invoices/settings.js';
import { createLicenseExpiryNotices } from './modules/licenses/expiry-notices.js';
import { createSubscriptionsArea } from './modules/subscriptions/module.js';
import { seatPurchaseRoutes } from './modules/organisations/seat-purchase-routes.js';
import { createSeatPurchases } from './modules/organisations/seat-purchase-service.js';
import { subscriptionsRoutes } from './modules/subscriptions/routes.js';
import { adminSubscriptionsRoutes } from './modules/subscriptions/admin-routes.js';
import { createAdminSubscriptionsService } from './modules/subscriptions/admin-service.js';
import type { SubscriptionsService } from './modules/subscriptions/service.js';

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
  const notTaxInvoices = taxInvoiceWarning(config.invoices);
  if (notTaxInvoices) app.log.warn(notTaxInvoices);
  const receipts = createReceipts({ mailer, publicUrl: config.publicUrl, clock });
  const refunds = createRefundsService({
    db,
    clock,
    provider: paymentProvider,
    invoicing: config.invoices,
    log: app.log,
    mailer,
    publicUrl: config.publicUrl,
  });
  const subscriptionsArea = createSubscriptionsArea({
    db,
    clock,
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
    }),
    features: createFeaturesService({ db, clock, onCatalogueChange }),
    licenses: createLicensesService({
      db,
      clock,
      leases,
      downloadLinks,
      apiUrl: `${config.publicUrl}${API_BASE_PATH}`,
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
    adminLicenses: createAdminLicensesService({ db, clock, mailer, publicUrl: config.publicUrl }),
    securityEvents: createSecurityEventsService({ db }),
    payments: createPaymentsService({
      db,
      clock,
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
      await api.register(licensesRoutes, { licenses: services.licenses });
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
        mailer,
        publicUrl: config.publicUrl,
        ttlHours: config.organisationInvitationTtlHours,
        passwords,
        auth,
      });
      await api.register(organisationsRoutes, {
        organisations: createOrganisationsService({ db, clock, mailer, publicUrl: config.publicUrl }),
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
  startMaintenance(app, db, clock, { lockout: config.lockout });
  return app;
}
