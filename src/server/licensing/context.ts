import fp from 'fastify-plugin';
import type { Db } from '../platform/db/database.js';
import type { AccountErasingEvent } from '../identity/index.js';
import type { EventSubscriber } from '../platform/events.js';
import { endLicensingOfErasedAccount } from './account-data/account-data.js';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import { API_BASE_PATH, SCIM_BASE_PATH } from '../../shared/routes.js';
import { apiPaths } from '../../shared/api-paths.js';
import type { ActivationEvent, LicensingEvent, OrganisationAnnouncements } from './events.js';
import type { LicenseCheckObserver } from './leases/check-observer.js';
import { createLeaseSigner } from './leases/lease-signer.js';
import { floatingRoutes } from './floating/routes.js';
import { pruneLapsedSeats } from './floating/lapses.js';
import { createFloatingService } from './floating/service.js';
import { licensingRoutes } from './leases/routes.js';
import { createLicensingSettingsService } from './leases/service.js';
import { createCheckAnswers } from './licenses/check-answers.js';
import { createLicenseCheckReads } from './licenses/check-repository.js';
import { createLicenseChecksService } from './licenses/check-service.js';
import { createLicenseExpiryNotices } from './licenses/expiry-notices.js';
import { createCheckedComponents } from './licenses/fingerprints.js';
import { createHeartbeatWriter } from './licenses/heartbeat-repository.js';
import { createHeartbeats, type Heartbeats } from './licenses/heartbeats.js';
import { licensesRoutes } from './licenses/routes.js';
import type { CoveredVersionsLookup } from './licenses/update-windows.js';
import { seatActivationRoutes } from './licenses/seat-activation-routes.js';
import { createLicensesService } from './licenses/service.js';
import { createUsageReservations } from './usage/reservations.js';
import { offlineActivationRoutes } from './offline-activation/routes.js';
import { createOfflineActivationService } from './offline-activation/service.js';
import { adminOrganisationsRoutes } from './organisations/admin-routes.js';
import { createAdminOrganisationsService } from './organisations/admin-service.js';
import { invitationRoutes } from './organisations/invitation-routes.js';
import { createInvitationsService } from './organisations/invitations.js';
import { createMemberMail } from './organisations/member-mail.js';
import { organisationsRoutes } from './organisations/routes.js';
import { createOrganisationsService } from './organisations/service.js';
import { claimMachineTrialsForPaidLicense } from './trials/machine-repository.js';
import { machineTrialRoutes } from './trials/machine-routes.js';
import { createMachineTrialsService } from './trials/machine-trials.js';
import { createTrialNotices, type TrialChargeLookup } from './trials/notices.js';
import { trialRoutes } from './trials/routes.js';
import { createTrialsService } from './trials/service.js';
import { backendUsageRoutes } from './usage/backend-routes.js';
import { createBackendUsageService } from './usage/backend-usage.js';
import { createAllowanceMail } from './usage/allowance-mail.js';
import { createAdminUsageService } from './usage/admin-usage.js';
import { adminUsageRoutes } from './usage/admin-usage-routes.js';
import { createMemberUsageService } from './usage/member-usage.js';
import { memberUsageRoutes } from './usage/member-usage-routes.js';
import { createProofLookup } from './domains/dns-proof.js';
import { organisationDomainRoutes } from './domains/routes.js';
import { organisationExportRoutes } from './organisations/export-routes.js';
import { createOrganisationExportsService } from './organisations/exports.js';
import { createOrganisationDomainsService } from './domains/service.js';
import { createFederatedArrival } from './sso/federated-arrival.js';
import { createOidcClients } from './sso/oidc-client.js';
import { createSamlMetadataRefresh } from './sso/saml-metadata-refresh.js';
import { ssoRoutes } from './sso/routes.js';
import { createSecretCipher } from './sso/secret-cipher.js';
import { createSsoSettings } from './sso/settings.js';
import { createSamlSignIn } from './sso/saml-sign-in.js';
import { createSsoSignIn } from './sso/sign-in.js';
import { createProvisioning } from './organisations/index.js';
import { createScimGroups } from './scim/groups.js';
import { scimRoutes } from './scim/routes.js';
import { createProvisioningSettings } from './scim/settings.js';
import { provisioningSettingsRoutes } from './scim/settings-routes.js';
import { createScimTokenAuth } from './scim/token-auth.js';
import { createScimUsers } from './scim/users.js';

export interface LicensingOptions {
  /**
   * Where licensing announces licenses, activations and organisations (the composition's bus), and
   * hears its own announcements for the members' mail.
   */
  events: OrganisationAnnouncements & EventSubscriber<LicensingEvent | AccountErasingEvent>;
  /**
   * The versions a perpetual license's ended update window covers, from the releases
   * (distribution's, supplied at composition since licensing may not use distribution).
   */
  coveredVersions?: (db: Db) => CoveredVersionsLookup;
  /**
   * A card trial's first charge still to come, as its subscription will charge it (billing's,
   * supplied at composition since licensing may not use billing): the trial reminders say it.
   */
  trialCharge?: TrialChargeLookup;
  /** Told of every license check's result (the composition counts them for the metrics). */
  onLicenseCheck?: LicenseCheckObserver;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Machines' check-ins waiting to be written; `flush()` writes them now. */
    heartbeats: Heartbeats;
  }
}

