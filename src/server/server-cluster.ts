import cluster, { type Worker } from 'node:cluster';
import type { Config } from './platform/config.js';
import { serveClusterMetrics } from './platform/metrics/cluster-metrics.js';

/** A worker that dies sooner than this after its start is not restarted in a loop: the primary exits. */
const MIN_WORKER_LIFETIME_MS = 5_000;
/** Nor are workers that keep dying later: more restarts than this within the window stop the cluster. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

const log = (message: string) => process.stdout.write(`[cluster] ${message}\n`);

/** Set on the worker that does the first-start work: migrations, generated keys, the first administrator. */
const PREPARING_WORKER_ENV = 'PORTAL_PREPARING_WORKER';

/** Whether this process is the cluster's worker that prepares before the others start. */
export const isPreparingWorker = () => cluster.isWorker && process.env[PREPARING_WORKER_ENV] === '1';

/**
 * WORKERS=N: N server processes share the port (node:cluster hands out connections), for a
 * machine with cores to spare. The first worker migrates, generates the keys and creates the first
 * administrator, and the others start once it listens: they would otherwise race it to migrate,
 * and the port answers as soon as one server is up instead of after N built at once on the same
 * cores (the primary builds none). Each worker is a whole server with its own caches, heartbeat batch
 * and in-memory rate-limit counters (set REDIS_URL to share the sign-in limits). A worker that
 * crashes is replaced; SIGTERM or SIGINT stops them all, passed on as it came: on SIGTERM each
 * worker drains first (see shutdown.ts), on SIGINT it stops at once; each finishes its requests.
 */
export function runClusterPrimary(config: Config, shutdownGraceMs: number): void {
  let stopping = false;
  let exitCode = 0;
  const startedAt = new Map<number, number>();
  let restarts: number[] = [];

  let prepared = false;
  const fork = (): Worker => {
    // Until one worker has prepared and listened, a new worker is the one that prepares.
    const worker = cluster.fork(prepared ? {} : { [PREPARING_WORKER_ENV]: '1' });
    startedAt.set(worker.id, Date.now());
    if (!prepared)
      worker.once('listening', () => {
        prepared = true;
        // Asked to stop while the first one prepared: no others start.
        if (stopping) return;
        for (let index = 1; index < config.workers; index++) fork();
      });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      // A worker that could not stop cleanly makes the whole stop unclean.
      if (code !== 0 && code !== null) exitCode ||= code;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    const why = signal ? `signal ${signal}` : `code ${code}`;
    const now = Date.now();
    restarts = [...restarts.filter((at) => now - at < RESTART_WINDOW_MS), now];
    if (lived < MIN_WORKER_LIFETIME_MS || restarts.length > MAX_RESTARTS) {
      log(`worker ${worker.process.pid} stopped (${why}) and keeps stopping; stopping the cluster`);
      stop(1, 'SIGTERM');
      return;
    }
    log(`worker ${worker.process.pid} stopped (${why}); starting a new one`);
    fork();
  });

  const stop = (code: number, signal: 'SIGTERM' | 'SIGINT') => {
    // Also a SIGINT during a SIGTERM's drain: the workers cut it short.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    if (stopping) return;
    stopping = true;
    exitCode = code;
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    const forced = setTimeout(() => process.exit(1), drainMs + shutdownGraceMs + 2_000);
    forced.unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
  };
  process.on('SIGINT', () => stop(0, 'SIGINT'));
  process.on('SIGTERM', () => stop(0, 'SIGTERM'));

  fork();
  log(`${config.workers} server processes at ${config.publicUrl}`);
  // The workers' metrics, added up, on the metrics port (each worker counts its own requests).
  serveClusterMetrics(config.metrics).then(
    (server) => {
      if (server) log(`metrics of every worker at ${config.metrics.host}:${config.metrics.port}/metrics`);
    },
    (error: unknown) => {
      log(`metrics port ${config.metrics.port} could not be opened: ${String(error)}; stopping the cluster`);
      stop(1, 'SIGTERM');
    },
  );
}
