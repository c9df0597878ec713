import type { FastifyInstance } from 'fastify';

/**
 * Stopping without dropping a request. SIGTERM (what an orchestrator or `docker stop` sends): the
 * readiness route fails at once while every request is still served for `drainMs`, so a load
 * balancer that checks it sends new requests to other instances first; then the listener closes,
 * requests in flight are finished, keep-alive connections close as they go idle, and the database
 * closes last. SIGINT (Ctrl-C) skips the drain, and cuts short one under way.
 */
export function stopOnSignals(
  app: FastifyInstance,
  { drainMs, graceMs }: { drainMs: number; graceMs: number },
) {
  let drainTimer: NodeJS.Timeout | undefined;
  let closing = false;

  const close = () => {
    clearTimeout(drainTimer);
    if (closing) return;
    closing = true;
    app.drain.begin();
    app.log.info('shutting down: no new connections; finishing in-flight requests');
    const forced = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, graceMs);
    forced.unref();
    // close() leaves open a keep-alive connection whose request was still running when it began
    // (fastify/fastify#7044), which would hold the exit until the forced one; close those as they go idle.
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    closeIdle.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };

  process.on('SIGTERM', () => {
    if (app.drain.draining) return;
    app.drain.begin();
    if (drainMs === 0) return close();
    app.log.info({ drainMs }, 'SIGTERM: readiness fails now; still serving until the drain ends');
    drainTimer = setTimeout(close, drainMs);
  });
  process.on('SIGINT', close);
}
