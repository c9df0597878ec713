import cluster from 'node:cluster';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import {
  createDatabase,
  type DatabaseHandle,
  type Db,
  type DialectName,
  type RawConnection,
} from './db/database.js';
import { migrateToLatest, migrations } from './db/migrate.js';
import { createDrain, type Drain } from './drain.js';
import { createHealthService } from './health/service.js';
import { healthRoutes } from './health/routes.js';
import { decorateApiClient, type ApiKeyOptions } from './http/api-key.js';
import { apiKeyRule, registerApiRoutes } from './http/api-scope.js';
import { registerCompression } from './http/compression.js';
import { sendNotFound } from './http/error-handler.js';
import { addNoStoreToApiAnswers } from './http/no-store.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRateLimit } from './http/rate-limit.js';
import { addRequestBodyRules } from './http/request-body-rules.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { isPortalRoute, registerWebPortal } from './http/web-portal.js';
import { createAttachmentResolvers } from './mail/attachments.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createMailTransport } from './mail/mail-transport.js';
import { createMailOutboxWorker, type MailOutboxWorker, type MailPreparer } from './mail/outbox-worker.js';
import { listenForQueuedMail } from './mail/queued-mail-notifications.js';
import { answerPrimaryScrapes } from './metrics/cluster-metrics.js';
import { countRequests } from './metrics/http-metrics.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { serveMetrics } from './metrics/metrics-endpoint.js';
import { addOutboxGauges } from './metrics/outbox-gauges.js';
import { addPoolGauges } from './metrics/pool-gauges.js';
import type { WatchedOutbox } from './outbox-consumer.js';
import { createUnsubscribeLinks, type UnsubscribeLinks } from './mail/unsubscribe.js';
import { scheduledBackupJob } from './backup/scheduled-backup.js';
import { traceQueries } from './tracing/query-spans.js';
import { createScheduler, type ScheduledJob, type Scheduler } from './scheduler.js';
import { loadOrCreateSecret } from './secrets.js';

/** What every context builds on: the configuration, the clock, the database and the mail. */
export interface Platform {
  config: Config;
  clock: Clock;
  db: Db;
  dialect: DialectName;
  /** The driver's own connection, for the few statements prepared outside Kysely (license checks). */
  raw: RawConnection;
  /** The server's signing secret (sessions, mail and download links). */
  serverSecret: Uint8Array;
  unsubscribeLinks: UnsubscribeLinks;
  /** The API key rule every scope of {@link registerApiRoutes} applies. */
  apiKeys: ApiKeyOptions;
  /**
   * Adds a job to the scheduler's run; a job `afterOthers` runs once the rest have, so a notice
   * sees what the run changed (no expiry mail for a license renewed a moment before).
   */
  schedule(job: ScheduledJob, placement?: { afterOthers: true }): void;
  /** Deferred mail of these kinds is written when it is sent (a fresh link in it). */
  prepareMail(preparers: Record<string, MailPreparer>): void;
  /** A context's queue worker (webhooks): its backlog goes to the metrics, whether it turns to readiness. */
  watchOutbox(outbox: WatchedOutbox): void;
}

export interface PlatformOptions {
  config: Config;
  clock: Clock;
  /** An open database instead of the configured one (tests share one). */
  database?: DatabaseHandle;
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
    db: Db;
    /** Sends the queued mail; `drain()` waits until nothing is due. */
    mailOutbox: MailOutboxWorker;
    /** Queues mail in a transaction; contexts register their attachment resolvers on it. */
    mailer: Mailer;
    /** Renewals, grace periods and reminders; `runOnce()` does what is due now. */
    scheduler: Scheduler;
    /** Begun on SIGTERM: readiness fails while requests are still served (see shutdown.ts). */
    drain: Drain;
    /** This app's metrics (one registry per app) and the recorders the contexts are handed. */
    metrics: Metrics;
  }
}

/**
 * The platform: the database (migrated), the mail outbox and its worker, the scheduler, and the
 * HTTP plumbing every route shares (security headers, compression, rate limits, the OpenAPI
 * document, the web portal). The workers start once every context has registered what they run.
 */
