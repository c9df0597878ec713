import type { FastifyInstance } from 'fastify';
import type { PaymentProvider } from './billing/payments/provider.js';
import { createCurrenciesInUse } from './billing/subscriptions/currencies-in-use.js';
import { createTrialCharge } from './billing/subscriptions/trial-charge.js';
import { createCoveredVersions } from './distribution/update-windows.js';
import { createDomainEvents, type DomainEvent } from './domain-events.js';
import type { HostResolver } from './integrations/webhooks/address-guard.js';
import type { PasswordHashCost } from './identity/index.js';
import { isLicenseCheckUrl } from './licensing/leases/check-urls.js';
import { createPlanInUse } from './licensing/licenses/plan-in-use.js';
import { type Clock, systemClock } from './platform/clock.js';
import type { Config } from './platform/config.js';
import { platformContext } from './platform/context.js';
import type { DatabaseHandle } from './platform/db/database.js';
import type { EventBus } from './platform/events.js';
import { createServer } from './platform/http/server.js';
import { createTracing } from './platform/tracing/tracing.js';
import { startMaintenance } from './platform/maintenance.js';
import { expiredRowPrunes } from './pruning.js';

/** The contexts above the platform, in the order of their direction (docs/architecture.md). */
export const CONTEXTS = [
  'identity',
  'integrations',
  'catalogue',
  'licensing',
  'billing',
  'distribution',
  'support',
  'admin',
] as const;
export type ContextName = (typeof CONTEXTS)[number];

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
  /**
   * Only these contexts (and the platform), for a suite that needs no more: the others' code is
   * not even loaded. Each must be given with the contexts it names as dependencies, or the app
   * refuses to boot.
   */
  contexts?: readonly ContextName[];
  /**
   * Cheaper password hashing than OWASP's minimum, for test servers: their sign-ins would
   * otherwise spend most of a suite's time in argon2. Never set by the entry point.
   */
  passwordHashCost?: PasswordHashCost;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the contexts announce, with the outgoing webhooks listening. */
    events: EventBus<DomainEvent>;
  }
}

/**
 * Builds the whole server (API, docs, web portal) without listening; migrates the database first.
 * Each context is a plugin that names the contexts it needs (a missing one refuses to boot), and
 * they are registered in the order of their direction: what a context uses comes before it.
 * Integrations come right after identity, as Fastify closes in the reverse order: a webhook
 * delivery in flight finishes after licensing has written the machines' check-ins.
 */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app = createServer(config, {
    ...overrides,
    quietUrl: isLicenseCheckUrl,
    tracing: await createTracing(config.tracing),
  });
  const clock = overrides.clock ?? systemClock;
  // The webhooks listen to every event; licensing, billing and admin announce on it.
  const events = createDomainEvents(clock);
  app.decorate('events', events);
  try {
    await app.register(platformContext, { config, clock, database: overrides.database });
    const wanted = new Set(overrides.contexts ?? CONTEXTS);
    // Loaded only when built, so a suite of one context imports none of the others.
    // The contexts count what the metrics show through hooks; only the platform knows prom-client.
    const { metrics } = app;
    if (wanted.has('identity'))
      await app.register((await import('./identity/context.js')).identityContext, {
        signIns: { succeeded: metrics.signIn, failed: metrics.signInFailed },
        events,
        passwordHashCost: overrides.passwordHashCost,
        // An account's export and deletion reach licensing's and billing's rows through their interfaces.
        ...(wanted.has('billing')
          ? { accountData: (await import('./account-data.js')).accountDataParts() }
          : {}),
      });
    if (wanted.has('integrations'))
      await app.register((await import('./integrations/context.js')).integrationsContext, {
        resolver: overrides.webhookResolver,
        onDeliveryFailed: metrics.webhookAttemptFailed,
        // The administrators' mail about a disabled endpoint is written in each one's language.
        mailLanguage: (await import('./identity/index.js')).mailLanguage,
      });
    if (wanted.has('catalogue'))
      await app.register((await import('./catalogue/context.js')).catalogueContext, {
        planInUse: createPlanInUse,
        currenciesInUse: createCurrenciesInUse,
      });
    if (wanted.has('licensing'))
      await app.register((await import('./licensing/context.js')).licensingContext, {
        events,
        coveredVersions: createCoveredVersions,
        // Licensing's trial reminders say what a card trial's subscription will charge (billing's price).
        trialCharge: createTrialCharge(config.invoices),
        onLicenseCheck: metrics.licenseCheck,
      });
    if (wanted.has('billing'))
      await app.register((await import('./billing/context.js')).billingContext, {
        events,
        provider: overrides.paymentProvider,
      });
    if (wanted.has('distribution'))
      await app.register((await import('./distribution/context.js')).distributionContext);
    if (wanted.has('support')) await app.register((await import('./support/context.js')).supportContext);
    if (wanted.has('admin'))
      await app.register((await import('./admin/context.js')).adminContext, { events });
  } catch (error) {
    // A context that refuses to boot leaves nothing open behind it (the database, the workers).
    await app.close().catch(() => undefined);
    throw error;
  }

  startMaintenance(app, app.db, clock, { prunes: expiredRowPrunes(config) });
  // Starts the mail worker, now that every context has said how its deferred mail is written.
  await app.ready();
  return app;
}
