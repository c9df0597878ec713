import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Db } from './db/database.js';
import { claimLease, deleteLeaseOf, insertLeaseUnlessPresent } from './scheduler-lease-repository.js';

/** One piece of scheduled work: it finds what is due itself, so a late or repeated run is harmless. */
export interface ScheduledJob {
  name: string;
  run(): Promise<unknown>;
}

export interface Scheduler {
  /** Runs every job once now if this server holds the lease; false when another server does. */
  runOnce(): Promise<boolean>;
  close(): Promise<void>;
}

const LEASE_NAME = 'scheduler';

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
}: {
  db: Db;
  clock: Clock;
  intervalMs: number;
  /** Read at every run: the platform adds the contexts' jobs to it as each registers. */
  jobs: readonly ScheduledJob[];
  log: FastifyBaseLogger;
}): Scheduler {
  const holder = randomUUID();
  // Long enough that a slow run keeps it, short enough that a stopped server is replaced soon.
  const leaseMs = Math.max(intervalMs * 3, 60_000);
  let running: Promise<boolean> | undefined;
  let closed = false;

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
      try {
        await job.run();
      } catch (error) {
        log.error({ err: error, job: job.name }, 'scheduled job failed; it runs again next time');
      }
    }
    return true;
  }

  const runOnce = (): Promise<boolean> => {
    // One run at a time in this process: a tick that finds the last run still going skips.
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => {
    if (closed || running) return;
    runOnce().catch((error: unknown) => log.error({ err: error }, 'scheduler run failed'));
  }, intervalMs);
  timer.unref();

  return {
    runOnce,
    async close() {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
      // Handing the lease back lets another server take over at once rather than after it expires.
      await deleteLeaseOf(db, LEASE_NAME, holder).catch(() => undefined);
    },
  };
}