export const platformContext = fp<PlatformOptions>(
  async (app, { config, clock, database }) => {
    // The process metrics only where they are served (see metrics.ts).
    const metrics = createMetrics({
      processMetrics: config.metrics.port !== undefined || config.metrics.token !== undefined,
    });
    const traceQuery = traceQueries(app.tracing, config.databaseUrl ? 'postgres' : 'sqlite');
    const { db, dialect, raw } =
      database ??
      createDatabase({
        ...config,
        onConnectionError: (error) =>
          app.log.warn({ err: error }, 'PostgreSQL connection lost; the pool reconnects'),
        observeQuery: (query) => {
          metrics.queryDuration.observe(
            { statement: query.statement, outcome: query.failed ? 'error' : 'ok' },
            query.durationMs / 1000,
          );
          traceQuery?.(query);
        },
      });
    if (raw.dialect === 'postgres') addPoolGauges(metrics.registry, raw.pool);
    // Filled by the contexts whose mail carries files (invoice PDFs); read by the worker when it sends.
    const attachments = createAttachmentResolvers();
    const mailOutbox = createMailOutboxWorker({
      db,
      dialect,
      clock,
      transport: createMailTransport(config.mail, app.log),
      settings: config.mail,
      log: app.log,
      attachments,
      tracing: app.tracing,
    });
    const queuedMail =
      dialect === 'postgres' && config.databaseUrl
        ? listenForQueuedMail(config.databaseUrl, mailOutbox.wake, app.log)
        : undefined;
    const outboxes: WatchedOutbox[] = [mailOutbox];
    addOutboxGauges(metrics.registry, { outboxes: () => outboxes, clock, log: app.log });
    const jobs: ScheduledJob[] = [];
    let jobsAfterOthers = 0;
    if (config.backup) {
      // After the business work of each run (renewals and the like), which a backup must not delay.
      jobs.push(scheduledBackupJob(config, config.backup, clock, app.log));
      jobsAfterOthers += 1;
    }
    const scheduler = createScheduler({
      db,
      clock,
      intervalMs: config.schedulerIntervalMs,
      jobs,
      log: app.log,
      onJobRun: metrics.jobRun,
    });
    // Closed after every context (Fastify closes in the reverse order of registering): the
    // contexts' own work (check-ins, webhook deliveries) finishes before the database goes.
    app.addHook('onClose', async () => {
      await queuedMail?.close();
      await mailOutbox.close();
      await scheduler.close();
      await db.destroy();
    });
    // The license check's own connection and the heartbeat writer prepare statements on the tables.
    await migrateToLatest(db);

    const serverSecret = new TextEncoder().encode(
      config.jwt.secret ?? loadOrCreateSecret(config.dataDir, 'jwt-secret'),
    );
    const unsubscribeLinks = createUnsubscribeLinks(serverSecret, config.publicUrl);
    const mailPreparers: Record<string, MailPreparer> = {};
    const drain = createDrain();
    app.decorate('platform', {
      config,
      clock,
      db,
      dialect,
      raw,
      serverSecret,
      unsubscribeLinks,
      apiKeys: apiKeyRule(config.apiKeys),
      schedule(job, placement) {
        if (placement?.afterOthers) {
          jobs.push(job);
          jobsAfterOthers += 1;
        } else jobs.splice(jobs.length - jobsAfterOthers, 0, job);
      },
      prepareMail: (preparers) => Object.assign(mailPreparers, preparers),
      watchOutbox: (outbox) => outboxes.push(outbox),
    } satisfies Platform);
    app.decorate('db', db);
    app.decorate('mailOutbox', mailOutbox);
    app.decorate(
      'mailer',
      createMailer({
        clock,
        publicUrl: config.publicUrl,
        dialect,
        wake: mailOutbox.wake,
        attachments,
        unsubscribeLinks,
      }),
    );
    app.decorate('scheduler', scheduler);
    app.decorate('drain', drain);
    app.decorate('metrics', metrics);
    // Also sends the mail left queued when the server last stopped (or crashed).
    app.addHook('onReady', async () => mailOutbox.start(mailPreparers));

    // Before any route, so every answer is counted.
    countRequests(app, metrics);
    await registerHttpPlumbing(app, config);
    // A cluster's workers hand their metrics to the primary, which serves the metrics port.
    if (cluster.isWorker && config.metrics.port !== undefined) answerPrimaryScrapes(metrics.registry);
    serveMetrics(app, metrics.registry, config.metrics, { separatePort: !cluster.isWorker });
    const health = createHealthService({
      db,
      drain,
      migrationNames: Object.keys(migrations),
      loops: () => [...outboxes, { kind: 'scheduler', alive: scheduler.alive }],
    });
    await registerApiRoutes(app, async (api) => {
      await api.register(healthRoutes, { health });
    });
    // The portal sends the `web:` key of API_KEYS; the server hands it over with the page.
    const webApiKey = config.apiKeys.find(({ client }) => client === 'web')?.key;
    const servePortal = await registerWebPortal(app, config.webDir, webApiKey);
    app.setNotFoundHandler((request, reply) =>
      servePortal && isPortalRoute(request) ? servePortal(request, reply) : sendNotFound(request, reply),
    );
  },
  { name: 'platform' },
);

/** What every answer goes through, in this order, before any context's route is added. */
async function registerHttpPlumbing(app: FastifyInstance, config: Config): Promise<void> {
  registerSecurityHeaders(app, { provider: config.payments.provider });
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
  decorateApiClient(app);
}
