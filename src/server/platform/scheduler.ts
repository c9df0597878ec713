import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Db } from './db/database.js';
import { claimLease, deleteLeaseOf, insertLeaseUnlessPresent } from './scheduler-lease-repository.js';

/** One piece of scheduled work: it finds what is due itself, so a late or repeated run is harmless. */
export interface ScheduledJob {
  name: string;
  run(): Promise<unknown>;
}

/** How one job's run went, for the metrics. */
export interface JobRun {
  job: string;
  /** How late it started: seconds past its previous start plus the interval (0 on time or first). */
  lagSeconds: number;
  durationSeconds: number;
  failed: boolean;
  /** When it finished, Unix seconds (by the clock, as the jobs see time). */
  finishedAt: number;
}

export interface Scheduler {
  /** Runs every job once now if this server holds the lease; false when another server does. */
  runOnce(): Promise<boolean>;
  /**
   * Whether the timer still turns: not closed, and it ticked within a few intervals, or a run has
   * been going for less than the lease (the readiness probe asks).
   */
  alive(): boolean;
  close(): Promise<void>;
}

const LEASE_NAME = 'scheduler';
/** Past this many intervals without a tick (plus the slack, for a busy event loop), it has stalled. */
const STALLED_AFTER_TICKS = 3;
const STALL_SLACK_MS = 10_000;

/**
 * Runs the scheduled jobs every interval on one server at a time: the servers share a lease row,
 * and whoever holds it (renewing it each run) does the work; when the holder stops, another takes
 * the lease over once it has expired. The jobs themselves change each thing conditionally, so even
 * two runs at once (a holder stalled past its lease) do each thing once.
 */
export function createScheduler({
  db,
  clock,
  intervalMs,
  jobs,
  log,
  onJobRun,
}: {
  db: Db;
  clock: Clock;
  intervalMs: number;
  /** Told after each job's run. */
  onJobRun?: (run: JobRun) => void;
  /** Read at every run: the platform adds the contexts' jobs to it as each registers. */
  jobs: readonly ScheduledJob[];
  log: FastifyBaseLogger;
}): Scheduler {
  const holder = randomUUID();
  // Long enough that a slow run keeps it, short enough that a stopped server is replaced soon.
  const leaseMs = Math.max(intervalMs * 3, 60_000);
  let running: Promise<boolean> | undefined;
  let closed = false;
  // Process time: whether the timer turns is about this process, whatever the clock says.
  let lastTickAt = performance.now();
  let runStartedAt = 0;
  const lastStartOf = new Map<string, number>();

  async function takeLease(): Promise<boolean> {
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + leaseMs).toISOString();
    const lease = { name: LEASE_NAME, holder, expiresAt };
    await insertLeaseUnlessPresent(db, lease);
    return claimLease(db, lease, now.toISOString());
  }

  async function run(): Promise<boolean> {
    if (!(await takeLease())) return false;
    for (const job of jobs) {
      const startedAt = clock.now().getTime();
      const previous = lastStartOf.get(job.name);
      lastStartOf.set(job.name, startedAt);
      const began = performance.now();
      let failed = false;
      try {
        await job.run();
      } catch (error) {
        failed = true;
        log.error({ err: error, job: job.name }, 'scheduled job failed; it runs again next time');
      }
      onJobRun?.({
        job: job.name,
        lagSeconds: previous === undefined ? 0 : Math.max(0, startedAt - previous - intervalMs) / 1000,
        durationSeconds: (performance.now() - began) / 1000,
        failed,
        finishedAt: clock.now().getTime() / 1000,
      });
    }
    return true;
  }

  const runOnce = (): Promise<boolean> => {
    // One run at a time in this process: a tick that finds the last run still going skips.
    if (!running) runStartedAt = performance.now();
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => {
    lastTickAt = performance.now();
    if (closed || running) return;
    runOnce().catch((error: unknown) => log.error({ err: error }, 'scheduler run failed'));
  }, intervalMs);
  timer.unref();

  return {
    runOnce,
    alive() {
      if (closed) return false;
      const now = performance.now();
      if (running) return now - runStartedAt < leaseMs;
      return now - lastTickAt < intervalMs * STALLED_AFTER_TICKS + STALL_SLACK_MS;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
      // Handing the lease back lets another server take over at once rather than after it expires.
      await deleteLeaseOf(db, LEASE_NAME, holder).catch(() => undefined);
    },
  };
}
