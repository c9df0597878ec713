import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { type Config, ConfigError, loadConfig } from './platform/config.js';
import { isPreparingWorker, runClusterPrimary } from './server-cluster.js';

/** How long requests in flight may take to finish once the listener has closed (after the drain). */
const SHUTDOWN_GRACE_MS = 10_000;

/** First-start work done once per deployment: the production mail warning and the first administrator. */
async function prepare(app: FastifyInstance, config: Config): Promise<void> {
  if (config.env === 'production' && !config.mail.smtpUrl) {
    // Right for a first local start, wrong for real users: their mail would never leave this machine.
    app.log.warn(
      `SMTP_URL is not set: mail is written to ${config.mail.outboxDir} and its links to this log, ` +
        'not sent. Fine on your own machine; set SMTP_URL before real users sign up.',
    );
  }

  const { ensureFirstAdmin } = await import('./identity/first-admin.js');
  const firstAdmin = await ensureFirstAdmin(app.db, app.authService, config.bootstrapAdmin);
  if (firstAdmin) {
    const lines = [
      'First administrator created.',
      `  Sign in at ${config.publicUrl}/login`,
      `  Email:    ${firstAdmin.email}`,
      firstAdmin.generatedPassword
        ? `  Password: ${firstAdmin.generatedPassword}   (shown only this once; change it after signing in)`
        : '  Password: the ADMIN_PASSWORD you set',
    ];
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  }
}

/** Builds the server and listens; `prepares` does the first-start work too (the one process, or a cluster's first worker). */
async function serve(config: Config, { prepares }: { prepares: boolean }): Promise<void> {
  // Loaded here, not at the top: a cluster's primary never builds a server, and starts sooner without it.
  const [{ buildApp }, { stopOnSignals }] = await Promise.all([import('./app.js'), import('./shutdown.js')]);
  const app = await buildApp(config);
  if (prepares) await prepare(app, config);

  stopOnSignals(app, { drainMs: config.shutdownDrainMs, graceMs: SHUTDOWN_GRACE_MS });

  await app.listen({ port: config.port, host: config.host });
  await app.openMetricsPort();
  if (prepares)
    app.log.info(`portal and API at ${config.publicUrl} (API reference at ${config.publicUrl}/api/docs)`);
}

async function start(): Promise<void> {
  const config = loadConfig();
  if (config.workers > 1 && cluster.isPrimary) {
    // The first worker migrates, generates the keys and creates the first administrator; the
    // others start once it listens (see server-cluster.ts).
    runClusterPrimary(config, SHUTDOWN_GRACE_MS);
    return;
  }
  await serve(config, { prepares: cluster.isPrimary || isPreparingWorker() });
}

start().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  process.exit(1);
});