/** Licensing: licenses, activations, checks and leases, offline activation, organisations and seats. */
export const licensingContext = fp<LicensingOptions>(
  async (app, { events, coveredVersions, trialCharge, onLicenseCheck }) => {
    const { config, clock, db, raw } = app.platform;
    const { mailer } = app;
    const { publicUrl } = config;
    const leases = await createLeaseSigner({
      dataDir: config.dataDir,
      configuredKey: config.licensing.signingKey,
      issuer: config.jwt.issuer,
      ttlSeconds: config.licensing.leaseTtlSeconds,
      clock,
      // Each online lease of a license with metered features carries the machine's offline allowance.
      reserveUsage: createUsageReservations({
        db,
        clock,
        percent: config.licensing.usageReservationPercent,
        together: raw.dialect === 'sqlite',
      }),
    });
    // The check's own prepared statements and the check-ins' batched writes, off Kysely's path.
    const checkReads = createLicenseCheckReads(raw);
    const heartbeats = createHeartbeats({
      writer: createHeartbeatWriter(raw),
      flushIntervalMs: config.licensing.heartbeatFlushMs,
      onFlushError: (error) =>
        app.log.warn({ err: error }, 'machine check-ins not written; retried at the next flush'),
    });
    app.decorate('heartbeats', heartbeats);
    app.addHook('onClose', async () => {
      // Before the platform's mail worker closes: a mail send may take minutes, and a shutdown cut
      // short must not lose the check-ins.
      await heartbeats
        .close()
        .catch((error: unknown) =>
          app.log.error({ err: error }, 'machine check-ins could not be written at shutdown'),
        );
      checkReads.close();
    });
    app.platform.schedule(
      {
        name: 'license expiry notices',
        run: createLicenseExpiryNotices({
          db,
          clock,
          events,
          mailer,
          publicUrl,
          reminderDays: config.subscriptions.expiryReminderDays,
        }).run,
      },
      { afterOthers: true },
    );

    // Floating seats whose heartbeats stopped or whose borrow ended, with nobody asking since.
    app.platform.schedule({ name: 'floating seats lapsed', run: () => pruneLapsedSeats(db, clock, events) });

    // A member's joining and removal are told as they are announced, in the change's transaction.
    const memberMail = createMemberMail({ mailer, publicUrl });
    // An erased account's licenses end and it leaves its organisations, with the erasure.
    events.on('account.erasing', (trx, { userId, at }) => endLicensingOfErasedAccount(trx, userId, at));
    events.on('organisation.member_joined', (trx, joined) => memberMail.joined(trx, joined));
    events.on('organisation.member_removed', (trx, removed) => memberMail.removed(trx, removed));
    // An allowance's 80 % and 100 % are told to the license's holder as they are announced.
    const allowanceMailer = createAllowanceMail({ mailer, publicUrl });
    events.on('usage.allowance_warning', allowanceMailer);
    events.on('usage.allowance_reached', allowanceMailer);
    // A paid license activated on a machine takes over the machine's trials: it never gets another.
    // (Typed by hand: an activation event's type is a union, which the bus's listener cannot narrow to.)
    events.on('activation.created', async (trx, { activation }: ActivationEvent) => {
      await claimMachineTrialsForPaidLicense(
        trx,
        activation.license_id,
        activation.hardware_id,
        clock.now().toISOString(),
      );
    });

    app.platform.schedule(
      {
        name: 'trial notices',
        run: createTrialNotices({
          db,
          clock,
          events,
          mailer,
          publicUrl,
          ...(trialCharge ? { trialCharge } : {}),
        }).run,
      },
      { afterOthers: true },
    );

    const windowVersions = coveredVersions ? coveredVersions(db) : undefined;
    const planFeatures = async (planId: string) => (await app.catalogue.planCatalogue.get(planId)).features;
    const planCurrency = async (planId: string) => (await app.catalogue.planCatalogue.get(planId)).currency;
    const licenses = createLicensesService({
      db,
      clock,
      events,
      leases,
      planFeatures,
      planCurrency,
      ...(windowVersions ? { coveredVersions: windowVersions } : {}),
    });
    const invitations = createInvitationsService({
      db,
      clock,
      events,
      mailer,
      publicUrl,
      ttlHours: config.organisationInvitationTtlHours,
      passwords: app.identity.passwords,
      auth: app.identity.auth,
    });
    // Single sign-on: licensing holds the organisations' providers and tells identity's password
    // sign-in which addresses must use theirs.
    const ssoCipher = createSecretCipher(app.platform.serverSecret);
    const oidcClients = createOidcClients({
      allowHttp: config.ssoAllowHttpIssuers,
      now: () => clock.now().getTime(),
    });
    const ssoRedirectUri = `${publicUrl}${API_BASE_PATH}${apiPaths.auth.ssoCallback}`;
    // What both protocols do once the provider's answer is verified.
    const ssoArrival = createFederatedArrival({
      db,
      clock,
      events,
      publicUrl,
      passwords: app.identity.passwords,
      auth: app.identity.auth,
    });
    const samlSignIn = createSamlSignIn({
      db,
      clock,
      publicUrl,
      arrival: ssoArrival,
      metadata: createSamlMetadataRefresh({ db, clock, allowHttp: oidcClients.allowHttp }),
    });
    const ssoSignIn = createSsoSignIn({
      db,
      clock,
      cipher: ssoCipher,
      clients: oidcClients,
      redirectUri: ssoRedirectUri,
      arrival: ssoArrival,
      saml: samlSignIn,
      auth: app.identity.auth,
    });
    app.identity.passwordGate.use(ssoSignIn.requirementFor);
    // SCIM provisioning: identity providers move members and seats with the organisation's token.
    const provisioning = createProvisioning({
      clock,
      events,
      mailer,
      publicUrl,
      ttlHours: config.organisationInvitationTtlHours,
    });
    const scim = { db, clock, provisioning, publicUrl };
    await app.register(scimRoutes, {
      prefix: SCIM_BASE_PATH,
      users: createScimUsers(scim),
      groups: createScimGroups(scim),
      callerOf: createScimTokenAuth({ db, clock }),
      publicUrl,
    });
    await registerApiRoutes(app, async (api) => {
      await api.register(licensesRoutes, { licenses });
      await api.register(backendUsageRoutes, {
        usage: createBackendUsageService({ db, clock, planFeatures, planCurrency, events }),
      });
      await api.register(seatActivationRoutes, { seats: licenses });
      await api.register(trialRoutes, {
        trials: createTrialsService({
          db,
          dialect: app.platform.dialect,
          clock,
          events,
          activation: licenses,
        }),
      });
      await api.register(machineTrialRoutes, {
        machineTrials: createMachineTrialsService({ db, dialect: app.platform.dialect, clock, leases }),
        rateLimitPerMinute: config.authRateLimitPerMinute,
      });
      await api.register(licensingRoutes, {
        checks: createLicenseChecksService({
          clock,
          leases,
          planCatalogue: app.catalogue.planCatalogue,
          reads: checkReads,
          heartbeats,
          answers: createCheckAnswers({
            maxEntries: config.licensing.checkCacheEntries,
            maxBytes: config.licensing.checkCacheBytes,
          }),
          leaseReuseShare: config.licensing.leaseReuseShare,
          ...(windowVersions ? { coveredVersions: windowVersions } : {}),
          checkedComponents: createCheckedComponents({ db, clock }),
        }),
        leases,
        settings: createLicensingSettingsService({ db, clock }),
        checksPerMinute: config.licensing.checksPerMinute,
        clock,
        ...(onLicenseCheck ? { onCheck: onLicenseCheck } : {}),
      });
      await api.register(floatingRoutes, {
        floating: createFloatingService({
          db,
          clock,
          leases,
          events,
          planCatalogue: app.catalogue.planCatalogue,
        }),
        checksPerMinute: config.licensing.checksPerMinute,
        clock,
      });
      await api.register(offlineActivationRoutes, {
        offline: createOfflineActivationService({ db, clock, leases, licenses }),
      });
      await api.register(organisationsRoutes, {
        organisations: createOrganisationsService({ db, clock, events }),
        invitations,
      });
      await api.register(invitationRoutes, {
        invitations,
        rateLimitPerMinute: config.authRateLimitPerMinute,
      });
      await api.register(adminOrganisationsRoutes, {
        adminOrganisations: createAdminOrganisationsService({ db, clock }),
      });
      await api.register(memberUsageRoutes, { memberUsage: createMemberUsageService({ db, clock }) });
      await api.register(adminUsageRoutes, { adminUsage: createAdminUsageService({ db, clock }) });
      await api.register(organisationExportRoutes, { exports: createOrganisationExportsService({ db }) });
      await api.register(organisationDomainRoutes, {
        domains: createOrganisationDomainsService({
          db,
          clock,
          lookUpProof: createProofLookup(config.dnsResolvers),
        }),
      });
      await api.register(ssoRoutes, {
        settings: createSsoSettings({
          db,
          clock,
          cipher: ssoCipher,
          clients: oidcClients,
          redirectUri: ssoRedirectUri,
          publicUrl,
        }),
        signIn: ssoSignIn,
        saml: samlSignIn,
        publicUrl,
        rateLimitPerMinute: config.authRateLimitPerMinute,
      });
      await api.register(provisioningSettingsRoutes, { settings: createProvisioningSettings(scim) });
    });
  },
  { name: 'licensing', dependencies: ['platform', 'identity', 'catalogue'] },
);
