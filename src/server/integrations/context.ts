import fp from 'fastify-plugin';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import { type HostResolver, systemResolver } from './webhooks/address-guard.js';
import { createWebhookDeliveryWorker, type WebhookDeliveryWorker } from './webhooks/delivery-worker.js';
import { webhooksRoutes } from './webhooks/routes.js';
import { createWebhooksService } from './webhooks/service.js';

export interface IntegrationsOptions {
  /** Resolves webhook endpoints' host names (tests play DNS, e.g. a name that turns private). */
  resolver?: HostResolver;
  /** Told of each failed delivery attempt; `final` when the delivery has none left (the metrics). */
  onDeliveryFailed?: (final: boolean) => void;
  /** The language an account's mail is written in (identity's `mailLanguage`): the disabled endpoint's mail. */
  mailLanguage?: (account: { preferences: string }) => string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends queued webhook deliveries; `drain()` sends what is due now. */
    webhookDeliveries: WebhookDeliveryWorker;
  }
}

/**
 * Integrations: the customers' outgoing webhooks. What they carry is queued by the composition's
 * listeners on the domain events (domain-events.ts); this context delivers it and manages endpoints.
 */
export const integrationsContext = fp<IntegrationsOptions>(
  async (app, { resolver, onDeliveryFailed, mailLanguage }) => {
    const { config, clock, db, dialect } = app.platform;
    const policy = {
      allowPrivateTargets: config.webhooks.allowPrivateTargets,
      resolver: resolver ?? systemResolver,
    };
    const webhookDeliveries = createWebhookDeliveryWorker({
      db,
      dialect,
      clock,
      mailer: app.mailer,
      settings: { ...config.webhooks, ...policy, publicUrl: config.publicUrl },
      log: app.log,
      tracing: app.tracing,
      ...(onDeliveryFailed ? { onAttemptFailed: onDeliveryFailed } : {}),
      ...(mailLanguage ? { mailLanguage } : {}),
    });
    // Also sends what was left queued when the server last stopped.
    webhookDeliveries.start();
    app.platform.watchOutbox(webhookDeliveries);
    app.decorate('webhookDeliveries', webhookDeliveries);
    // A delivery in flight finishes before the platform closes the database.
    app.addHook('onClose', () => webhookDeliveries.close());
    await registerApiRoutes(app, async (api) => {
      await api.register(webhooksRoutes, {
        webhooks: createWebhooksService({ db, clock, policy, wake: webhookDeliveries.wake }),
      });
    });
  },
  { name: 'integrations', dependencies: ['platform'], decorators: { fastify: ['requireAdmin'] } },
);
